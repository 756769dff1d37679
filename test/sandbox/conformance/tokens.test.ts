// Personal access tokens and impersonation tokens: service-endpoints.md §11 (PAT: lib/api/personal_access_tokens.rb,
// personal_access_tokens/self_*.rb, helpers/personal_access_tokens_helpers.rb) and service-behaviour.md §4.2, §4.7.
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../../src/sandbox/index.js';
import { req } from '../helpers.js';
import { useSandbox } from './setup.js';

const c = useSandbox({ projects: 10 });

const DAY = 86_400_000;
const day = (offset: number) => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10);
const pat = (token: string) => ({ token });

async function createFor(userId: number, body: Record<string, unknown>): Promise<{ id: number; token: string }> {
  const r = await c.call(`/users/${userId}/personal_access_tokens`, { as: 'admin', method: 'POST', json: body });
  expect(r.status).toBe(201);
  return r.json;
}

describe('endpoints §11 GET /personal_access_tokens/self and /:id', () => {
  it('answers the PersonalAccessToken entity (with last_used_ips) for the token in use, its use recorded', async () => {
    const before = Date.now();
    const r = await c.call('/personal_access_tokens/self', { as: 'user' });
    const after = Date.now();
    const { last_used_at: used, ...rest } = r.json;
    expect([r.status, rest]).toEqual([
      200,
      {
        id: 3,
        name: 'sandbox-user',
        revoked: false,
        created_at: '2021-01-01T00:00:00.000Z',
        description: '',
        scopes: ['api'],
        user_id: 2,
        active: true,
        expires_at: null,
        last_used_ips: [],
      },
    ]);
    expect(Date.parse(used)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(used)).toBeLessThanOrEqual(after);
  });

  it('serves /self to a token of any scope (read_api here), and refuses a token that is not a PAT with 400', async () => {
    expect((await c.call('/personal_access_tokens/self', { as: 'readApi' })).json.id).toBe(4);
    const oauth = await c.call('/personal_access_tokens/self', { headers: { Authorization: `Bearer ${c.sb.tokens.oauth.access}` } });
    expect([oauth.status, oauth.json]).toEqual([
      400,
      { message: '400 Bad request - This endpoint requires token type to be a personal access token' },
    ]);
  });

  it("hides another user's token: 401 for a regular user, 404 Not Found for an admin when the id does not exist", async () => {
    const other = await c.call('/personal_access_tokens/1', { as: 'user' });
    expect([other.status, other.json]).toEqual([401, { message: '401 Unauthorized' }]);
    const none = await c.call('/personal_access_tokens/999999', { as: 'admin' });
    expect([none.status, none.json]).toEqual([404, { message: '404 Not Found' }]);
  });
});

describe('endpoints §11 GET /personal_access_tokens', () => {
  it("lists a regular user's own personal tokens only", async () => {
    const r = await c.call('/personal_access_tokens', { as: 'user' });
    expect(r.json.map((t: { id: number; name: string }) => [t.id, t.name])).toEqual([
      [3, 'sandbox-user'],
      [4, 'sandbox-read-api'],
    ]);
  });

  it("refuses a regular user another user's user_id (401), and an admin an unknown user_id (404 Not Found)", async () => {
    const r = await c.call('/personal_access_tokens?user_id=1', { as: 'user' });
    expect([r.status, r.json]).toEqual([401, { message: '401 Unauthorized' }]);
    const a = await c.call('/personal_access_tokens?user_id=99999', { as: 'admin' });
    expect([a.status, a.json]).toEqual([404, { message: '404 Not Found' }]);
  });

  it("gives an admin every user's tokens, filtered by state (inactive: revoked or expired)", async () => {
    const all = (await c.call('/personal_access_tokens?per_page=100', { as: 'admin' })).json as Array<{
      id: number;
      active: boolean;
      revoked: boolean;
      expires_at: string | null;
    }>;
    const inactive = (await c.call('/personal_access_tokens?per_page=100&state=inactive', { as: 'admin' })).json;
    expect(inactive.map((t: { id: number }) => t.id)).toEqual(all.filter((t) => !t.active).map((t) => t.id));
    expect(all.filter((t) => !t.active).every((t) => t.revoked || (t.expires_at !== null && t.expires_at <= day(0)))).toBe(true);
    const bad = await c.call('/personal_access_tokens?state=gone', { as: 'admin' });
    expect([bad.status, bad.json]).toEqual([400, { error: 'state does not have a valid value' }]);
  });
});

