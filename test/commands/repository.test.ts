import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BIN, isolatedEnv, parseNdjson } from '../support/harness.js';
import { sandboxEnv } from '../support/sandbox.js';
import { execa } from 'execa';
import { onlyRequest, useSandbox } from './support.js';

const suite = useSandbox({ projects: 4 });
const encoded = (id: number) => suite.sandbox.state.project(id)!.fullPath.replace(/\//g, '%2F');

describe('issues', () => {
  it('gets an issue by iid and lists its notes across pages', async () => {
    const issue = await suite.run(['issues', 'get', suite.sandbox.state.project(1)!.fullPath, '1', '-o', 'json']);
    expect(issue.exitCode).toBe(0);
    expect(JSON.parse(issue.stdout)).toMatchObject({ iid: 1, id: 101, project_id: 1 });
    expect(onlyRequest(suite, 'GET', /issues/).rawPath).toBe(`/api/v4/projects/${encoded(1)}/issues/1`);

    const notes = await suite.run(['issues', 'notes', '1', '1', '--all', '--per-page', '20', '--sort', 'asc', '-o', 'ndjson']);
    expect(notes.exitCode).toBe(0);
    const records = parseNdjson(notes.stdout) as Array<{ id: number }>;
    expect(records).toHaveLength(45);
    expect(new Set(records.map((n) => n.id)).size).toBe(45);
    const pages = suite.requests();
    expect(pages.map((r) => r.rawPath)).toEqual(Array(3).fill('/api/v4/projects/1/issues/1/notes'));
    expect(pages[0]!.rawQuery).toBe('sort=asc&per_page=20');

    const tsv = await suite.run(['issues', 'notes', '1', '1', '--limit', '2']);
    expect(tsv.stdout.split('\n')[0]).toBe('id\tauthor.username\tcreated_at\tsystem\tbody');
    expect(tsv.stdout.trimEnd().split('\n')).toHaveLength(3);
  });

  it('says on a 404 that the path takes the iid, not the global id', async () => {
    const result = await suite.run(['issues', 'get', '1', '101']);
    expect(result.exitCode).toBe(5);
    expect(result.stderr).toBe(
      "svc: GET /projects/1/issues/101 failed: 404 Not found (the path takes the issue's iid, its number within the project, not the global id; is #101 right?)\n",
    );
    const notes = await suite.run(['issues', 'notes', '1', '101']);
    expect(notes.exitCode).toBe(5);
    expect(notes.stderr).toContain("the path takes the issue's iid");
    expect(notes.stdout).toBe('');
    const project = await suite.run(['issues', 'get', 'no/such', '1']);
    expect(project.exitCode).toBe(5);
    expect(project.stderr).not.toContain('iid');
    const bad = await suite.run(['issues', 'get', '1', '#']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toBe("svc: invalid iid '#': expected the issue's number, such as 12 or #12\n");
  });

  it("accepts the iid as the web UI shows it, with its '#' (#9)", async () => {
    const result = await suite.run(['issues', 'get', '1', '#3', '-o', 'json', '--fields', 'iid']);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ iid: 3 });
    expect(onlyRequest(suite, 'GET', /issues/).rawPath).toBe('/api/v4/projects/1/issues/3');
  });
});

