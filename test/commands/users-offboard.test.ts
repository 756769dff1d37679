// `svc users delete`, `users memberships` and `users offboard` against the sandbox, whose answers follow
// lib/api/users.rb (test/sandbox/conformance/user-deletion.test.ts).
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseNdjson } from '../support/harness.js';
import { req } from '../sandbox/helpers.js';
import { useSandbox } from './support.js';

const suite = useSandbox({ projects: 10 });
const api = async (path: string, method = 'GET', json?: unknown, headers?: Record<string, string>) => {
  const r = await req(suite.sandbox.url, `/api/v4${path}`, { method, json, headers, token: suite.sandbox.tokens.admin });
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.text}`);
  return r.json;
};
const writes = () =>
  suite
    .requests()
    .filter((r) => r.method !== 'GET')
    .map((r) => `${r.method} ${r.rawPath}${r.rawQuery ? `?${r.rawQuery}` : ''}`);

async function createUser(username: string): Promise<number> {
  const user = await api('/users', 'POST', { email: `${username}@example.com`, username, name: username, password: 'long enough' });
  return user.id as number;
}

describe('users memberships', () => {
  it("lists a user's direct memberships, filtered by type", async () => {
    const all = await suite.run(['users', 'memberships', 'jdoe', '-o', 'ndjson']);
    expect([all.exitCode, parseNdjson(all.stdout), all.stderr]).toEqual([
      0,
      [
        { source_id: 1, source_name: 'Acme', source_type: 'Namespace', access_level: 40 },
        { source_id: 3, source_name: 'Nice Lynx 3', source_type: 'Project', access_level: 40 },
        { source_id: 5, source_name: 'Calm Tundra 5', source_type: 'Project', access_level: 40 },
      ],
      '',
    ]);
    const groups = await suite.run(['users', 'memberships', '2', '--type', 'Namespace', '-o', 'ndjson', '--fields', 'source_id']);
    expect(groups.stdout).toBe('{"source_id":1}\n');
    expect(suite.requests().map((r) => `${r.rawPath}?${r.rawQuery}`)).toEqual(['/api/v4/users/2/memberships?type=Namespace&per_page=100']);
  });

  it('names the role a non-administrator lacks (exit 4)', async () => {
    const r = await suite.run(['users', 'memberships', '2'], { token: suite.sandbox.tokens.user });
    expect(r).toEqual({
      exitCode: 4,
      stdout: '',
      stderr: 'svc: GET /users/2/memberships failed: 403 Forbidden (this needs administrator access)\n',
    });
  });
});

describe('users delete', () => {
  it('asks first: without --yes and no terminal nothing is sent (exit 2)', async () => {
    const r = await suite.run(['users', 'delete', 'trent.wilson']);
    expect([r.exitCode, r.stderr]).toEqual([
      2,
      'svc: Delete user trent.wilson (5): pass --yes to confirm (stdin is not a terminal, so there is no one to ask)\n',
    ]);
    expect(writes()).toEqual([]);
  });

  it('deletes a user (204): their contributions pass to the ghost user', async () => {
    const r = await suite.run(['users', 'delete', 'trent.wilson', '--yes']);
    expect(r).toEqual({
      exitCode: 0,
      stdout: '',
      stderr: 'deleted user trent.wilson (5); their contributions now belong to the ghost user\n',
    });
    expect(writes()).toEqual(['DELETE /api/v4/users/5']);
    expect(suite.sandbox.state.user(5)).toBe(null);
  });

  it("reports the service's refusal of a group's only owner (exit 6), and --hard-delete goes ahead", async () => {
    const id = await createUser('solo');
    await api('/groups/5/members', 'POST', { user_id: id, access_level: 50 });
    const refused = await suite.run(['users', 'delete', 'solo', '--yes']);
    expect(refused).toEqual({
      exitCode: 6,
      stdout: '',
      stderr: `svc: DELETE /users/${id} failed: 409 Conflict: User cannot be removed while is the sole-owner of a group\n`,
    });
    const hard = await suite.run(['users', 'delete', String(id), '--hard-delete', '--yes']);
    expect([hard.exitCode, hard.stderr]).toEqual([0, `deleted user solo (${id}) and their contributions\n`]);
    expect(writes()).toEqual([`DELETE /api/v4/users/${id}?hard_delete=true`]);
    // The service deletes the groups the user alone owned along with them.
    expect((await req(suite.sandbox.url, '/api/v4/groups/5', { token: suite.sandbox.tokens.admin })).status).toBe(404);
  });

  it('names the role a non-administrator lacks (exit 4)', async () => {
    const r = await suite.run(['users', 'delete', '6', '--yes'], { token: suite.sandbox.tokens.user });
    expect([r.exitCode, r.stderr]).toEqual([4, 'svc: DELETE /users/6 failed: 403 Forbidden (this needs administrator access)\n']);
  });
});

describe('users offboard', () => {
  it('plans, carries out exactly the plan, leaves a refused step, and a rerun does only what is left', async () => {
    const id = await createUser('leaver');
    await api(`/users/${id}/personal_access_tokens`, 'POST', { name: 'laptop', scopes: ['api'] });
    const tokens = (await api(`/personal_access_tokens?user_id=${id}&state=active`)) as Array<{ id: number; name: string }>;
    await api('/groups/1/members', 'POST', { user_id: id, access_level: 30 });
    await api('/groups/2/members', 'POST', { user_id: id, access_level: 50 });
    await api('/projects/9/members', 'POST', { user_id: id, access_level: 30 });
    const schedule = await api(
      '/projects/2/pipeline_schedules',
      'POST',
      { description: 'nightly', ref: 'main', cron: '0 1 * * *' },
      { sudo: 'leaver' },
    );
    // A user made through the API has no seeded tokens: only the one made here.
    expect(tokens.map((t) => t.name)).toEqual(['laptop']);
    const plan = [
      ...tokens.map((t) => ({ step: 'revoke', target: `token ${t.name} (${t.id})` })),
      { step: 'take over', target: `schedule ${schedule.id} "nightly" of project 2` },
      { step: 'remove from', target: 'group Acme (1)' },
      { step: 'remove from', target: 'group Platform (2)' },
      { step: 'remove from', target: 'project Zealous Kernel 9 (9)' },
      { step: 'block', target: `user leaver (${id})` },
    ];
    const args = ['users', 'offboard', 'leaver', '--transfer-schedules-to', 'jdoe', '-o', 'ndjson'];

    const dry = await suite.run([...args, '--dry-run']);
    expect([dry.exitCode, parseNdjson(dry.stdout), dry.stderr]).toEqual([
      0,
      plan,
      'dry run: offboarding leaver (' +
        id +
        ') takes 1 token(s) to revoke, 1 schedule(s) to take over, 3 membership(s) to remove, then the block; nothing was changed\n',
    ]);
    expect(writes()).toEqual([]);

    const journal = join(mkdtempSync(join(tmpdir(), 'offboard-')), 'journal.jsonl');
    const run = await suite.run([...args, '--journal', journal, '--yes']);
    expect([run.exitCode, parseNdjson(run.stdout)]).toEqual([8, plan]);
    expect(run.stderr).toBe(
      'remove from group Platform (2): failed: DELETE /groups/2/members/' +
        id +
        ' failed: 403 Forbidden\n' +
        `svc: offboarding leaver (${id}): 5 of 6 steps done; left: remove from group Platform (2)\n`,
    );
    const sent = suite.requests().filter((r) => r.method !== 'GET');
    expect(sent.map((r) => `${r.method} ${r.rawPath}`)).toEqual([
      ...tokens.map((t) => `DELETE /api/v4/personal_access_tokens/${t.id}`),
      `POST /api/v4/projects/2/pipeline_schedules/${schedule.id}/take_ownership`,
      `DELETE /api/v4/groups/1/members/${id}`,
      `DELETE /api/v4/groups/2/members/${id}`,
      `DELETE /api/v4/projects/9/members/${id}`,
      `POST /api/v4/users/${id}/block`,
    ]);
    expect(sent[tokens.length]!.headers.sudo).toBe('jdoe');
    expect((await api(`/projects/2/pipeline_schedules/${schedule.id}`)).owner.username).toBe('jdoe');
    expect(suite.sandbox.state.user(id)!.state).toBe('blocked');

    await api('/groups/2/members', 'POST', { user_id: 2, access_level: 50 });
    const rerun = await suite.run([...args, '--journal', journal, '--yes']);
    expect(rerun).toEqual({
      exitCode: 0,
      stdout: `${JSON.stringify(plan[3])}\n`,
      stderr: `offboarding leaver (${id}): 1 of 1 steps done\n`,
    });
    expect(writes()).toEqual([`DELETE /api/v4/groups/2/members/${id}`]);
    const records = readFileSync(journal, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(records.filter((r) => 'done' in r).length).toBe(6);
  });

  it('keeps schedules without --transfer-schedules-to, and says so', async () => {
    const id = await createUser('keeper');
    await api('/projects/9/members', 'POST', { user_id: id, access_level: 40 });
    const schedule = await api(
      '/projects/9/pipeline_schedules',
      'POST',
      { description: 'weekly', ref: 'main', cron: '0 1 * * 0' },
      { sudo: 'keeper' },
    );
    const r = await suite.run(['users', 'offboard', 'keeper', '--dry-run', '-o', 'ndjson']);
    expect([r.exitCode, parseNdjson(r.stdout)]).toEqual([
      0,
      [
        { step: 'remove from', target: 'project Zealous Kernel 9 (9)' },
        { step: 'block', target: `user keeper (${id})` },
      ],
    ]);
    expect(r.stderr.split('\n')[0]).toBe(
      `warning: schedule ${schedule.id} "weekly" of project 9 stays with keeper: give --transfer-schedules-to to hand it over`,
    );
  });

  it('refuses a non-administrator (exit 4) before any write', async () => {
    const r = await suite.run(['users', 'offboard', 'olivia.garcia', '--yes'], { token: suite.sandbox.tokens.user });
    expect(r.exitCode).toBe(4);
    expect(writes()).toEqual([]);
  });
});
