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
