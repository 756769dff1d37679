import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, registerSecrets, svc, tempDir } from '../support/harness.js';
import { json, startScriptedServer, type Handler } from './scripted-server.js';

// Answers a misbehaving server or proxy could give the newer verbs: each ends in one clear line
// and the documented exit code (spawned, so the code is the process's), never a crash.
const TOKEN = 'hostile-answers-token-8c1f0e';
registerSecrets(TOKEN);

let server: Awaited<ReturnType<typeof startScriptedServer>>;
const dir = tempDir('svc-hostile-answers-');
const config = join(dir, '.gitlab-ci.yml');
writeFileSync(config, 'build:\n  script: make\n');

beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(async () => {
  await server.close();
  cleanupTempDirs();
});

function run(name: string, handler: Handler, args: string[]) {
  const url = server.add(name, handler);
  return svc(args, { process: true, env: { SVC_URL: url, SVC_TOKEN: TOKEN }, secrets: [TOKEN] });
}

describe('ci lint judges only an answer that says valid or not', () => {
  it('a body without a boolean valid is a failure (exit 1), not a config reported valid', async () => {
    for (const [name, body] of [
      ['lint-empty-object', {}],
      ['lint-valid-string', { valid: 'false', errors: ['x'], warnings: [] }],
    ] as const) {
      expect(await run(name, json(200, body), ['ci', 'lint', '1', '--file', config]), name).toEqual({
        exitCode: 1,
        stdout: '',
        stderr: "svc: POST /projects/1/ci/lint returned a lint result with no true or false 'valid'\n",
      });
    }
    expect(await run('lint-get-empty', json(200, {}), ['ci', 'lint', '1', '--ref', 'main'])).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: "svc: GET /projects/1/ci/lint returned a lint result with no true or false 'valid'\n",
    });
  });

  it('errors given as one string are refused, not printed a character a line', async () => {
    const body = { valid: true, errors: 'jobs config should contain at least one visible job', warnings: [] };
    expect(await run('lint-errors-string', json(200, body), ['ci', 'lint', '1', '--file', config])).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: "svc: POST /projects/1/ci/lint returned a lint result with 'errors' that is not a list\n",
    });
    const jobs = { valid: true, errors: [], warnings: [], jobs: { build: {} } };
    expect(await run('lint-jobs-object', json(200, jobs), ['ci', 'lint', '1', '--file', config, '--include-jobs'])).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: "svc: POST /projects/1/ci/lint returned a lint result with 'jobs' that is not a list\n",
    });
  });

  it('lists left out are none, and an error that is not text is shown as JSON', async () => {
    expect(await run('lint-bare-valid', json(200, { valid: true }), ['ci', 'lint', '1', '--file', config])).toEqual({
      exitCode: 0,
      stdout: '',
      stderr: `${config} is valid\n`,
    });
    const body = { valid: false, errors: [{ line: 3 }, null], warnings: [7] };
    expect(await run('lint-odd-entries', json(200, body), ['ci', 'lint', '1', '--file', config])).toEqual({
      exitCode: 6,
      stdout: '',
      stderr: `error: {"line":3}\nerror: \nwarning: 7\nsvc: ${config} is invalid: 2 errors\n`,
    });
  });
});

describe('protected branch and tag rules whose levels are not a list of levels', () => {
  const rule = (levels: unknown) => ({
    id: 1,
    name: 'main',
    push_access_levels: levels,
    merge_access_levels: [{ access_level: 40 }, null, { access_level: null, user_id: 5 }],
    unprotect_access_levels: [],
    allow_force_push: false,
    code_owner_approval_required: false,
  });

  it('are shown as they came, and a write the service made is reported done (exit 0)', async () => {
    const list = await run('pb-list', json(200, [rule({ access_level: 40 }), rule(40)]), ['protected-branches', 'list', '1']);
    expect(list).toEqual({
      exitCode: 0,
      stdout:
        'name\tpush_access_levels\tmerge_access_levels\tallow_force_push\n' +
        'main\t{"access_level":40}\tmaintainer,,{"access_level":null,"user_id":5}\tfalse\n' +
        'main\t40\tmaintainer,,{"access_level":null,"user_id":5}\tfalse\n',
      stderr: '',
    });
    const made = await run('pb-protect', json(201, rule('maintainer')), [
      'protected-branches',
      'protect',
      '1',
      'main',
      '--fields',
      'name,push_access_levels',
    ]);
    expect(made).toEqual({
      exitCode: 0,
      stdout: 'name\tpush_access_levels\nmain\tmaintainer\n',
      stderr: 'protected branch main of project 1\n',
    });
    const tag = { name: 'v*', create_access_levels: { access_level: 30 } };
    expect(await run('pt-protect', json(201, tag), ['protected-tags', 'protect', '1', 'v*'])).toEqual({
      exitCode: 0,
      stdout: 'name\tcreate_access_levels\nv*\t{"access_level":30}\n',
      stderr: 'protected tag v* of project 1\n',
    });
  });
});

