import { describe, expect, it } from 'vitest';
import { BIN, isolatedEnv } from '../support/harness.js';
import { spawnPty } from '../support/pty.js';
import { sandboxEnv } from '../support/sandbox.js';
import { onlyRequest, useSandbox } from './support.js';

const suite = useSandbox({ projects: 10 });
const member = (username: string, access_level: number, expires_at: string | null = null) =>
  `${JSON.stringify({ username, access_level, expires_at }, null, 2)}\n`;
const FIELDS = ['-o', 'json', '--fields', 'username,access_level,expires_at'];

describe('members add', () => {
  it('adds a user by username at a named level: what changed on stderr, the member on stdout', async () => {
    const result = await suite.run([
      'members',
      'add',
      '--group',
      'globex',
      '--user',
      'jdoe',
      '--access',
      'developer',
      '--expires',
      '2099-06-30',
      ...FIELDS,
    ]);
    expect(result).toEqual({
      exitCode: 0,
      stdout: member('jdoe', 30, '2099-06-30'),
      stderr: 'added jdoe to group globex as developer until 2099-06-30\n',
    });
    expect(suite.requests().map((r) => `${r.method} ${r.rawPath}?${r.rawQuery}`)).toEqual([
      'GET /api/v4/users?username=jdoe',
      'POST /api/v4/groups/globex/members?',
    ]);
    expect(JSON.parse(onlyRequest(suite, 'POST', /members$/).body)).toEqual({ user_id: 2, access_level: 30, expires_at: '2099-06-30' });
  });

  it('names the level on TSV as members list does; JSON keeps the number', async () => {
    const tsv = await suite.run([
      'members',
      'add',
      '--project',
      '3',
      '--user',
      '3',
      '--access',
      '30',
      '-o',
      'tsv',
      '--fields',
      'id,access_level',
    ]);
    expect(tsv).toEqual({
      exitCode: 0,
      stdout: 'id\taccess_level\n3\tdeveloper\n',
      stderr: `added sybil.wright to project 3 as developer\n`,
    });
    const json = await suite.run([
      'members',
      'update',
      '--project',
      '3',
      '--user',
      '3',
      '--access',
      'maintainer',
      '-o',
      'json',
      '--fields',
      'access_level',
    ]);
    expect(json.stdout).toBe(`${JSON.stringify({ access_level: 40 }, null, 2)}\n`);
    const listed = await suite.run(['members', 'list', '--project', '3', '--query', 'sybil', '-o', 'tsv', '--fields', 'id,access_level']);
    expect(listed.stdout).toBe('id\taccess_level\n3\tmaintainer\n');
  });

  it('takes a numeric user id and a numeric level without looking the user up; -q prints nothing', async () => {
    const result = await suite.run(['members', 'add', '--project', '2', '--user', '3', '--access', '20', '-q']);
    expect(result).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(suite.requests().map((r) => r.method)).toEqual(['POST']);
    expect(JSON.parse(onlyRequest(suite, 'POST', /\/projects\/2\/members$/).body)).toEqual({ user_id: 3, access_level: 20 });
  });

  it('says an unknown username in one line (exit 5), before any write', async () => {
    const result = await suite.run(['members', 'add', '--group', 'acme', '--user', 'nobody-here', '--access', 'guest']);
    expect(result).toEqual({ exitCode: 5, stdout: '', stderr: "svc: no user with username 'nobody-here'\n" });
    expect(suite.requests().map((r) => r.method)).toEqual(['GET']);
  });

  it('reports an existing member (409, exit 6)', async () => {
    const result = await suite.run(['members', 'add', '--group', 'acme', '--user', '2', '--access', 'guest']);
    expect(result).toEqual({
      exitCode: 6,
      stdout: '',
      stderr: 'svc: POST /groups/acme/members failed: 409 Conflict: Member already exists\n',
    });
  });

  it('names the maintainer role when a developer adds someone (exit 4)', async () => {
    const result = await suite.run(['members', 'add', '--group', 'acme', '--user', '4', '--access', 'guest', '--sudo', 'olivia.garcia']);
    expect(result).toEqual({
      exitCode: 4,
      stdout: '',
      stderr: 'svc: POST /groups/acme/members failed: 403 Forbidden (this needs the maintainer role or administrator access)\n',
    });
  });

  it('names the owner role when a maintainer adds an owner (exit 4)', async () => {
    const result = await suite.run(['members', 'add', '--group', 'acme', '--user', '4', '--access', 'owner'], {
      token: suite.sandbox.tokens.user,
    });
    expect(result).toEqual({
      exitCode: 4,
      stdout: '',
      stderr: 'svc: POST /groups/acme/members failed: 403 Forbidden (this needs the owner role or administrator access)\n',
    });
  });

  it('refuses an unknown level and a bad date before any request (exit 2)', async () => {
    const level = await suite.run(['members', 'add', '--group', 'acme', '--user', 'jdoe', '--access', 'boss']);
    expect(level).toEqual({
      exitCode: 2,
      stdout: '',
      stderr:
        "svc: --access 'boss': expected one of guest (10), planner (15), reporter (20), developer (30), maintainer (40), owner (50)\n",
    });
    const date = await suite.run(['members', 'add', '--group', 'acme', '--user', 'jdoe', '--access', 'guest', '--expires', 'tomorrow']);
    expect(date).toEqual({ exitCode: 2, stdout: '', stderr: "svc: --expires 'tomorrow': expected a date as YYYY-MM-DD\n" });
    expect(suite.requests()).toEqual([]);
  });
});

