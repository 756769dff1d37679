import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, tempDir } from '../support/harness.js';
import { spawnPty } from '../support/pty.js';
import { onlyRequest, useSandbox } from './support.js';

const suite = useSandbox({ projects: 4 });
const dir = tempDir();
const notesFile = join(dir, 'CHANGELOG.md');
writeFileSync(notesFile, '## v3.0.0\n\n- faster\n');

describe('releases create, get, update, delete', () => {
  it('creates a release from a ref with notes, links and a milestone in one JSON body', async () => {
    const r = await suite.run([
      'releases',
      'create',
      '1',
      '--tag',
      'v3.0.0',
      '--ref',
      'main',
      '--name',
      'Three',
      '--notes-file',
      notesFile,
      '--link',
      'linux=https://example.com/app?os=linux',
      '--link',
      'docs=https://example.com/docs',
      '--milestone',
      'v1.0',
      '--fields',
      'tag_name,name,description,assets.count',
      '-o',
      'tsv',
    ]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('tag_name\tname\tdescription\tassets.count\nv3.0.0\tThree\t## v3.0.0\\n\\n- faster\\n\t6\n');
    expect(r.stderr).toMatch(/^created release v3\.0\.0: http:\/\/127\.0\.0\.1:\d+\/acme\/platform\/[a-z-]+-1\/-\/releases\/v3\.0\.0\n$/);
    expect(onlyRequest(suite, 'POST', /^\/api\/v4\/projects\/1\/releases$/).bodyJson).toEqual({
      tag_name: 'v3.0.0',
      ref: 'main',
      name: 'Three',
      description: '## v3.0.0\n\n- faster\n',
      milestones: ['v1.0'],
      assets: {
        links: [
          { name: 'linux', url: 'https://example.com/app?os=linux' },
          { name: 'docs', url: 'https://example.com/docs' },
        ],
      },
    });
  });

  it("reports the service's refusals with exit 6", async () => {
    const exists = await suite.run(['releases', 'create', '1', '--tag', 'v1.0.0']);
    expect(exists.exitCode).toBe(6);
    expect(exists.stderr).toBe('svc: POST /projects/1/releases failed: 409 Conflict: Release already exists\n');
    const noRef = await suite.run(['releases', 'create', '1', '--tag', 'v9.0.0']);
    expect(noRef.exitCode).toBe(6);
    expect(noRef.stderr).toBe('svc: POST /projects/1/releases failed: 422 Unprocessable Entity: Ref is not specified\n');
    const milestone = await suite.run(['releases', 'create', '1', '--tag', 'v9.0.0', '--ref', 'main', '--milestone', 'v9.9']);
    expect(milestone.stderr).toBe('svc: POST /projects/1/releases failed: 400 Bad Request: Milestone(s) not found: v9.9\n');
  });

  it('gets a release by tag, and the latest one through the permalink redirect', async () => {
    const byTag = await suite.run(['releases', 'get', '1', 'v1.1.0', '--fields', 'tag_name,name', '-o', 'tsv']);
    expect(byTag.stdout).toBe('tag_name\tname\nv1.1.0\tRelease v1.1.0\n');
    const latest = await suite.run(['releases', 'get', '1', '--latest', '--fields', 'tag_name', '-o', 'tsv']);
    expect(latest.exitCode).toBe(0);
    expect(latest.stdout).toBe('tag_name\nv3.0.0\n');
    expect(suite.requests().map((q) => q.rawPath)).toEqual([
      '/api/v4/projects/1/releases/permalink/latest',
      '/api/v4/projects/1/releases/v3.0.0',
    ]);
    const missing = await suite.run(['releases', 'get', '1', 'v0.0.1']);
    expect(missing.exitCode).toBe(5);
    expect(missing.stderr).toBe('svc: GET /projects/1/releases/v0.0.1 failed: 404 Not Found\n');
  });

  it('lists by release date, or by creation with --order-by created_at, in the --sort direction asked', async () => {
    // v3.0.0 was made by the first test with today's date; the seeded v1.0.0 and v1.1.0 were released years before.
    const byDate = await suite.run(['releases', 'list', '1', '--fields', 'tag_name', '-o', 'tsv']);
    expect(byDate.stdout).toBe('tag_name\nv3.0.0\nv1.1.0\nv1.0.0\n');
    const created = await suite.run([
      'releases',
      'list',
      '1',
      '--order-by',
      'created_at',
      '--sort',
      'asc',
      '--fields',
      'tag_name',
      '-o',
      'tsv',
    ]);
    expect([created.exitCode, created.stdout]).toEqual([0, 'tag_name\nv1.0.0\nv1.1.0\nv3.0.0\n']);
    expect(onlyRequest(suite, 'GET', /releases/).rawQuery).toBe('order_by=created_at&sort=asc&per_page=100');
    const bad = await suite.run(['releases', 'list', '1', '--order-by', 'name']);
    expect([bad.exitCode, bad.stderr]).toEqual([
      2,
      "svc: error: option '--order-by <field>' argument 'name' is invalid. Allowed choices are released_at, created_at.\n",
    ]);
  });

  it('--latest on a project without any release: exit 5, saying so', async () => {
    const made = await suite.run(['projects', 'create', '--name', 'no-releases', '--fields', 'id', '-o', 'tsv']);
    const id = made.stdout.split('\n')[1]!;
    const r = await suite.run(['releases', 'get', id, '--latest']);
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([
      5,
      '',
      `svc: GET /projects/${id}/releases/permalink/latest failed: 404 Not Found (project ${id} has no release)\n`,
    ]);
    const unknown = await suite.run(['releases', 'get', '999', '--latest']);
    expect([unknown.exitCode, unknown.stderr]).toEqual([
      5,
      'svc: GET /projects/999/releases/permalink/latest failed: 404 Project Not Found\n',
    ]);
  });

  it('updates the title and clears the milestones', async () => {
    const r = await suite.run(['releases', 'update', '1', 'v3.0.0', '--name', 'Three again', '--clear-milestones', '-o', 'json']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('updated release v3.0.0\n');
    expect(onlyRequest(suite, 'PUT', /releases\/v3\.0\.0$/).bodyJson).toEqual({ name: 'Three again', milestones: [] });
    expect(JSON.parse(r.stdout).name).toBe('Three again');
    expect('milestones' in JSON.parse(r.stdout)).toBe(false);
  });

  it('reads the notes from stdin with --notes-file -, as a CI job pipes a changelog', async () => {
    const notes = '## v3.0.0\n\n- from a pipe, kept byte for byte\n';
    const r = await suite.run(['releases', 'update', '1', 'v3.0.0', '--notes-file', '-', '--fields', 'description', '-o', 'json'], {
      input: notes,
    });
    expect([r.exitCode, r.stderr]).toEqual([0, 'updated release v3.0.0\n']);
    expect(JSON.parse(r.stdout)).toEqual({ description: notes });
    expect(onlyRequest(suite, 'PUT', /releases\/v3\.0\.0$/).bodyJson).toEqual({ description: notes });
  });

  it('refuses --notes-file - when stdin is a terminal, rather than wait for typing (exit 2)', async () => {
    const env = { SVC_URL: suite.sandbox.url, SVC_TOKEN: suite.sandbox.tokens.admin, PATH: process.env.PATH ?? '/usr/bin:/bin' };
    const term = spawnPty(['node', BIN, 'releases', 'update', '1', 'v3.0.0', '--notes-file', '-'], { env });
    const end = await term.exit();
    expect([end.exitCode, end.output]).toEqual([2, 'svc: --notes-file -: stdin is a terminal; pipe the notes in, or give a file\r\n']);
    const kept = await suite.run(['releases', 'get', '1', 'v3.0.0', '--fields', 'description', '-o', 'json']);
    expect(JSON.parse(kept.stdout)).toEqual({ description: '## v3.0.0\n\n- from a pipe, kept byte for byte\n' });
  });

  it('-q: a write says nothing and prints no record; the exit code is the answer', async () => {
    const quiet = await suite.run(['-q', 'releases', 'update', '1', 'v1.0.0', '--name', 'Quietly renamed']);
    expect([quiet.exitCode, quiet.stdout, quiet.stderr]).toEqual([0, '', '']);
    const shown = await suite.run(['releases', 'get', '1', 'v1.0.0', '--fields', 'name', '-o', 'tsv']);
    expect(shown.stdout).toBe('name\nQuietly renamed\n');
  });

  it('deletes a release only with --yes off a terminal, prints it as it was, and keeps the tag', async () => {
    const unconfirmed = await suite.run(['releases', 'delete', '1', 'v3.0.0'], { input: '' });
    expect([unconfirmed.exitCode, unconfirmed.stdout, unconfirmed.stderr]).toEqual([
      2,
      '',
      'svc: Delete the release v3.0.0 of 1: pass --yes to confirm (stdin is not a terminal, so there is no one to ask)\n',
    ]);
    expect(suite.requests().filter((q) => q.method === 'DELETE')).toEqual([]);
    const r = await suite.run(['releases', 'delete', '1', 'v3.0.0', '--yes', '--fields', 'tag_name,name', '-o', 'tsv']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('tag_name\tname\nv3.0.0\tThree again\n');
    expect(r.stderr).toBe('deleted release v3.0.0 (the tag v3.0.0 is kept)\n');
    const gone = await suite.run(['releases', 'get', '1', 'v3.0.0']);
    expect(gone.exitCode).toBe(5);
    const tag = await suite.run(['tags', 'get', '1', 'v3.0.0', '--fields', 'name', '-o', 'tsv']);
    expect(tag.stdout).toBe('name\nv3.0.0\n');
  });

  it("publishes with the CI job token on the job's own project, and is refused elsewhere", async () => {
    const job = { token: suite.sandbox.tokens.job, tokenType: 'job' };
    const r = await suite.run(
      ['releases', 'create', '2', '--tag', 'v4.0.0', '--ref', 'main', '--notes', 'from CI', '--fields', 'tag_name', '-o', 'tsv'],
      job,
    );
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('tag_name\nv4.0.0\n');
    expect(onlyRequest(suite, 'POST', /releases$/).headers['job-token']).toBe(suite.sandbox.tokens.job);
    const update = await suite.run(['releases', 'update', '2', 'v4.0.0', '--notes', 'edited'], job);
    expect(update.exitCode).toBe(0);
    const other = await suite.run(['releases', 'update', '4', 'v1.0.0', '--notes', 'x'], job);
    expect([other.exitCode, other.stderr]).toEqual([
      4,
      expect.stringMatching(
        /^svc: PUT \/projects\/4\/releases\/v1\.0\.0 failed: 403 Forbidden - Authentication by CI\/CD job token not allowed from \S+ to \S+\. \(the target project's CI\/CD job token allowlist does not include the job's project\)\n$/,
      ),
    ]);
  });

  it('names the role a refused write takes: developer to publish, maintainer for a protected tag or a delete', async () => {
    // On project 1 sybil.lopez is a reporter and olivia.garcia a developer; v* tags are protected.
    const reporter = await suite.run(['--sudo', 'sybil.lopez', 'releases', 'create', '1', '--tag', 'x1.0.0', '--ref', 'main']);
    expect([reporter.exitCode, reporter.stdout, reporter.stderr]).toEqual([
      4,
      '',
      'svc: POST /projects/1/releases failed: 403 Forbidden (this needs the developer role or administrator access)\n',
    ]);
    const update = await suite.run(['--sudo', 'sybil.lopez', 'releases', 'update', '1', 'v1.0.0', '--name', 'x']);
    expect([update.exitCode, update.stderr]).toEqual([
      4,
      'svc: PUT /projects/1/releases/v1.0.0 failed: 403 Forbidden (this needs the developer role or administrator access)\n',
    ]);
    const protectedTag = await suite.run(['--sudo', 'olivia.garcia', 'releases', 'create', '1', '--tag', 'v6.0.0', '--ref', 'main']);
    expect([protectedTag.exitCode, protectedTag.stderr]).toEqual([
      4,
      'svc: POST /projects/1/releases failed: 403 Forbidden: You are not allowed to create this tag as it is protected. (this needs the maintainer role or administrator access)\n',
    ]);
    const deleted = await suite.run(['--sudo', 'olivia.garcia', 'releases', 'delete', '1', 'v1.0.0', '--yes']);
    expect([deleted.exitCode, deleted.stdout, deleted.stderr]).toEqual([
      4,
      '',
      'svc: DELETE /projects/1/releases/v1.0.0 failed: 403 Forbidden (this needs the maintainer role or administrator access)\n',
    ]);
  });

  it("says in each verb's help what --name does there", async () => {
    const create = await suite.run(['releases', 'create', '--help']);
    const update = await suite.run(['releases', 'update', '--help']);
    expect(create.stdout.split('\n').filter((line) => line.startsWith('  --name'))).toEqual([
      '  --name <name>        release title (default: the tag name)',
    ]);
    expect(update.stdout.split('\n').filter((line) => line.startsWith('  --name'))).toEqual([
      '  --name <name>        the new release title',
    ]);
  });

  it('refuses bad input before any request (exit 2)', async () => {
    const cases: Array<[string[], string]> = [
      [['releases', 'get', '1'], 'svc: give either a tag or --latest\n'],
      [['releases', 'get', '1', 'v1.0.0', '--latest'], 'svc: give either a tag or --latest\n'],
      [['releases', 'create', '1', '--tag', 'v', '--link', 'nourl'], "svc: --link 'nourl': expected KEY=URL\n"],
      [['releases', 'create', '1', '--tag', 'v', '--link', 'a='], "svc: --link 'a=': the URL is empty\n"],
      [
        ['releases', 'create', '1', '--tag', 'v', '--link', 'bin=dist/app'],
        "svc: --link 'bin=dist/app': give an absolute http, https or ftp URL (the only schemes the service takes for links)\n",
      ],
      [
        ['releases', 'create', '1', '--tag', 'v', '--link', 'x=javascript:alert(1)'],
        "svc: --link 'x=javascript:alert(1)': give an absolute http, https or ftp URL (the only schemes the service takes for links)\n",
      ],
      [
        ['releases', 'create', '1', '--tag', 'v', '--notes', 'a', '--notes-file', notesFile],
        'svc: give either --notes or --notes-file, not both\n',
      ],
      [
        ['releases', 'update', '1', 'v1.0.0'],
        'svc: nothing to change: give --name, --notes, --notes-file, --milestone or --clear-milestones\n',
      ],
    ];
    for (const [args, message] of cases) {
      const r = await suite.run(args);
      expect(r.stderr).toBe(message);
      expect(r.exitCode).toBe(2);
      expect(suite.requests()).toHaveLength(0);
    }
  });
});