/** Answers GETs by path (query left out) from `routes`, anything else 404. */
function routed(routes: Record<string, unknown>): Handler {
  return (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname.replace(/^\/[^/]+\/api\/v4/, '');
    if (req.method !== 'GET' || !(path in routes))
      return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"404 Not Found"}');
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(routes[path]));
  };
}

const ADMIN = { id: 1, username: 'root', is_admin: true };
const LEAVER = { id: 7, username: 'leaver', state: 'active' };

describe('plans made from listings holding something other than the records they act on', () => {
  const labels = join(dir, 'labels.yml');
  writeFileSync(labels, '- name: bug\n  color: "#D9534F"\n');

  it('stop before any write with one line naming the listing and what it held (exit 1)', async () => {
    const cases: Array<[string, Record<string, unknown>, string[], string]> = [
      [
        'prune-no-id',
        {
          '/runners/all': [
            { id: 1, runner_type: 'instance_type', status: 'stale' },
            { description: 'no id', status: 'stale' },
          ],
        },
        ['runners', 'prune', '--stale', '--yes'],
        "GET /runners/all listed a record without a numeric 'id'",
      ],
      [
        'cleanup-null',
        { '/projects/1/registry/repositories/2/tags': [{ name: 'v1' }, null] },
        ['registry', 'cleanup', '1', '2', '--keep-n', '1', '--yes'],
        'GET /projects/1/registry/repositories/2/tags listed null where a record belongs',
      ],
      [
        'sync-strings',
        { '/groups/acme/projects': ['acme/api'] },
        ['labels', 'sync', '--group', 'acme', '--from-file', labels, '--yes'],
        'GET /groups/acme/projects listed a string where a record belongs',
      ],
      [
        'sync-label-no-name',
        { '/groups/acme/projects': [{ id: 3, path_with_namespace: 'acme/api' }], '/projects/acme%2Fapi/labels': [{ id: 9, name: null }] },
        ['labels', 'sync', '--group', 'acme', '--from-file', labels, '--prune', '--yes'],
        "GET /projects/acme%2Fapi/labels listed a record without a text 'name'",
      ],
      [
        'group-protect-lists',
        { '/groups/acme/projects': [[3]] },
        ['protected-branches', 'protect', 'main', '--group', 'acme'],
        'GET /groups/acme/projects listed a list where a record belongs',
      ],
      [
        'stale-null',
        { '/projects/1/environments': [{ id: 1, name: 'review/a', state: 'available', updated_at: '2020-01-01T00:00:00Z' }, null] },
        ['environments', 'stop-stale', '1', '--older-than', '30d', '--yes'],
        'GET /projects/1/environments listed null where a record belongs',
      ],
      [
        'env-by-name-null',
        { '/projects/1/environments': [null] },
        ['environments', 'stop', '1', 'production'],
        'GET /projects/1/environments listed null where a record belongs',
      ],
      [
        'offboard-membership',
        { '/users': [LEAVER], '/users/7': LEAVER, '/users/7/memberships': [{ source_type: 'Project', source_name: 'api' }] },
        ['users', 'offboard', 'leaver', '--yes'],
        "GET /users/7/memberships listed a record without a numeric 'source_id'",
      ],
      [
        'offboard-user-object',
        { '/users': {} },
        ['users', 'offboard', 'leaver', '--yes'],
        'GET /users returned a JSON object where a list was expected',
      ],
      [
        'owner-no-id',
        { '/users': [{ username: 'ann' }] },
        ['schedules', 'list', '--owner', 'ann'],
        "GET /users?username=ann listed a record without a numeric 'id'",
      ],
    ];
    for (const [name, routes, args, line] of cases) {
      const result = await run(name, routed({ '/user': ADMIN, ...routes }), args);
      expect(result, name).toEqual({ exitCode: 1, stdout: '', stderr: `svc: ${line}\n` });
    }
  });

  it('an instance deploy key whose projects are not lists of projects is shown as it came', async () => {
    const key = {
      id: 4,
      title: 'ci',
      fingerprint_sha256: 'SHA256:x',
      projects_with_write_access: 'acme/api',
      projects_with_readonly_access: [null, { path_with_namespace: 'acme/web' }],
    };
    expect(await run('instance-keys', routed({ '/deploy_keys': [key, null] }), ['deploy-keys', 'list', '--instance'])).toEqual({
      exitCode: 0,
      stdout: 'id\ttitle\tfingerprint_sha256\tprojects\texpires_at\n4\tci\tSHA256:x\tacme/api (push), , acme/web\t\n\t\t\t\t\n',
      stderr: '',
    });
  });

  it('tokens audit names the token user as such when /user carries no username (exit 4)', async () => {
    expect(await run('audit-nameless', routed({ '/user': { id: 2, is_admin: false } }), ['tokens', 'audit'])).toEqual({
      exitCode: 4,
      stdout: '',
      stderr:
        "svc: tokens audit needs an administrator's token: the token's user is not an administrator (the administrator role is missing)\n",
    });
  });
});

