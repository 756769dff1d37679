// Project and group access tokens (service-endpoints.md §11; lib/api/resource_access_tokens.rb) and deploy
// tokens (§11, DTE). jdoe is a maintainer of project 2 (through acme) and no member of group 4 (initech).
import { describe, expect, it } from 'vitest';
import { useSandbox } from './setup.js';

const c = useSandbox({ projects: 10 });

const DAY = 86_400_000;
const day = (offset: number) => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10);

describe('endpoints §11 project and group access tokens', () => {
  it('creates a project access token with 201: PAT entity plus access_level, a bot user, and the token', async () => {
    const r = await c.call('/projects/2/access_tokens', {
      as: 'user',
      method: 'POST',
      json: { name: 'bot', scopes: ['read_api'], access_level: 30, expires_at: day(60) },
    });
    expect(r.status).toBe(201);
    expect(r.json).toEqual({
      id: r.json.id,
      name: 'bot',
      revoked: false,
      created_at: r.json.created_at,
      description: '',
      scopes: ['read_api'],
      user_id: 13,
      last_used_at: null,
      active: true,
      expires_at: day(60),
      access_level: 30,
      token: r.json.token,
    });
    expect(r.json.token).toMatch(/^glpat-[A-Za-z0-9_-]{20}$/);
    // the bot user comes after the 12 seeded users
    const bot = await c.call('/users/13', { as: 'admin' });
    expect([bot.json.username.startsWith('project_2_bot_'), bot.json.bot]).toEqual([true, true]);
    const listed = await c.call('/projects/2/access_tokens', { as: 'user' });
    expect(listed.json.find((t: { id: number }) => t.id === r.json.id)).toEqual({ ...r.json, token: undefined });
  });

  it("defaults access_level to 40 and refuses a level above the creator's own", async () => {
    const r = await c.call('/projects/2/access_tokens', { as: 'user', method: 'POST', json: { name: 'd', scopes: ['api'] } });
    expect(r.json.access_level).toBe(40);
    const owner = await c.call('/projects/2/access_tokens', {
      as: 'user',
      method: 'POST',
      json: { name: 'o', scopes: ['api'], access_level: 50 },
    });
    expect([owner.status, owner.json]).toEqual([
      400,
      { message: "400 Bad request - Access level of the token can't be greater the access level of the user who created the token" },
    ]);
  });

  it('refuses an expiry more than a year ahead; accepts a past one as inactive', async () => {
    const far = await c.call('/projects/2/access_tokens', {
      as: 'admin',
      method: 'POST',
      json: { name: 'far', scopes: ['api'], expires_at: day(400) },
    });
    expect([far.status, far.json]).toEqual([400, { message: `400 Bad request - Expiration date must be before ${day(365)}` }]);
    const past = await c.call('/projects/2/access_tokens', {
      as: 'admin',
      method: 'POST',
      json: { name: 'past', scopes: ['api'], expires_at: day(-3) },
    });
    expect([past.status, past.json.active]).toEqual([201, false]);
  });

  it('answers a non-member of the group 401 on reads and 400 on create (group tokens need an owner)', async () => {
    const list = await c.call('/groups/4/access_tokens', { as: 'user' });
    expect([list.status, list.json]).toEqual([401, { message: '401 Unauthorized' }]);
    const create = await c.call('/groups/4/access_tokens', { as: 'user', method: 'POST', json: { name: 'g', scopes: ['api'] } });
    expect([create.status, create.json]).toEqual([
      400,
      { message: '400 Bad request - User does not have permission to create group access token' },
    ]);
  });

  it('rotates with 200 (old one revoked) and revokes with 204; an unknown id is 404 "<kind> Access Token Not Found"', async () => {
    const made = (await c.call('/groups/1/access_tokens', { as: 'admin', method: 'POST', json: { name: 'g', scopes: ['api'] } })).json;
    const rotated = await c.call(`/groups/1/access_tokens/${made.id}/rotate`, {
      as: 'admin',
      method: 'POST',
      json: { expires_at: day(9) },
    });
    expect([rotated.status, rotated.json.user_id, rotated.json.expires_at]).toEqual([200, made.user_id, day(9)]);
    expect((await c.call(`/groups/1/access_tokens/${made.id}`, { as: 'admin' })).json.revoked).toBe(true);
    expect((await c.call(`/groups/1/access_tokens/${rotated.json.id}`, { as: 'admin', method: 'DELETE' })).status).toBe(204);
    const none = await c.call('/projects/2/access_tokens/999999', { as: 'admin' });
    expect([none.status, none.json]).toEqual([404, { message: '404 project Access Token Not Found' }]);
  });
});

describe('endpoints §11 deploy tokens', () => {
  it('creates one with 201: id, name, username, expires_at, scopes, revoked, expired and the token', async () => {
    const r = await c.call('/projects/2/deploy_tokens', {
      as: 'user',
      method: 'POST',
      json: { name: 'pull', scopes: ['read_repository'], expires_at: day(30) },
    });
    expect(r.json).toEqual({
      id: r.json.id,
      name: 'pull',
      username: `gitlab+deploy-token-${r.json.id}`,
      expires_at: `${day(30)}T00:00:00.000Z`,
      scopes: ['read_repository'],
      revoked: false,
      expired: false,
      token: r.json.token,
    });
    expect(r.status).toBe(201);
    expect((await c.call(`/projects/2/deploy_tokens/${r.json.id}`, { as: 'user' })).json).toEqual({ ...r.json, token: undefined });
  });

  it('deletes with 204, after which the token is 404 Not found', async () => {
    const made = (await c.call('/groups/1/deploy_tokens', { as: 'admin', method: 'POST', json: { name: 'x', scopes: ['read_registry'] } }))
      .json;
    expect((await c.call(`/groups/1/deploy_tokens/${made.id}`, { as: 'admin', method: 'DELETE' })).status).toBe(204);
    const after = await c.call(`/groups/1/deploy_tokens/${made.id}`, { as: 'admin' });
    expect([after.status, after.json]).toEqual([404, { message: '404 Not found' }]);
  });

  it('lists every deploy token for an admin at /deploy_tokens (403 otherwise); active=true leaves out revoked and expired', async () => {
    const all = (await c.call('/deploy_tokens?per_page=100', { as: 'admin' })).json as Array<{
      id: number;
      revoked: boolean;
      expired: boolean;
    }>;
    const active = (await c.call('/deploy_tokens?per_page=100&active=true', { as: 'admin' })).json;
    expect(active.map((t: { id: number }) => t.id)).toEqual(all.filter((t) => !t.revoked && !t.expired).map((t) => t.id));
    const user = await c.call('/deploy_tokens', { as: 'user' });
    expect([user.status, user.json]).toEqual([403, { message: '403 Forbidden' }]);
    const group = await c.call('/groups/4/deploy_tokens', { as: 'user' });
    expect([group.status, group.json]).toEqual([403, { message: '403 Forbidden' }]);
  });

  it('checks the scopes against the deploy token scopes', async () => {
    const r = await c.call('/projects/2/deploy_tokens', { as: 'user', method: 'POST', json: { name: 'x', scopes: ['api'] } });
    expect([r.status, r.json]).toEqual([400, { error: 'scopes does not have a valid value' }]);
  });
});
