// User administration: service-endpoints.md §11 (POST /users 201 and its 409 texts, the state actions'
// 201 `true` and 403 texts, GET /users/:user_id/projects) and service-behaviour.md §4 (what a blocked or
// deactivated account's token gets: `UserAccessDeniedReason`, 403).
import { describe, expect, it } from 'vitest';
import { useSandbox } from './setup.js';

const c = useSandbox({ projects: 10 });
const post = (path: string, opts: Record<string, unknown> = {}) => c.call(path, { as: 'admin', method: 'POST', ...opts });
const stateOf = (id: number) => c.sb.state.user(id)!.state;

describe('endpoints §11 POST /users and PUT /users/:id', () => {
  it('creates a user (201, UserWithAdmin) for an administrator', async () => {
    const r = await post('/users', {
      json: { email: 'ann@example.com', username: 'ann', name: 'Ann', password: 'correct horse', external: true },
    });
    expect(r.status).toBe(201);
    expect([r.json.username, r.json.name, r.json.email, r.json.state, r.json.is_admin, r.json.external]).toEqual([
      'ann',
      'Ann',
      'ann@example.com',
      'active',
      false,
      true,
    ]);
    const byName = await c.call('/users?username=ann', { as: 'admin' });
    expect(byName.json.map((u: { id: number }) => u.id)).toEqual([r.json.id]);
  });

  it('answers 409 for a taken email or username, 400 for missing parameters and a short password', async () => {
    const email = await post('/users', { json: { email: 'ANN@example.com', username: 'ann2', name: 'A', reset_password: true } });
    expect([email.status, email.json]).toEqual([409, { message: 'Email has already been taken' }]);
    const username = await post('/users', { json: { email: 'b@example.com', username: 'Ann', name: 'A', reset_password: true } });
    expect([username.status, username.json]).toEqual([409, { message: 'Username has already been taken' }]);
    const missing = await post('/users', { json: { name: 'A' } });
    expect([missing.status, missing.json]).toEqual([
      400,
      {
        error:
          'email is missing, password, reset_password, force_random_password are missing, at least one parameter must be provided, username is missing',
      },
    ]);
    const short = await post('/users', { json: { email: 'c@example.com', username: 'c', name: 'C', password: 'short' } });
    expect([short.status, short.json]).toEqual([400, { message: { password: ['is too short (minimum is 8 characters)'] } }]);
  });

  it('refuses a non-administrator (403)', async () => {
    const r = await c.call('/users', {
      as: 'user',
      method: 'POST',
      json: { email: 'd@example.com', username: 'd', name: 'D', reset_password: true },
    });
    expect([r.status, r.json]).toEqual([403, { message: '403 Forbidden' }]);
  });

  it('updates a user (200), 409 for a username taken by another, 404 User Not Found for an unknown id', async () => {
    const ann = c.sb.state.user('ann')!;
    const r = await c.call(`/users/${ann.id}`, { as: 'admin', method: 'PUT', json: { name: 'Ann Lee', admin: true } });
    expect([r.status, r.json.name, r.json.is_admin]).toEqual([200, 'Ann Lee', true]);
    const taken = await c.call(`/users/${ann.id}`, { as: 'admin', method: 'PUT', json: { username: 'jdoe' } });
    expect([taken.status, taken.json]).toEqual([409, { message: 'Username has already been taken' }]);
    const unknown = await c.call('/users/99999', { as: 'admin', method: 'PUT', json: { name: 'x' } });
    expect([unknown.status, unknown.json]).toEqual([404, { message: '404 User Not Found' }]);
  });
});