describe('settings whose numbers are past 2^53', () => {
  const BIG = '9007199254740993';
  const puts: string[] = [];
  const settings: Handler = (req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (req.method === 'PUT') puts.push(body);
      const limit = req.method === 'PUT' ? String((JSON.parse(body) as { max_pages_size: number }).max_pages_size) : BIG;
      res.writeHead(200, { 'content-type': 'application/json' }).end(`{"id":1,"max_pages_size":${limit},"default_projects_limit":100000}`);
    });
  };

  it('a current value past 2^53 is a number: a whole number replaces it, and before → after prints it as a number', async () => {
    expect(await run('settings-big-now', settings, ['settings', 'set', 'max_pages_size=5'])).toEqual({
      exitCode: 0,
      stdout: 'key\tvalue\nmax_pages_size\t5\n',
      stderr: `max_pages_size: ${BIG} → 5\n`,
    });
    expect(puts).toEqual(['{"max_pages_size":5}']);
  });

  it('a whole number past 2^53 is refused before any request, not sent rounded (exit 2)', async () => {
    puts.length = 0;
    expect(await run('settings-big-asked', settings, ['settings', 'set', 'default_projects_limit=99999999999999999999'])).toEqual({
      exitCode: 2,
      stdout: '',
      stderr:
        'svc: default_projects_limit=99999999999999999999: default_projects_limit takes a whole number up to 9007199254740991 (a larger one cannot be sent exactly)\n',
    });
    expect(puts).toEqual([]);
  });
});

describe('ids past 2^53 typed on the command line', () => {
  it('a registry repository id is sent as typed, not rounded to another repository', async () => {
    const paths: string[] = [];
    const tags: Handler = (req, res) => {
      paths.push(new URL(req.url ?? '/', 'http://x').pathname.replace(/^\/[^/]+\/api\/v4/, ''));
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    };
    expect(await run('registry-big-id', tags, ['registry', 'cleanup', '1', '9007199254740993', '--name-regex', '.*', '--dry-run'])).toEqual(
      {
        exitCode: 0,
        stdout: '',
        stderr: 'no tag of registry repository 9007199254740993 of project 1 matches: nothing to delete\n',
      },
    );
    expect(paths).toEqual(['/projects/1/registry/repositories/9007199254740993/tags']);
  });

  it('a token id is sent as typed; a user id that cannot be sent exactly is refused before any write (exit 2)', async () => {
    const revoke = await run('token-big-id', routed({}), ['tokens', 'revoke', '9007199254740993', '--project', '1', '--yes']);
    expect(revoke).toEqual({
      exitCode: 5,
      stdout: '',
      stderr: 'svc: DELETE /projects/1/access_tokens/9007199254740993 failed: 404 Not Found\n',
    });
    const offboard = await run('user-big-id', routed({}), ['users', 'offboard', '9007199254740993', '--yes']);
    expect(offboard).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: 'svc: user id 9007199254740993 is past 9007199254740991, the largest svc sends exactly\n',
    });
    expect(server.hits('user-big-id')).toBe(0);
  });
});

