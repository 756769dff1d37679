import { describe, expect, it } from 'vitest';
import { BIN, isolatedEnv, parseNdjson } from '../support/harness.js';
import { spawnPty } from '../support/pty.js';
import { sandboxEnv } from '../support/sandbox.js';
import { onlyRequest, useSandbox } from './support.js';

const suite = useSandbox({ projects: 10 });
const json = (record: unknown) => `${JSON.stringify(record, null, 2)}\n`;
const user = (id: number) => suite.sandbox.state.user(id)!;
const ADMIN_ONLY = '(this needs administrator access)';

describe('users get and me', () => {
  it('shows a user by username (looked up first) or by id', async () => {
    const byName = await suite.run(['users', 'get', 'jdoe', '-o', 'json', '--fields', 'id,username,state']);
    expect(byName).toEqual({ exitCode: 0, stdout: json({ id: 2, username: 'jdoe', state: 'active' }), stderr: '' });
    expect(suite.requests().map((r) => `${r.method} ${r.rawPath}`)).toEqual(['GET /api/v4/users', 'GET /api/v4/users/2']);
    const byId = await suite.run(['users', 'get', '2', '-o', 'json', '--fields', 'username']);
    expect(byId.stdout).toBe(json({ username: 'jdoe' }));
    onlyRequest(suite, 'GET', /^\/api\/v4\/users\/2$/);
  });

  it('says an unknown username in one line (exit 5)', async () => {
    const result = await suite.run(['users', 'get', 'nobody-here']);
    expect(result).toEqual({ exitCode: 5, stdout: '', stderr: "svc: no user with username 'nobody-here'\n" });
  });

  it("shows the token's own user", async () => {
    const result = await suite.run(['users', 'me', '-o', 'json', '--fields', 'username,is_admin'], { token: suite.sandbox.tokens.user });
    expect(result).toEqual({ exitCode: 0, stdout: json({ username: 'jdoe', is_admin: false }), stderr: '' });
  });
});

describe('users projects', () => {
  it("lists a user's personal projects, newest first", async () => {
    const expected = Array.from({ length: 10 }, (_, i) => suite.sandbox.state.project(10 - i)!)
      .filter((p) => p.nsKind === 'user' && p.nsOwner === 2)
      .map((p) => ({ id: p.id }));
    const result = await suite.run(['users', 'projects', 'jdoe', '--all', '-o', 'ndjson', '--fields', 'id']);
    expect([result.exitCode, parseNdjson(result.stdout)]).toEqual([0, expected]);
    onlyRequest(suite, 'GET', /^\/api\/v4\/users\/2\/projects$/);
  });
});

describe('users create and update', () => {
  it('creates a user: what was done on stderr, the record on stdout', async () => {
    const result = await suite.run([
      'users',
      'create',
      '--email',
      'ann@example.com',
      '--username',
      'ann',
      '--name',
      'Ann Lee',
      '--reset-password',
      '--external',
      '-o',
      'json',
      '--fields',
      'username,name,external,is_admin',
    ]);
    const id = suite.sandbox.state.user('ann')!.id;
    expect(result).toEqual({
      exitCode: 0,
      stdout: json({ username: 'ann', name: 'Ann Lee', external: true, is_admin: false }),
      stderr: `created user ann (${id})\n`,
    });
    expect(JSON.parse(onlyRequest(suite, 'POST', /^\/api\/v4\/users$/).body)).toEqual({
      email: 'ann@example.com',
      username: 'ann',
      name: 'Ann Lee',
      reset_password: true,
      external: true,
    });
  });

  it('needs exactly one way to set the password (exit 2, before any request)', async () => {
    const base = ['users', 'create', '--email', 'b@example.com', '--username', 'b', '--name', 'B'];
    const message = 'svc: give one of --password, --reset-password or --random-password (how the user gets a password)\n';
    expect(await suite.run(base)).toEqual({ exitCode: 2, stdout: '', stderr: message });
    expect(await suite.run([...base, '--reset-password', '--random-password'])).toEqual({ exitCode: 2, stdout: '', stderr: message });
    expect(suite.requests()).toEqual([]);
  });

  it('reports a taken username (409, exit 6) and refuses a non-administrator (exit 4)', async () => {
    const taken = await suite.run([
      'users',
      'create',
      '--email',
      'x@example.com',
      '--username',
      'jdoe',
      '--name',
      'X',
      '--random-password',
    ]);
    expect(taken).toEqual({ exitCode: 6, stdout: '', stderr: 'svc: POST /users failed: 409 Conflict: Username has already been taken\n' });
    const forbidden = await suite.run(
      ['users', 'create', '--email', 'y@example.com', '--username', 'y', '--name', 'Y', '--random-password'],
      {
        token: suite.sandbox.tokens.user,
      },
    );
    expect(forbidden).toEqual({ exitCode: 4, stdout: '', stderr: `svc: POST /users failed: 403 Forbidden ${ADMIN_ONLY}\n` });
  });

  it('updates the fields given, --no-admin included', async () => {
    const id = suite.sandbox.state.user('ann')!.id;
    const result = await suite.run([
      'users',
      'update',
      'ann',
      '--name',
      'Ann Lee-Smith',
      '--no-external',
      '-o',
      'json',
      '--fields',
      'name,external',
    ]);
    expect(result).toEqual({
      exitCode: 0,
      stdout: json({ name: 'Ann Lee-Smith', external: false }),
      stderr: `updated user ann (${id}): name, external\n`,
    });
    const nothing = await suite.run(['users', 'update', 'ann']);
    expect(nothing).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: 'svc: give at least one of --name, --username, --email, --admin, --external (what to change)\n',
    });
  });

  it('names administrator access when a regular user updates someone (exit 4)', async () => {
    const result = await suite.run(['users', 'update', '3', '--name', 'X'], { token: suite.sandbox.tokens.user });
    expect(result).toEqual({ exitCode: 4, stdout: '', stderr: `svc: PUT /users/3 failed: 403 Forbidden ${ADMIN_ONLY}\n` });
  });
});