describe('endpoints §11 POST /users/:id/block, unblock, deactivate, activate, ban, unban', () => {
  it("blocks (201 true), and the blocked user's token is refused on every route until unblocked", async () => {
    const r = await post('/users/2/block');
    expect([r.status, r.text]).toEqual([201, 'true']);
    const refused = await c.call('/projects/1', { as: 'user' });
    expect([refused.status, refused.json]).toEqual([403, { message: '403 Forbidden - Your account has been blocked.' }]);
    const again = await post('/users/2/block');
    expect([again.status, again.text]).toEqual([201, 'null']);
    const unblocked = await post('/users/2/unblock');
    expect([unblocked.status, unblocked.text, stateOf(2)]).toEqual([201, 'true', 'active']);
    expect((await c.call('/projects/1', { as: 'user' })).status).toBe(200);
    const noop = await post('/users/2/unblock');
    expect([noop.status, noop.text]).toEqual([201, 'false']);
  });

  it('refuses to block the caller (403)', async () => {
    const r = await post('/users/1/block');
    expect([r.status, r.json]).toEqual([403, { message: '403 Forbidden - The API initiating user cannot be blocked by the API' }]);
  });

  it('refuses to deactivate a user active in the past 90 days (403), deactivates a dormant one (201 true)', async () => {
    await c.call('/user', { as: 'user' });
    const recent = await post('/users/2/deactivate');
    expect([recent.status, recent.json]).toEqual([
      403,
      { message: 'The user you are trying to deactivate has been active in the past 90 days and cannot be deactivated' },
    ]);
    const dormant = await post('/users/3/deactivate');
    expect([dormant.status, dormant.text, stateOf(3)]).toEqual([201, 'true', 'deactivated']);
    const again = await post('/users/3/deactivate');
    expect([again.status, again.text]).toEqual([201, 'null']);
    const unblock = await post('/users/3/unblock');
    expect([unblock.status, unblock.json]).toEqual([403, { message: '403 Forbidden - Deactivated users cannot be unblocked by the API' }]);
    const activated = await post('/users/3/activate');
    expect([activated.status, activated.text, stateOf(3)]).toEqual([201, 'true', 'active']);
  });

  it("refuses a deactivated user's token with the reactivation text", async () => {
    c.sb.state.user(2)!.lastActivityAt = 0;
    expect((await post('/users/2/deactivate')).status).toBe(201);
    const refused = await c.call('/user', { as: 'user' });
    expect([refused.status, refused.json]).toEqual([
      403,
      {
        message: `403 Forbidden - Your account has been deactivated by your administrator. Please log back in from a web browser to reactivate your account at ${c.sb.url}`,
      },
    ]);
    expect((await post('/users/2/activate')).status).toBe(201);
    expect((await c.call('/user', { as: 'user' })).status).toBe(200);
  });

  it('refuses to deactivate or activate a blocked user (403)', async () => {
    expect((await post('/users/4/block')).status).toBe(201);
    const deactivate = await post('/users/4/deactivate');
    expect([deactivate.status, deactivate.json]).toEqual([403, { message: 'Error occurred. A blocked user cannot be deactivated' }]);
    const activate = await post('/users/4/activate');
    expect([activate.status, activate.json]).toEqual([
      403,
      { message: '403 Forbidden - A blocked user must be unblocked to be activated' },
    ]);
    expect((await post('/users/4/unblock')).text).toBe('true');
  });

  it('bans an active user only, and unbans a banned one only (403 You cannot … otherwise)', async () => {
    const ban = await post('/users/5/ban');
    expect([ban.status, ban.text, stateOf(5)]).toEqual([201, 'true', 'banned']);
    const again = await post('/users/5/ban');
    expect([again.status, again.json]).toEqual([403, { message: 'You cannot ban banned users.' }]);
    const blockedToo = await post('/users/5/block');
    expect([blockedToo.status, blockedToo.text, stateOf(5)]).toEqual([201, 'null', 'banned']);
    const unban = await post('/users/5/unban');
    expect([unban.status, unban.text, stateOf(5)]).toEqual([201, 'true', 'active']);
    const notBanned = await post('/users/5/unban');
    expect([notBanned.status, notBanned.json]).toEqual([403, { message: 'You cannot unban active users.' }]);
  });

  it("refuses a banned user's token as blocked", async () => {
    expect((await post('/users/2/ban')).status).toBe(201);
    const refused = await c.call('/user', { as: 'user' });
    expect([refused.status, refused.json]).toEqual([403, { message: '403 Forbidden - Your account has been blocked.' }]);
    expect((await post('/users/2/unban')).status).toBe(201);
  });

  it('refuses a non-administrator (403) and answers 404 User Not Found for an unknown id', async () => {
    const forbidden = await c.call('/users/3/block', { as: 'user', method: 'POST' });
    expect([forbidden.status, forbidden.json]).toEqual([403, { message: '403 Forbidden' }]);
    const unknown = await post('/users/99999/ban');
    expect([unknown.status, unknown.json]).toEqual([404, { message: '404 User Not Found' }]);
  });
});

describe('endpoints §11 GET /users/:user_id/projects', () => {
  it("lists a user's personal projects by id or username, newest first; 404 User Not Found for an unknown one", async () => {
    const first = await c.call('/projects', { as: 'user', method: 'POST', json: { name: 'notes-a' } });
    const second = await c.call('/projects', { as: 'user', method: 'POST', json: { name: 'notes-b' } });
    const seeded = Array.from({ length: 10 }, (_, i) => c.sb.state.project(10 - i)!)
      .filter((p) => p.nsKind === 'user' && p.nsOwner === 2)
      .map((p) => p.id);
    const expected = [second.json.id, first.json.id, ...seeded];
    const byName = await c.call('/users/jdoe/projects', { as: 'admin' });
    const byId = await c.call('/users/2/projects', { as: 'admin' });
    expect(byName.json.map((p: { id: number }) => p.id)).toEqual(expected);
    expect(byId.json).toEqual(byName.json);
    const unknown = await c.call('/users/nobody-here/projects', { as: 'admin' });
    expect([unknown.status, unknown.json]).toEqual([404, { message: '404 User Not Found' }]);
  });
});