describe('registry cleanup over tag details without a readable date or name', () => {
  it('counts a tag whose date is missing or unreadable as newest and keeps it; each tag keeps its listed name', async () => {
    const tags = routed({
      '/projects/1/registry/repositories/2/tags': ['v1', 'v2', 'v3', 'v4', 'v5'].map((name) => ({ name })),
      '/projects/1/registry/repositories/2/tags/v1': { name: 'v1', created_at: '2020-01-01T00:00:00Z', total_size: 1, digest: 'sha256:1' },
      '/projects/1/registry/repositories/2/tags/v2': { created_at: '2020-01-02T00:00:00Z', total_size: 2, digest: 'sha256:2' },
      '/projects/1/registry/repositories/2/tags/v3': { name: 'v3', created_at: 'last week', total_size: 3, digest: 'sha256:3' },
      '/projects/1/registry/repositories/2/tags/v4': { name: 'v4', total_size: 4, digest: 'sha256:4' },
      '/projects/1/registry/repositories/2/tags/v5': { name: 'v5', created_at: '2020-01-03T00:00:00Z', total_size: 5, digest: 'sha256:5' },
    });
    expect(await run('cleanup-dates', tags, ['registry', 'cleanup', '1', '2', '--keep-n', '2', '--dry-run'])).toEqual({
      exitCode: 0,
      stdout:
        'name\tcreated_at\ttotal_size\tdigest\n' +
        'v1\t2020-01-01T00:00:00Z\t1\tsha256:1\n' +
        'v2\t2020-01-02T00:00:00Z\t2\tsha256:2\n' +
        'v5\t2020-01-03T00:00:00Z\t5\tsha256:5\n',
      stderr: 'dry run: would delete 3 tags of 5 (8 B) from registry repository 2 of project 1\n',
    });
  });
});

describe('runners prune --older-than over runners without a readable last contact', () => {
  it('keeps them, as it keeps those that never made contact', async () => {
    const runners = routed({
      '/runners/all': [1, 2, 3].map((id) => ({ id, runner_type: 'instance_type', status: 'stale', description: `r${id}` })),
      '/runners/1': { id: 1, contacted_at: '2020-01-01T00:00:00Z' },
      '/runners/2': { id: 2, contacted_at: 'a while ago' },
      '/runners/3': { id: 3 },
    });
    expect(await run('prune-dates', runners, ['runners', 'prune', '--stale', '--older-than', '30d', '--dry-run'])).toEqual({
      exitCode: 0,
      stdout: 'id\trunner_type\tstatus\tcontacted_at\tdescription\n1\tinstance_type\tstale\t2020-01-01T00:00:00Z\tr1\n',
      stderr: 'dry run: 1 stale runner past the age given would be deleted\n',
    });
  });
});

describe('labels sync --prune over labels the answer does not plainly call the project own', () => {
  it('deletes only a label whose is_project_label is true', async () => {
    const labels = join(dir, 'prune.yml');
    writeFileSync(labels, '- name: bug\n  color: "#D9534F"\n');
    const group = routed({
      '/groups/acme/projects': [{ id: 3, path_with_namespace: 'acme/api' }],
      '/projects/acme%2Fapi/labels': [
        { id: 1, name: 'bug', color: '#D9534F', is_project_label: true },
        { id: 2, name: 'from-group', color: '#000000', is_project_label: 'false' },
        { id: 3, name: 'stale', color: '#000000', is_project_label: true },
      ],
    });
    expect(await run('prune-own', group, ['labels', 'sync', '--group', 'acme', '--from-file', labels, '--prune', '--dry-run'])).toEqual({
      exitCode: 0,
      stdout: 'action\tproject\tlabel\tchanges\ndelete\tacme/api\tstale\t\n',
      stderr: `dry run: 0 to create, 0 to update, 1 to delete in 1 project of group acme; nothing changed\n`,
    });
  });
});

describe('runners prune over a listing that ignored the stale filter', () => {
  it('deletes nothing and says the filter was not applied (exit 1)', async () => {
    const runners = routed({
      '/runners/all': [
        { id: 1, runner_type: 'instance_type', status: 'stale', description: 'old' },
        { id: 2, runner_type: 'instance_type', status: 'online', description: 'busy' },
      ],
    });
    expect(await run('prune-unfiltered', runners, ['runners', 'prune', '--stale', '--yes'])).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: 'svc: GET /runners/all?status=stale listed runner 2 as online: the filter was not applied, so nothing is deleted\n',
    });
  });
});
