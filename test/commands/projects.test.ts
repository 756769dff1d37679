import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseNdjson, svc, tempDir } from '../support/harness.js';
import { req } from '../sandbox/helpers.js';
import { onlyRequest, useSandbox } from './support.js';

const suite = useSandbox({ projects: 10 });
const fullPath = (id: number) => suite.sandbox.state.project(id)!.fullPath;

describe('projects list', () => {
  it('shows repository_storage to an administrator, in tsv, json and ndjson', async () => {
    const tsv = await suite.run(['projects', 'list', '--limit', '3']);
    expect(tsv.exitCode).toBe(0);
    const lines = tsv.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('id\tpath_with_namespace\tvisibility\trepository_storage\tlast_activity_at');
    expect(lines).toHaveLength(4);
    expect(tsv.stderr).toBe('');
    const listing = onlyRequest(suite, 'GET', /^\/api\/v4\/projects$/);
    expect(listing.rawQuery).toBe('per_page=3');

    const json = await suite.run(['projects', 'list', '--limit', '2', '-o', 'json']);
    const records = JSON.parse(json.stdout) as Array<{ id: number; repository_storage: string }>;
    expect(records).toHaveLength(2);
    expect(records[0]!.repository_storage).toBe('default');

    const ndjson = await suite.run(['projects', 'list', '--limit', '2', '-o', 'ndjson', '--fields', 'id,path_with_namespace']);
    expect(parseNdjson(ndjson.stdout)).toEqual([
      { id: 10, path_with_namespace: fullPath(10) },
      { id: 9, path_with_namespace: fullPath(9) },
    ]);
  });

  it('leaves the storage column out for a user the service does not show it to', async () => {
    const result = await suite.run(['projects', 'list', '--limit', '2'], { token: suite.sandbox.tokens.user });
    expect(result.exitCode).toBe(0);
    expect(result.stdout.split('\n')[0]).toBe('id\tpath_with_namespace\tvisibility\tlast_activity_at');
  });

  it('filters by storage and search, and pages by keyset with --all', async () => {
    suite.sandbox.state.setProjectStorage(4, 'storage2');
    const result = await suite.run(['projects', 'list', '--storage', 'storage2', '--all', '-o', 'json']);
    expect(result.exitCode).toBe(0);
    expect((JSON.parse(result.stdout) as Array<{ id: number }>).map((p) => p.id)).toEqual([4]);
    // Keyset: the page after the last record is empty and ends the listing.
    const [listing, end] = suite.requests();
    expect(new URLSearchParams(listing!.rawQuery).get('pagination')).toBe('keyset');
    expect(new URLSearchParams(listing!.rawQuery).get('order_by')).toBe('id');
    expect(new URLSearchParams(end!.rawQuery).get('id_before')).toBe('4');
    expect(new URLSearchParams(listing!.rawQuery).get('repository_storage')).toBe('storage2');

    const search = await suite.run([
      'projects',
      'list',
      '--search',
      fullPath(3).split('/').pop()!,
      '--order-by',
      'name',
      '--sort',
      'asc',
      '-o',
      'json',
    ]);
    expect((JSON.parse(search.stdout) as Array<{ id: number }>).map((p) => p.id)).toContain(3);
    expect(onlyRequest(suite, 'GET', /^\/api\/v4\/projects$/).rawQuery).toContain('order_by=name');
  });

  it('refuses --storage for a non-administrator instead of listing every project (exit 4)', async () => {
    const result = await suite.run(['projects', 'list', '--storage', 'default'], { token: suite.sandbox.tokens.user });
    expect(result.exitCode).toBe(4);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^svc: --storage default: filtering by storage needs an administrator's token\n$/);
  });

  it('rejects a bad flag before any request (exit 2), and a bad token with exit 3', async () => {
    const bad = await suite.run(['projects', 'list', '--visibility', 'secret']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--visibility');
    expect(suite.requests()).toHaveLength(0);
    const unauthenticated = await suite.run(['projects', 'list'], { token: 'not-a-token' });
    expect(unauthenticated.exitCode).toBe(3);
    expect(unauthenticated.stderr).toMatch(/^svc: GET \/projects failed: 401/);
  });
});

describe('projects get', () => {
  it('encodes a namespaced path as one segment', async () => {
    const result = await suite.run(['projects', 'get', fullPath(1), '-o', 'json']);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout).id).toBe(1);
    expect(onlyRequest(suite, 'GET', /^\/api\/v4\/projects\//).rawPath).toBe(`/api/v4/projects/${fullPath(1).replace(/\//g, '%2F')}`);
  });

  it('exits 5 on an unknown project', async () => {
    const result = await suite.run(['projects', 'get', 'nobody/nothing']);
    expect(result.exitCode).toBe(5);
    expect(result.stderr).toBe('svc: GET /projects/nobody%2Fnothing failed: 404 Project Not Found\n');
  });
});

describe('projects create', () => {
  it('creates in a namespace given by path and prints the project', async () => {
    const result = await suite.run([
      'projects',
      'create',
      '--name',
      'Docs Site',
      '--path',
      'docs-site',
      '--namespace',
      'acme/platform',
      '--description',
      'the docs',
      '--visibility',
      'internal',
      '-o',
      'json',
    ]);
    expect(result.exitCode).toBe(0);
    const project = JSON.parse(result.stdout) as { path_with_namespace: string; visibility: string };
    expect(project).toMatchObject({ path_with_namespace: 'acme/platform/docs-site', visibility: 'internal' });
    expect(onlyRequest(suite, 'GET', /namespaces/).rawPath).toBe('/api/v4/namespaces/acme%2Fplatform');
    const create = onlyRequest(suite, 'POST', /^\/api\/v4\/projects$/);
    expect(create.headers['content-type']).toBe('application/json');
    expect(create.bodyJson).toEqual({
      name: 'Docs Site',
      path: 'docs-site',
      namespace_id: 2,
      description: 'the docs',
      visibility: 'internal',
    });
  });

  it('renders a validation error field by field (exit 6)', async () => {
    const result = await suite.run(['projects', 'create', '--name', 'Docs Site', '--path', 'docs-site', '--namespace', '2']);
    expect(result.exitCode).toBe(6);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('svc: POST /projects failed: 400 Bad Request: name: has already been taken; path: has already been taken\n');
    expect(onlyRequest(suite, 'POST', /^\/api\/v4\/projects$/).bodyJson).toMatchObject({ namespace_id: 2 });
  });

  it('exits 4 for a read-only token, 5 for an unknown namespace, 2 without --name', async () => {
    const readOnly = await suite.run(['projects', 'create', '--name', 'x'], { token: suite.sandbox.tokens.readApi });
    expect(readOnly.exitCode).toBe(4);
    expect(readOnly.stderr).toContain("lacks the scope 'api'");
    const noNamespace = await suite.run(['projects', 'create', '--name', 'x', '--namespace', 'no/such']);
    expect(noNamespace.exitCode).toBe(5);
    expect(suite.requests().filter((r) => r.method === 'POST')).toHaveLength(0);
    const noName = await suite.run(['projects', 'create', '--path', 'x']);
    expect(noName.exitCode).toBe(2);
    expect(noName.stderr).toContain("required option '--name <name>' not specified");
    expect(suite.requests()).toHaveLength(0);
  });
});

describe('projects import', () => {
  const dir = tempDir();
  const archive = join(dir, 'export.tar.gz');
  writeFileSync(archive, gzipSync(Buffer.alloc(200_000, 'project export ')));
  const notGzip = join(dir, 'broken.tar.gz');
  writeFileSync(notGzip, 'plain text, not an archive');

  it('streams a multipart upload with a known length and waits until finished', async () => {
    const result = await suite.run([
      'projects',
      'import',
      '--file',
      archive,
      '--path',
      'restored',
      '--namespace',
      'acme',
      '--name',
      'Restored',
      '--override',
      'visibility=private',
      '--override',
      'description=a=b',
      '--wait',
      '--interval',
      '0.05',
      '-o',
      'json',
    ]);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ path_with_namespace: 'acme/restored', import_status: 'finished' });
    expect(result.stderr).toContain('import of acme/restored: finished');
    const upload = onlyRequest(suite, 'POST', /^\/api\/v4\/projects\/import$/);
    expect(upload.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(upload.headers['content-length']).toBe(String(Buffer.byteLength(upload.body, 'latin1')));
    for (const field of [
      'name="path"',
      'name="namespace"',
      'name="name"',
      'name="override_params[visibility]"',
      'name="override_params[description]"',
      'name="file"; filename="export.tar.gz"',
    ]) {
      expect(upload.body).toContain(field);
    }
    expect(upload.body).toContain('\r\n\r\na=b\r\n');
    expect(suite.requests().filter((r) => r.rawPath.endsWith('/import') && r.method === 'GET').length).toBeGreaterThan(0);
    expect(suite.sandbox.state.project('acme/restored')!.visibility).toBe('private');
  });

  it('prints the scheduled import without --wait', async () => {
    const result = await suite.run(['projects', 'import', '--file', archive, '--path', 'restored-2']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout.split('\n')[0]).toBe('id\tpath_with_namespace\timport_status\timport_error');
    expect(result.stdout).toContain('\tscheduled\t');
  });

  it('exits 8 with the import error when the import fails', async () => {
    const result = await suite.run(['projects', 'import', '--file', notGzip, '--path', 'broken', '--wait', '--interval', '0.05']);
    expect(result.exitCode).toBe(8);
    expect(result.stdout).toContain('\tfailed\t');
    expect(result.stderr).toMatch(/svc: import of root\/broken failed: .+\n$/);
  });

  it('exits 8 when --timeout passes first', async () => {
    const result = await suite.run([
      'projects',
      'import',
      '--file',
      archive,
      '--path',
      'slowpoke',
      '--wait',
      '--interval',
      '0.05',
      '--timeout',
      '0.05',
    ]);
    expect(result.exitCode).toBe(8);
    expect(result.stderr).toMatch(/svc: import of root\/slowpoke still (scheduled|started) after/);
  });

  it('refuses a missing, unreadable or directory archive, or a bad --override, before any request (exit 2)', async () => {
    const sub = join(dir, 'a-directory');
    mkdirSync(sub);
    const cases: Array<[string[], RegExp]> = [
      [['--file', join(dir, 'missing.tar.gz')], /--file .*missing\.tar\.gz: no such file/],
      [['--file', sub], /--file .*a-directory: is a directory, not a file/],
      [['--file', archive, '--override', 'visibility'], /--override 'visibility': expected KEY=VALUE/],
    ];
    for (const [args, message] of cases) {
      const result = await suite.run(['projects', 'import', '--path', 'x', ...args]);
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      // Nothing was uploaded (a poll the previous test abandoned at its deadline may still land).
      expect(suite.requests().filter((r) => r.method !== 'GET')).toEqual([]);
    }
  });
});