describe('files get', () => {
  it('shows metadata without the content, with / and + in the path encoded', async () => {
    const result = await suite.run(['files', 'get', '1', 'docs/c++/notes+tips.md', '--ref', 'feature/search-v2', '-o', 'json']);
    expect(result.exitCode).toBe(0);
    const metadata = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(metadata).toMatchObject({ file_path: 'docs/c++/notes+tips.md', ref: 'feature/search-v2', encoding: 'base64' });
    expect(metadata).not.toHaveProperty('content');
    const request = onlyRequest(suite, 'GET', /files/);
    expect(request.rawPath).toBe('/api/v4/projects/1/repository/files/docs%2Fc%2B%2B%2Fnotes%2Btips.md');
    expect(request.rawQuery).toBe('ref=feature%2Fsearch-v2');
    const table = await suite.run(['files', 'get', '1', 'docs/release notes.md', '--ref', 'main']);
    expect(table.stdout.split('\n')[0]).toBe('file_path\tsize\tref\tblob_id\tlast_commit_id\tcontent_sha256');
    expect(onlyRequest(suite, 'GET', /files/).rawPath).toBe('/api/v4/projects/1/repository/files/docs%2Frelease%20notes.md');
  });

  it('writes the exact bytes of a binary file with --raw', async () => {
    const result = await execa('node', [BIN, 'files', 'get', '1', 'assets/logo.png', '--ref', 'main', '--raw'], {
      env: isolatedEnv({ env: sandboxEnv(suite.sandbox) }),
      extendEnv: false,
      encoding: 'buffer',
      reject: false,
    });
    expect(result.exitCode).toBe(0);
    const bytes = Buffer.from(result.stdout as Uint8Array);
    const raw = await fetch(`${suite.sandbox.url}/api/v4/projects/1/repository/files/assets%2Flogo.png/raw?ref=main`);
    const expected = Buffer.from(await raw.arrayBuffer());
    expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(createHash('sha256').update(expected).digest('hex'));
    expect(bytes.length).toBe(expected.length);
  });

  it('exits 5 for a missing file or ref', async () => {
    const missing = await suite.run(['files', 'get', '1', 'no/such.md', '--ref', 'main', '--raw']);
    expect(missing.exitCode).toBe(5);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toBe('svc: GET /projects/1/repository/files/no%2Fsuch.md/raw failed: 404 File Not Found\n');
    const noRef = await suite.run(['files', 'get', '1', 'README.md', '--ref', 'no-such-branch']);
    expect(noRef.exitCode).toBe(5);
  });

  it("reads the project's default branch without --ref (#9 item 7)", async () => {
    const result = await suite.run(['files', 'get', '1', 'README.md', '-o', 'json', '--fields', 'file_path,ref']);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ file_path: 'README.md', ref: 'main' });
    expect(suite.requests().map((r) => `${r.method} ${r.rawPath}?${r.rawQuery}`)).toEqual([
      'GET /api/v4/projects/1?',
      'GET /api/v4/projects/1/repository/files/README.md?ref=main',
    ]);
  });

  it('streams --raw from the raw route, which a CI job token may use (#9 item 7)', async () => {
    // Project 2 is the job token's own project.
    const expected = await fetch(`${suite.sandbox.url}/api/v4/projects/2/repository/files/README.md/raw?ref=main`, {
      headers: { 'PRIVATE-TOKEN': suite.sandbox.tokens.admin },
    });
    const result = await suite.run(['files', 'get', '2', 'README.md', '--raw'], { token: suite.sandbox.tokens.job, tokenType: 'job' });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(await expected.text());
    const request = onlyRequest(suite, 'GET', /files/);
    expect(request.rawPath).toBe('/api/v4/projects/2/repository/files/README.md/raw');
    expect(request.rawQuery).toBe('');
  });
});

describe('branches commits and tags get', () => {
  it('lists commits of a branch with / in its name, in json and tsv', async () => {
    const json = await suite.run(['branches', 'commits', '2', 'feature/search-v2', '--all', '-o', 'json']);
    expect(json.exitCode).toBe(0);
    const commits = JSON.parse(json.stdout) as Array<{ title: string }>;
    expect(commits.length).toBeGreaterThan(1);
    expect(commits[0]!.title).toContain('search-v2');
    expect(suite.requests()[0]!.rawPath).toBe('/api/v4/projects/2/branches/feature%2Fsearch-v2/commits');
    const tsv = await suite.run(['branches', 'commits', '2', 'main', '--limit', '1']);
    expect(tsv.stdout.split('\n')[0]).toBe('short_id\tcreated_at\tauthor_name\ttitle');
    const missing = await suite.run(['branches', 'commits', '2', 'no/such']);
    expect(missing.exitCode).toBe(5);
  });

  it('gets a tag with + in its name', async () => {
    const result = await suite.run(['tags', 'get', suite.sandbox.state.project(2)!.fullPath, 'v1.0.0+build.5', '-o', 'json']);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ name: 'v1.0.0+build.5' });
    expect(onlyRequest(suite, 'GET', /tags/).rawPath).toBe(`/api/v4/projects/${encoded(2)}/repository/tags/v1.0.0%2Bbuild.5`);
    const fields = await suite.run(['tags', 'get', '2', 'v1.1.0', '--fields', 'name,release.tag_name']);
    expect(fields.stdout).toBe('name\trelease.tag_name\nv1.1.0\tv1.1.0\n');
    const missing = await suite.run(['tags', 'get', '2', 'v9']);
    expect(missing.exitCode).toBe(5);
    expect(missing.stderr).toBe('svc: GET /projects/2/repository/tags/v9 failed: 404 Tag Not Found\n');
  });
});
