// `svc instance statistics` and `svc license get` against the sandbox (premium tier), whose answers follow
// lib/api/statistics.rb and ee/lib/api/license.rb (test/sandbox/conformance/instance-statistics.test.ts).
import { describe, expect, it } from 'vitest';
import { req } from '../sandbox/helpers.js';
import { ed25519Key } from '../support/public-keys.js';
import { onlyRequest, useSandbox } from './support.js';

const suite = useSandbox({ projects: 10 });
const served = async (path: string) => (await req(suite.sandbox.url, `/api/v4${path}`, { token: suite.sandbox.tokens.admin })).json;

describe('instance statistics', () => {
  it("prints the service's counts as it gives them (strings)", async () => {
    const expected = await served('/application/statistics');
    const r = await suite.run(['instance', 'statistics', '-o', 'json', '--fields', 'users,projects,groups,ssh_keys']);
    expect(r).toEqual({
      exitCode: 0,
      stdout: `${JSON.stringify({ users: expected.users, projects: '10', groups: expected.groups, ssh_keys: '3' }, null, 2)}\n`,
      stderr: '',
    });
    onlyRequest(suite, 'GET', /^\/api\/v4\/application\/statistics$/);
  });

  it('counts an SSH key added with svc keys add', async () => {
    const added = await suite.run(['keys', 'add', '--self', '--title', 'counted', '--key', ed25519Key().line, '--fields', 'title']);
    expect([added.exitCode, added.stdout]).toEqual([0, 'title\ncounted\n']);
    const r = await suite.run(['instance', 'statistics', '--fields', 'ssh_keys']);
    expect(r).toEqual({ exitCode: 0, stdout: 'ssh_keys\n4\n', stderr: '' });
  });

  it('names the role a non-administrator lacks (exit 4)', async () => {
    const r = await suite.run(['instance', 'statistics'], { token: suite.sandbox.tokens.user });
    expect(r).toEqual({
      exitCode: 4,
      stdout: '',
      stderr: 'svc: GET /application/statistics failed: 403 Forbidden (this needs administrator access)\n',
    });
  });
});

describe('license get', () => {
  it('shows the license of a premium instance', async () => {
    const expected = await served('/license');
    const r = await suite.run(['license', 'get', '-o', 'json', '--fields', 'plan,expired,user_limit,active_users']);
    const { plan, expired, user_limit, active_users } = expected;
    expect([r.exitCode, JSON.parse(r.stdout), r.stderr]).toEqual([0, { plan, expired, user_limit, active_users }, '']);
    expect(plan).toBe('premium');
  });

  it('names the role a non-administrator lacks (exit 4)', async () => {
    const r = await suite.run(['license', 'get'], { token: suite.sandbox.tokens.user });
    expect([r.exitCode, r.stderr]).toEqual([4, 'svc: GET /license failed: 403 Forbidden (this needs administrator access)\n']);
  });
});