describe('endpoints §11 POST /users/:user_id/personal_access_tokens (admin)', () => {
  it('answers 201 with the token once; the token is a credential of its user and never shown again', async () => {
    const made = await createFor(2, { name: 'ci', scopes: ['api'], expires_at: day(30) });
    expect(made).toEqual({
      id: made.id,
      name: 'ci',
      revoked: false,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      description: '',
      scopes: ['api'],
      user_id: 2,
      last_used_at: null,
      active: true,
      expires_at: day(30),
      token: made.token,
    });
    expect(made.token).toMatch(/^glpat-[A-Za-z0-9_-]{20}$/);
    expect((await c.call('/user', pat(made.token))).json.username).toBe('jdoe');
    expect('token' in (await c.call(`/personal_access_tokens/${made.id}`, { as: 'admin' })).json).toBe(false);
  });

  it('records the last use of a token made here', async () => {
    const made = await createFor(2, { name: 'used', scopes: ['read_api'] });
    const before = Date.now();
    await c.call('/user', pat(made.token));
    const used = Date.parse((await c.call(`/personal_access_tokens/${made.id}`, { as: 'admin' })).json.last_used_at);
    expect(used).toBeGreaterThanOrEqual(before);
    expect(used).toBeLessThanOrEqual(Date.now());
  });

  it("lists a user's impersonation tokens too for an admin with user_id (the finder's default)", async () => {
    const imp = await c.call('/users/5/impersonation_tokens', { as: 'admin', method: 'POST', json: { name: 'imp', scopes: ['api'] } });
    const listed = await c.call('/personal_access_tokens?user_id=5&per_page=100', { as: 'admin' });
    expect(listed.json.map((t: { id: number }) => t.id)).toContain(imp.json.id);
    expect('impersonation' in listed.json.find((t: { id: number }) => t.id === imp.json.id)).toBe(false);
  });

  it('needs name and scopes, checks the scopes, and is for admins only', async () => {
    const none = await c.call('/users/2/personal_access_tokens', { as: 'admin', method: 'POST', json: {} });
    expect([none.status, none.json]).toEqual([400, { error: 'name is missing, scopes is missing' }]);
    const bad = await c.call('/users/2/personal_access_tokens', { as: 'admin', method: 'POST', json: { name: 'x', scopes: ['root'] } });
    expect([bad.status, bad.json]).toEqual([400, { error: 'scopes does not have a valid value' }]);
    const user = await c.call('/users/2/personal_access_tokens', { as: 'user', method: 'POST', json: { name: 'x', scopes: ['api'] } });
    expect([user.status, user.json]).toEqual([403, { message: '403 Forbidden' }]);
  });

  it('refuses an expires_at that is no day of the calendar as a Grape Date: 400 expires_at is invalid, nothing made', async () => {
    const before = (await c.call('/personal_access_tokens?user_id=2&per_page=100', { as: 'admin' })).json.length;
    for (const expires_at of ['2027-02-30', '2027-04-31', '2027-13-01']) {
      const r = await c.call('/users/2/personal_access_tokens', {
        as: 'admin',
        method: 'POST',
        json: { name: 'x', scopes: ['api'], expires_at },
      });
      expect([r.status, r.json]).toEqual([400, { error: 'expires_at is invalid' }]);
    }
    expect((await c.call('/personal_access_tokens?user_id=2&per_page=100', { as: 'admin' })).json.length).toBe(before);
  });

  it('refuses an expired token with the invalid_token body (behaviour §4.2)', async () => {
    const made = await createFor(2, { name: 'old', scopes: ['api'], expires_at: day(-1) });
    const r = await c.call('/user', pat(made.token));
    expect([r.status, r.json]).toEqual([
      401,
      { error: 'invalid_token', error_description: 'Token is expired. You can either do re-authorization or token refresh.' },
    ]);
  });
});