describe('projects unshare', () => {
  it('deletes the share: nothing on stdout, one line on stderr; 404 the second time', async () => {
    const share = await req(suite.sandbox.url, '/api/v4/projects/5/share', {
      method: 'POST',
      token: suite.sandbox.tokens.admin,
      json: { group_id: 4, group_access: 30 },
    });
    expect(share.status).toBe(201);
    const result = await suite.run(['projects', 'unshare', fullPath(5), '4']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`project ${fullPath(5)} is no longer shared with group 4\n`);
    expect(onlyRequest(suite, 'DELETE', /share/).rawPath).toBe(`/api/v4/projects/${fullPath(5).replace(/\//g, '%2F')}/share/4`);
    const again = await suite.run(['projects', 'unshare', '5', '4']);
    expect(again.exitCode).toBe(5);
    expect(again.stderr).toContain('404 Group Link Not Found');
    const noGroup = await suite.run(['projects', 'unshare', '1', 'no-such-group']);
    expect(noGroup.exitCode).toBe(5);
    expect(noGroup.stderr).toBe('svc: GET /groups/no-such-group failed: 404 Group Not Found\n');
  });

  it('takes the group by its full path as well as its id (#9)', async () => {
    const share = await req(suite.sandbox.url, '/api/v4/projects/5/share', {
      method: 'POST',
      token: suite.sandbox.tokens.admin,
      json: { group_id: 2, group_access: 30 },
    });
    expect(share.status).toBe(201);
    const result = await suite.run(['projects', 'unshare', '5', 'acme/platform']);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('project 5 is no longer shared with group acme/platform\n');
    expect(suite.requests().map((r) => `${r.method} ${r.rawPath}`)).toEqual([
      'GET /api/v4/groups/acme%2Fplatform',
      'DELETE /api/v4/projects/5/share/2',
    ]);
  });

  it('reports a 202 as scheduled, not done', async () => {
    // The sandbox never schedules a share removal; a bare server answering 202 stands in.
    const seen: string[] = [];
    const server = createServer((request, response) => {
      seen.push(`${request.method} ${request.url}`);
      response.writeHead(202, { 'content-type': 'application/json' }).end('{"message":"202 Accepted"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const result = await svc(['projects', 'unshare', '7', '3'], { env: { SVC_URL: url, SVC_TOKEN: 'x'.repeat(20) } });
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('was accepted (202 Accepted: scheduled for processing, not finished yet)');
      expect(seen).toEqual(['DELETE /api/v4/projects/7/share/3']);
    } finally {
      server.close();
    }
  });
});