describe('members update', () => {
  it('changes the level, keeping what is not given, and says from what to what', async () => {
    const sybil = suite.sandbox.state.user('sybil.lopez')!;
    const result = await suite.run(['members', 'update', '--group', 'acme', '--user', 'sybil.lopez', '--access', 'developer', ...FIELDS]);
    expect(result).toEqual({
      exitCode: 0,
      stdout: member('sybil.lopez', 30),
      stderr: 'changed sybil.lopez in group acme: reporter → developer\n',
    });
    const sent = onlyRequest(suite, 'PUT', new RegExp(`/groups/acme/members/${sybil.id}$`));
    expect(JSON.parse(sent.body)).toEqual({ access_level: 30 });
  });

  it('changes only the expiry by sending the current level, as the service requires one', async () => {
    const result = await suite.run(['members', 'update', '--group', 'acme', '--user', 'sybil.lopez', '--expires', '2099-01-31', ...FIELDS]);
    expect(result).toEqual({
      exitCode: 0,
      stdout: member('sybil.lopez', 30, '2099-01-31'),
      stderr: 'changed sybil.lopez in group acme: developer until 2099-01-31\n',
    });
    expect(JSON.parse(onlyRequest(suite, 'PUT', /members\/\d+$/).body)).toEqual({ access_level: 30, expires_at: '2099-01-31' });
  });

  it('says when the user is not a direct member (exit 5), and needs something to change (exit 2)', async () => {
    const notMember = await suite.run(['members', 'update', '--group', 'acme/platform', '--user', 'jdoe', '--access', 'owner']);
    expect(notMember).toEqual({ exitCode: 5, stdout: '', stderr: 'svc: jdoe is not a direct member of group acme/platform\n' });
    const nothing = await suite.run(['members', 'update', '--group', 'acme', '--user', 'jdoe']);
    expect(nothing).toEqual({ exitCode: 2, stdout: '', stderr: 'svc: give --access or --expires (what to change)\n' });
  });

  it('names the maintainer role when a developer changes a member (exit 4)', async () => {
    const result = await suite.run([
      'members',
      'update',
      '--group',
      'acme',
      '--user',
      'sybil.lopez',
      '--access',
      'guest',
      '--sudo',
      'olivia.garcia',
    ]);
    expect([result.exitCode, result.stderr]).toEqual([
      4,
      `svc: PUT /groups/acme/members/${suite.sandbox.state.user('sybil.lopez')!.id} failed: 403 Forbidden (this needs the maintainer role or administrator access)\n`,
    ]);
  });
});

describe('members remove', () => {
  it('requires --yes when stdin is not a terminal (exit 2), having removed nothing', async () => {
    const result = await suite.run(['members', 'remove', '--group', 'acme', '--user', 'sybil.lopez']);
    expect(result).toEqual({
      exitCode: 2,
      stdout: '',
      stderr:
        'svc: Remove sybil.lopez (developer) from group acme: pass --yes to confirm (stdin is not a terminal, so there is no one to ask)\n',
    });
    expect(suite.requests().map((r) => r.method)).toEqual(['GET', 'GET']);
  });

  it('names the owner role when a maintainer removes an owner (exit 4)', async () => {
    await suite.run(['members', 'add', '--group', 'acme', '--user', 'root', '--access', 'owner']);
    const result = await suite.run(['members', 'remove', '--group', 'acme', '--user', 'root', '--yes'], {
      token: suite.sandbox.tokens.user,
    });
    expect(result).toEqual({
      exitCode: 4,
      stdout: '',
      stderr:
        'svc: DELETE /groups/acme/members/1 failed: 403 Forbidden (removing an owner needs the owner role or administrator access, and a group keeps its last owner)\n',
    });
  });

  it('says a group keeps its last owner when its only owner would remove themself (exit 4)', async () => {
    const user = { token: suite.sandbox.tokens.user };
    expect((await suite.run(['groups', 'create', '--name', 'Solo', '--path', 'solo', '-q'], user)).exitCode).toBe(0);
    const result = await suite.run(['members', 'remove', '--group', 'solo', '--user', 'jdoe', '--yes'], user);
    expect(result).toEqual({
      exitCode: 4,
      stdout: '',
      stderr:
        'svc: DELETE /groups/solo/members/2 failed: 403 Forbidden (removing an owner needs the owner role or administrator access, and a group keeps its last owner)\n',
    });
  });

  it('removes with --yes: said on stderr, nothing on stdout, and the member is gone', async () => {
    const result = await suite.run(['members', 'remove', '--group', 'acme', '--user', 'sybil.lopez', '--yes']);
    expect(result).toEqual({ exitCode: 0, stdout: '', stderr: 'removed sybil.lopez (developer) from group acme\n' });
    const after = await suite.run(['members', 'list', '--group', 'acme', '--query', 'sybil', '-o', 'json']);
    expect(after.stdout).toBe('[]\n');
  });

  it('asks on a terminal and removes nothing unless the answer is yes', async () => {
    const term = spawnPty(['node', BIN, 'members', 'remove', '--group', 'acme', '--user', 'olivia.garcia'], {
      env: isolatedEnv({ env: sandboxEnv(suite.sandbox, suite.sandbox.tokens.admin) }),
    });
    await term.waitFor('Remove olivia.garcia (developer) from group acme? [y/N] ');
    term.write('n\r');
    const end = await term.exit();
    expect(end.exitCode).toBe(1);
    expect(end.output).toContain('svc: Remove olivia.garcia (developer) from group acme: not confirmed, nothing was changed');
    const still = await suite.run(['members', 'list', '--group', 'acme', '--query', 'olivia', '-o', 'ndjson', '--fields', 'access_level']);
    expect(still.stdout).toBe('{"access_level":30}\n');
  });
});