describe('endpoints §11 rotate and revoke', () => {
  it('rotates with 200: a new token (a week long by default), the old one revoked and refused', async () => {
    const made = await createFor(2, { name: 'rot', scopes: ['api'], expires_at: day(10) });
    const r = await c.call(`/personal_access_tokens/${made.id}/rotate`, { as: 'user', method: 'POST' });
    expect([r.status, r.json.name, r.json.expires_at, r.json.id > made.id]).toEqual([200, 'rot', day(7), true]);
    const old = await c.call('/user', pat(made.token));
    expect([old.status, old.json]).toEqual([
      401,
      { error: 'invalid_token', error_description: 'Token was revoked. You have to re-authorize from the user.' },
    ]);
    expect((await c.call('/user', pat(r.json.token))).json.username).toBe('jdoe');
    const again = await c.call(`/personal_access_tokens/${made.id}/rotate`, { as: 'admin', method: 'POST' });
    expect([again.status, again.json]).toEqual([400, { message: '400 Bad request - token already revoked' }]);
  });

  it('rotates itself with /self/rotate (expires_at given); an OAuth token gets 405', async () => {
    const made = await createFor(2, { name: 'self', scopes: ['api'] });
    const r = await c.call('/personal_access_tokens/self/rotate', { ...pat(made.token), method: 'POST', json: { expires_at: day(20) } });
    expect([r.status, r.json.expires_at]).toEqual([200, day(20)]);
    const oauth = await c.call('/personal_access_tokens/self/rotate', {
      method: 'POST',
      headers: { Authorization: `Bearer ${c.sb.tokens.oauth.access}` },
    });
    expect([oauth.status, oauth.json]).toEqual([405, { message: '405 Method Not Allowed' }]);
  });

  it('revokes with 204 (the owner or an admin); others get 400, an unknown id 404 Not found', async () => {
    const made = await createFor(1, { name: 'admin-only', scopes: ['api'] });
    const other = await c.call(`/personal_access_tokens/${made.id}`, { as: 'user', method: 'DELETE' });
    expect([other.status, other.json]).toEqual([400, { message: '400 Bad request' }]);
    expect((await c.call(`/personal_access_tokens/${made.id}`, { as: 'admin', method: 'DELETE' })).status).toBe(204);
    expect((await c.call(`/personal_access_tokens/${made.id}`, { as: 'admin' })).json).toMatchObject({ revoked: true, active: false });
    const none = await c.call('/personal_access_tokens/999999', { as: 'admin', method: 'DELETE' });
    expect([none.status, none.json]).toEqual([404, { message: '404 Not found' }]);
  });

  it('revokes itself with DELETE /self, whatever its scope', async () => {
    const made = await createFor(2, { name: 'reader', scopes: ['read_api'] });
    expect((await c.call('/personal_access_tokens/self', { ...pat(made.token), method: 'DELETE' })).status).toBe(204);
    expect((await c.call('/user', pat(made.token))).status).toBe(401);
  });
});

describe('endpoints §11 and behaviour §4.7 impersonation tokens', () => {
  it('creates one with impersonation: true and the token, which acts as the user', async () => {
    const r = await c.call('/users/3/impersonation_tokens', { as: 'admin', method: 'POST', json: { name: 'imp', scopes: ['api'] } });
    expect([r.status, r.json.impersonation, r.json.user_id, r.json.name]).toEqual([201, true, 3, 'imp']);
    expect((await c.call('/user', pat(r.json.token))).json.id).toBe(3);
    const listed = await c.call('/users/3/impersonation_tokens?state=active', { as: 'admin' });
    expect(listed.json.map((t: { id: number }) => t.id)).toContain(r.json.id);
    expect((await c.call(`/users/3/impersonation_tokens/${r.json.id}`, { as: 'admin', method: 'DELETE' })).status).toBe(204);
    const after = await c.call(`/users/3/impersonation_tokens/${r.json.id}`, { as: 'admin' });
    expect([after.json.revoked, after.json.active]).toEqual([true, false]);
  });

  it('is for admins only, and answers 404 Impersonation Token Not Found for an unknown id', async () => {
    const r = await c.call('/users/3/impersonation_tokens', { as: 'user' });
    expect([r.status, r.json]).toEqual([403, { message: '403 Forbidden' }]);
    const none = await c.call('/users/3/impersonation_tokens/999999', { as: 'admin' });
    expect([none.status, none.json]).toEqual([404, { message: '404 Impersonation Token Not Found' }]);
    const nobody = await c.call('/users/99999/impersonation_tokens', { as: 'admin' });
    expect([nobody.status, nobody.json]).toEqual([404, { message: '404 User Not Found' }]);
  });
});

describe('sandbox option users', () => {
  it('seeds the number of users asked for', async () => {
    const sb = await startSandbox({ projects: 0, users: 250 });
    try {
      expect([sb.state.user(250)?.id, sb.state.user(251)]).toEqual([250, null]);
    } finally {
      await sb.close();
    }
  });

  it('gives a user made through the API no seeded tokens, even before the token store is first read', async () => {
    const sb = await startSandbox({ projects: 0 });
    try {
      const admin = sb.tokens.admin;
      const json = { email: 'ann@example.com', username: 'ann', name: 'Ann', password: 'Secret-pass-123' };
      const made = await req(sb.url, '/api/v4/users', { method: 'POST', token: admin, json });
      const id = (made.json as { id: number }).id;
      const seeded = await req(sb.url, '/api/v4/personal_access_tokens?user_id=3', { token: admin });
      const own = await req(sb.url, `/api/v4/personal_access_tokens?user_id=${id}`, { token: admin });
      expect([made.status, (seeded.json as unknown[]).length > 0, own.json]).toEqual([201, true, []]);
    } finally {
      await sb.close();
    }
  });
});
