import { describe, expect, it } from 'vitest';
import { TestClock } from '../support/clock.js';
import { BIN, isolatedEnv } from '../support/harness.js';
import { spawnPty } from '../support/pty.js';
import { sandboxEnv } from '../support/sandbox.js';
import { addMember, useSandbox } from './support.js';

// `svc environments` over the sandbox's environments, which answer as the service's
// lib/api/environments.rb (test/sandbox/conformance/environments.test.ts). The sandbox's clock stands
// where the test left it; seeded environments are dated back from it (production 2 days, review/docs 120).
const clock = new TestClock();
const suite = useSandbox({ projects: 5, clock: clock.now });
const sent = () => suite.requests().map((r) => `${r.method} ${r.rawPath}${r.rawQuery ? `?${r.rawQuery}` : ''}`);
const writes = () => suite.requests().filter((r) => r.method !== 'GET');

describe('svc environments', () => {
  it('lists by state, and shows one by name through the name= filter or by id with one request', async () => {
    const list = await suite.run(['environments', 'list', '1', '--states', 'stopping', '--fields', 'id,name,state']);
    expect(list).toEqual({ exitCode: 0, stdout: 'id\tname\tstate\n7\treview/broken-build\tstopping\n', stderr: '' });
    const byName = await suite.run(['environments', 'get', '1', 'review/docs', '--fields', 'id,name,last_deployment.id']);
    expect(byName.stdout).toBe('id\tname\tlast_deployment.id\n8\treview/docs\t\n');
    expect(sent()).toEqual(['GET /api/v4/projects/1/environments?name=review%2Fdocs&per_page=2', 'GET /api/v4/projects/1/environments/8']);
    const byId = await suite.run(['environments', 'get', '1', '1', '-o', 'json']);
    expect(JSON.parse(byId.stdout)).toMatchObject({ id: 1, name: 'production', last_deployment: { id: 3, status: 'blocked' } });
    expect(sent()).toEqual(['GET /api/v4/projects/1/environments/1']);
    const missing = await suite.run(['environments', 'get', '1', 'review/nothing']);
    expect(missing).toEqual({ exitCode: 5, stdout: '', stderr: 'svc: no environment named review/nothing in project 1\n' });
  });

  it('an unknown environment, by id or name, is named in one line for get, update, stop and delete', async () => {
    for (const env of ['99999', 'review/nothing']) {
      const named = env === '99999' ? 'no environment 99999 in project 1' : 'no environment named review/nothing in project 1';
      for (const verb of [['get'], ['update', '--external-url', 'http://x'], ['stop'], ['delete', '--yes']]) {
        const r = await suite.run(['environments', verb[0]!, '1', env, ...verb.slice(1)]);
        expect([verb[0], r]).toEqual([verb[0], { exitCode: 5, stdout: '', stderr: `svc: ${named}\n` }]);
      }
    }
    const project = await suite.run(['environments', 'get', '99999', '1']);
    expect(project).toEqual({ exitCode: 5, stdout: '', stderr: 'svc: GET /projects/99999/environments/1 failed: 404 Project Not Found\n' });
  });

  it('creates, updates, stops and deletes by name, and explains the service refusing an available one', async () => {
    const created = await suite.run([
      'environments',
      'create',
      '2',
      '--name',
      'review/cli',
      '--external-url',
      'https://cli.example.com',
      '--fields',
      'id',
    ]);
    expect(created).toEqual({ exitCode: 0, stdout: 'id\n46\n', stderr: 'created environment review/cli of project 2 (id 46)\n' });
    const updated = await suite.run(['environments', 'update', '2', 'review/cli', '--tier', 'testing', '--fields', 'tier']);
    expect(updated.stderr).toBe('updated environment review/cli of project 2: tier\n');
    const refused = await suite.run(['environments', 'delete', '2', 'review/cli', '--yes']);
    expect(refused).toEqual({
      exitCode: 4,
      stdout: '',
      stderr:
        'svc: environment review/cli of project 2 is available: the service deletes only stopped environments (svc environments stop 2 review/cli first)\n',
    });
    const stopped = await suite.run(['environments', 'stop', '2', 'review/cli', '--fields', 'state']);
    expect(stopped).toEqual({ exitCode: 0, stdout: 'state\nstopped\n', stderr: 'stopped environment review/cli of project 2\n' });
    const deleted = await suite.run(['environments', 'delete', '2', 'review/cli', '--yes']);
    expect(deleted).toEqual({ exitCode: 0, stdout: '', stderr: 'deleted environment review/cli of project 2\n' });
    expect(writes().map((r) => `${r.method} ${r.rawPath} ${r.status}`)).toEqual(['DELETE /api/v4/projects/2/environments/46 204']);
  });

  it('names the role a stop needs when the service refuses one by name or by id', async () => {
    const byName = await suite.run(['environments', 'stop', '4', 'production'], { token: suite.sandbox.tokens.user });
    expect(byName).toEqual({
      exitCode: 4,
      stdout: '',
      stderr: 'svc: GET /projects/4/environments failed: 403 Forbidden (this needs the developer role or administrator access)\n',
    });
    const byId = await suite.run(['environments', 'stop', '4', '1'], { token: suite.sandbox.tokens.user });
    expect(byId.stderr).toBe(
      'svc: POST /projects/4/environments/1/stop failed: 403 Forbidden (this needs the developer role or administrator access)\n',
    );
  });

  it('says so when the service answers a reporter’s stop with the environment unchanged', async () => {
    const reporter = await addMember(suite, '/projects/3', 7, 20);
    const stop = await suite.run(['environments', 'stop', '3', 'review/docs', '--sudo', reporter]);
    expect(stop).toEqual({
      exitCode: 4,
      stdout: '',
      stderr: 'svc: the service left environment review/docs of project 3 available: stopping it needs the developer role\n',
    });
  });
});