describe('users block, unblock, deactivate, activate, ban, unban', () => {
  it('blocks with --yes: the change on stderr, the user after it on stdout; unblocks', async () => {
    const name = user(3).username;
    const blocked = await suite.run(['users', 'block', '3', '--yes', '-o', 'json', '--fields', 'id,state']);
    expect(blocked).toEqual({
      exitCode: 0,
      stdout: json({ id: 3, state: 'blocked' }),
      stderr: `blocked user ${name} (3): active → blocked\n`,
    });
    expect(suite.requests().map((r) => `${r.method} ${r.rawPath}`)).toEqual([
      'GET /api/v4/users/3',
      'POST /api/v4/users/3/block',
      'GET /api/v4/users/3',
    ]);
    const again = await suite.run(['users', 'block', '3', '--yes', '-q']);
    expect(again).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    const unblocked = await suite.run(['users', 'unblock', name, '-o', 'json', '--fields', 'state']);
    expect(unblocked).toEqual({ exitCode: 0, stdout: json({ state: 'active' }), stderr: `unblocked user ${name} (3): blocked → active\n` });
  });

  it('says when nothing changed (the service answers 201 false or null)', async () => {
    const name = user(3).username;
    const result = await suite.run(['users', 'activate', '3', '-o', 'json', '--fields', 'state']);
    expect(result).toEqual({ exitCode: 0, stdout: json({ state: 'active' }), stderr: `user ${name} (3) is active: nothing changed\n` });
  });

  it('requires --yes for block and ban when stdin is not a terminal (exit 2), changing nothing', async () => {
    const name = user(4).username;
    const result = await suite.run(['users', 'ban', '4']);
    expect(result).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: `svc: Ban user ${name} (4): pass --yes to confirm (stdin is not a terminal, so there is no one to ask)\n`,
    });
    expect(user(4).state).toBe('active');
  });

  it('deactivates a dormant user and activates them again; the service refuses a recently active one (exit 4)', async () => {
    const name = user(4).username;
    const deactivated = await suite.run(['users', 'deactivate', '4', '-o', 'json', '--fields', 'state']);
    expect(deactivated).toEqual({
      exitCode: 0,
      stdout: json({ state: 'deactivated' }),
      stderr: `deactivated user ${name} (4): active → deactivated\n`,
    });
    const activated = await suite.run(['users', 'activate', '4', '-q']);
    expect([activated.exitCode, user(4).state]).toEqual([0, 'active']);
    const recent = await suite.run(['users', 'deactivate', 'jdoe']);
    expect(recent).toEqual({
      exitCode: 4,
      stdout: '',
      stderr:
        'svc: POST /users/2/deactivate failed: 403 Forbidden: The user you are trying to deactivate has been active in the past 90 days and cannot be deactivated\n',
    });
  });

  it('bans and unbans', async () => {
    const name = user(5).username;
    const banned = await suite.run(['users', 'ban', '5', '--yes', '-o', 'json', '--fields', 'state']);
    expect(banned).toEqual({ exitCode: 0, stdout: json({ state: 'banned' }), stderr: `banned user ${name} (5): active → banned\n` });
    const unbanned = await suite.run(['users', 'unban', '5', '-o', 'json', '--fields', 'state']);
    expect(unbanned).toEqual({ exitCode: 0, stdout: json({ state: 'active' }), stderr: `unbanned user ${name} (5): banned → active\n` });
  });

  it("keeps the service's own 403 reason, and names administrator access on a plain 403", async () => {
    const self = await suite.run(['users', 'block', 'root', '--yes']);
    expect(self).toEqual({
      exitCode: 4,
      stdout: '',
      stderr: 'svc: POST /users/1/block failed: 403 Forbidden - The API initiating user cannot be blocked by the API\n',
    });
    const regular = await suite.run(['users', 'unblock', '3'], { token: suite.sandbox.tokens.user });
    expect(regular).toEqual({ exitCode: 4, stdout: '', stderr: `svc: POST /users/3/unblock failed: 403 Forbidden ${ADMIN_ONLY}\n` });
  });

  it('asks on a terminal before blocking, and blocks on yes', async () => {
    const name = user(6).username;
    const term = spawnPty(['node', BIN, 'users', 'block', '6'], {
      env: isolatedEnv({ env: sandboxEnv(suite.sandbox, suite.sandbox.tokens.admin) }),
    });
    await term.waitFor(`Block user ${name} (6)? [y/N] `);
    term.write('y\r');
    const end = await term.exit();
    expect(end.exitCode).toBe(0);
    expect(end.output).toContain(`blocked user ${name} (6): active → blocked`);
    expect(user(6).state).toBe('blocked');
  });
});