describe('svc environments stop-stale', () => {
  const plan =
    'found 3 environments of project 4 not updated or deployed to since BEFORE:\n' +
    '  30  review/feature-login  UPDATED30\n  35  review/docs  UPDATED35\n  36  canary  UPDATED36\n';
  const dated = async (text: string, project = '4') => {
    const envs = JSON.parse((await suite.run(['environments', 'list', project, '-o', 'json'])).stdout) as Array<{
      id: number;
      updated_at: string;
    }>;
    return envs.reduce((out, e) => out.replace(`UPDATED${e.id}`, e.updated_at), text);
  };

  it('prints the plan and sends no write under --dry-run; then sends the one stop_stale the plan stands for', async () => {
    const dry = await suite.run(['environments', 'stop-stale', '4', '--older-than', '30d', '--dry-run', '-o', 'json']);
    expect(dry.exitCode).toBe(0);
    const before = /since (\S+):/.exec(dry.stderr)![1]!;
    expect(Date.now() - 30 * 86_400_000 - Date.parse(before)).toBeLessThan(60_000);
    expect(sent()).toEqual([
      'GET /api/v4/projects/4/environments?states=available&per_page=100',
      `GET /api/v4/projects/4/deployments?updated_after=${encodeURIComponent(new Date(Date.parse(before) - 1).toISOString())}&order_by=updated_at&per_page=100`,
      'GET /api/v4/projects/4/protected_environments?per_page=100',
    ]);
    expect(writes()).toEqual([]);
    expect(dry.stderr).toBe(`${(await dated(plan)).replace('BEFORE', before)}would stop 3 environments; nothing was stopped (--dry-run)\n`);
    expect(JSON.parse(dry.stdout).map((e: { name: string; outcome: string }) => `${e.name} ${e.outcome}`)).toEqual([
      'review/feature-login planned',
      'review/docs planned',
      'canary planned',
    ]);

    const real = await suite.run(['environments', 'stop-stale', '4', '--older-than', '30d', '--yes']);
    expect(real.exitCode).toBe(0);
    const applied = /since (\S+):/.exec(real.stderr)![1]!;
    expect(writes().map((r) => [r.method, r.rawPath, r.bodyJson, r.status])).toEqual([
      ['POST', '/api/v4/projects/4/environments/stop_stale', { before: applied }, 200],
    ]);
    expect(real.stderr.endsWith('the service scheduled 3 environments of project 4 to stop\n')).toBe(true);
    const stopped = await suite.run(['environments', 'list', '4', '--states', 'stopped', '--fields', 'name']);
    expect(stopped.stdout).toBe('name\nreview/feature-login\nreview/search-v2\nreview/docs\ncanary\n');
    const again = await suite.run(['environments', 'stop-stale', '4', '--older-than', '30d', '--yes']);
    expect(again.stderr).toMatch(/^no available environments of project 4 not updated or deployed to since \S+: nothing to stop\n$/);
    expect(writes()).toEqual([]);
  });

  it('warns that protected environments are unknown to a developer, whose plan may then hold one the service keeps', async () => {
    const developer = await addMember(suite, '/projects/5', 5, 30);
    const dry = await suite.run(['environments', 'stop-stale', '5', '--older-than', '30d', '--dry-run', '--sudo', developer]);
    expect(dry.exitCode).toBe(0);
    expect(dry.stderr.split('\n')[0]).toBe(
      'warning: cannot read the protected environments (maintainer role): the service keeps any of these that is protected',
    );
    expect(suite.requests().map((r) => `${r.method} ${r.rawPath} ${r.status}`)).toEqual([
      'GET /api/v4/projects/5/environments 200',
      'GET /api/v4/projects/5/deployments 200',
      'GET /api/v4/projects/5/protected_environments 403',
    ]);
  });

  it('without --yes and without a terminal: the plan first, then exit 2 with no write; an empty plan exits 0 unasked', async () => {
    const unasked = await suite.run(['environments', 'stop-stale', '3', '--older-than', '30d']);
    expect(sent().map((line) => line.split('?')[0])).toEqual([
      'GET /api/v4/projects/3/environments',
      'GET /api/v4/projects/3/deployments',
      'GET /api/v4/projects/3/protected_environments',
    ]);
    const before = /since (\S+):/.exec(unasked.stderr)![1]!;
    const plan =
      'found 3 environments of project 3 not updated or deployed to since BEFORE:\n' +
      '  21  review/feature-login  UPDATED21\n  26  review/docs  UPDATED26\n  27  canary  UPDATED27\n';
    expect(unasked).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: `${(await dated(plan, '3')).replace('BEFORE', before)}svc: Stop these 3 environments: pass --yes to confirm (stdin is not a terminal, so there is no one to ask)\n`,
    });

    const empty = await suite.run(['environments', 'stop-stale', '3', '--older-than', '3650d', '-o', 'json']);
    const longAgo = /since (\S+):/.exec(empty.stderr)![1]!;
    expect(empty).toEqual({
      exitCode: 0,
      stdout: '',
      stderr: `no available environments of project 3 not updated or deployed to since ${longAgo}: nothing to stop\n`,
    });
    expect(writes()).toEqual([]);
  });

  it('on a terminal asks after the plan, and only when something would be stopped; any answer but yes stops nothing', async () => {
    const env = isolatedEnv({ env: { ...sandboxEnv(suite.sandbox), TERM: 'dumb' } });
    suite.sandbox.clearRequests();
    const nothing = await spawnPty(['node', BIN, 'environments', 'stop-stale', '5', '--older-than', '3650d'], { env }).exit();
    expect(nothing.exitCode).toBe(0);
    expect(nothing.output).toMatch(/^no available environments of project 5 not updated or deployed to since \S+: nothing to stop\r\n$/);
    const declined = spawnPty(['node', BIN, 'environments', 'stop-stale', '5', '--older-than', '30d'], { env });
    await declined.waitFor('? [y/N] ');
    declined.write('n\r');
    const no = await declined.exit();
    expect(writes()).toEqual([]);
    const before = /since (\S+):/.exec(no.output)![1]!;
    const plan =
      'found 3 environments of project 5 not updated or deployed to since BEFORE:\n' +
      '  39  review/feature-login  UPDATED39\n  44  review/docs  UPDATED44\n  45  canary  UPDATED45\n';
    expect([no.exitCode, no.output]).toEqual([
      1,
      `${(await dated(plan, '5')).replace('BEFORE', before).replace(/\n/g, '\r\n')}` +
        'Stop these 3 environments? [y/N] n\r\nsvc: Stop these 3 environments: not confirmed, nothing was changed\r\n',
    ]);
  });

  it('refuses an age the service would refuse, before any request', async () => {
    const r = await suite.run(['environments', 'stop-stale', '4', '--older-than', '3d']);
    expect(r).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: 'svc: --older-than must be between 7d and 3650d: the service stops nothing updated within the last week\n',
    });
    expect(sent()).toEqual([]);
  });

  it('a job token kept out by the allowlist is told why, with no role named (the role is not the reason)', async () => {
    const refused = await suite.run(['environments', 'list', '4'], { token: suite.sandbox.tokens.job, tokenType: 'job' });
    expect(refused).toEqual({
      exitCode: 4,
      stdout: '',
      stderr:
        "svc: GET /projects/4/environments failed: 403 Forbidden - Authentication by CI/CD job token not allowed from acme/platform/eager-lynx-2 to initech/backend/lucky-beacon-4. (the target project's CI/CD job token allowlist does not include the job's project)\n",
    });
  });

  it('a refused --sudo is told what the token lacks, with no role named', async () => {
    const refused = await suite.run(['environments', 'list', '2', '--sudo', 'root'], { token: suite.sandbox.tokens.user });
    expect(refused).toEqual({
      exitCode: 4,
      stdout: '',
      stderr: "svc: --sudo root: the token's user is not an administrator (403 Forbidden - Must be admin to use sudo)\n",
    });
  });

  it('a job token refused for what it is, not for a role, is told so with no role named', async () => {
    const refused = await suite.run(['environments', 'list', '2', '--sudo', 'root'], { token: suite.sandbox.tokens.job, tokenType: 'job' });
    expect(refused).toEqual({
      exitCode: 4,
      stdout: '',
      stderr: 'svc: --sudo root: sudo needs a personal or OAuth token of an administrator, not this kind of token\n',
    });
  });
});
