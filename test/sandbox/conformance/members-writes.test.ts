// Member writes: service-endpoints.md §10 (POST …/members 201, PUT …/members/:user_id 200, DELETE 204;
// 409 Member already exists, 404 User Not Found, maintainer+ to write, owner to grant owner) and §0
// (`find_by!` 404 body, Grape validation bodies). The last-owner rule and the inherited-level validation
// are the sandbox's documented choices (README, "Members").
import { describe, expect, it } from 'vitest';
import { useSandbox } from './setup.js';

const c = useSandbox({ projects: 10 });
const as = (username: string) => ({ as: 'admin' as const, headers: { Sudo: username } });
const levelsOf = (json: Array<{ username: string; access_level: number }>) => json.map((m) => [m.username, m.access_level]);

describe('endpoints §10 POST …/members', () => {
  it('adds a member by username (201, the member with its level, expiry and who added it)', async () => {
    const r = await c.call('/groups/globex/members', {
      as: 'admin',
      method: 'POST',
      json: { username: 'jdoe', access_level: 30, expires_at: '2099-12-31' },
    });
    expect(r.status).toBe(201);
    expect([r.json.username, r.json.access_level, r.json.expires_at, r.json.created_by.username, r.json.membership_state]).toEqual([
      'jdoe',
      30,
      '2099-12-31',
      'root',
      'active',
    ]);
    const listed = await c.call('/groups/globex/members?query=jdoe', { as: 'admin' });
    expect(levelsOf(listed.json)).toEqual([['jdoe', 30]]);
  });

  it('adds a project member by user_id, and the new member may read the private project', async () => {
    const outsider = c.sb.state.user(3)!;
    expect((await c.call('/projects/2', as(outsider.username))).status).toBe(404);
    const r = await c.call('/projects/2/members', { as: 'admin', method: 'POST', json: { user_id: outsider.id, access_level: 20 } });
    expect([r.status, r.json.id, r.json.access_level]).toEqual([201, outsider.id, 20]);
    expect((await c.call('/projects/2', as(outsider.username))).status).toBe(200);
  });

  it('answers 409 Member already exists for a direct member', async () => {
    const r = await c.call('/groups/acme/members', { as: 'admin', method: 'POST', json: { username: 'jdoe', access_level: 30 } });
    expect([r.status, r.json]).toEqual([409, { message: 'Member already exists' }]);
  });

  it('answers 404 User Not Found for an unknown user', async () => {
    const r = await c.call('/groups/acme/members', { as: 'admin', method: 'POST', json: { username: 'nobody-here', access_level: 30 } });
    expect([r.status, r.json]).toEqual([404, { message: '404 User Not Found' }]);
  });

  it('validates access_level and the user parameters as Grape does', async () => {
    const missing = await c.call('/groups/acme/members', { as: 'admin', method: 'POST', json: { username: 'jdoe' } });
    expect([missing.status, missing.json]).toEqual([400, { error: 'access_level is missing' }]);
    const invalid = await c.call('/groups/acme/members', { as: 'admin', method: 'POST', json: { username: 'jdoe', access_level: 35 } });
    expect([invalid.status, invalid.json]).toEqual([400, { error: 'access_level does not have a valid value' }]);
    const nobody = await c.call('/groups/acme/members', { as: 'admin', method: 'POST', json: { access_level: 30 } });
    expect([nobody.status, nobody.json]).toEqual([
      400,
      { error: 'user_id, username are missing, at least one parameter must be provided' },
    ]);
    const both = await c.call('/groups/acme/members', {
      as: 'admin',
      method: 'POST',
      json: { user_id: 2, username: 'jdoe', access_level: 30 },
    });
    expect([both.status, both.json]).toEqual([400, { error: 'user_id, username are mutually exclusive' }]);
    const past = await c.call('/groups/acme/members', {
      as: 'admin',
      method: 'POST',
      json: { username: 'root', access_level: 30, expires_at: '2001-01-01' },
    });
    expect([past.status, past.json]).toEqual([400, { message: { expires_at: ['cannot be a date in the past'] } }]);
  });

  it('refuses a level below the one inherited from a parent group (400, the model validation)', async () => {
    const r = await c.call('/groups/acme%2Fplatform/members', {
      as: 'admin',
      method: 'POST',
      json: { username: 'jdoe', access_level: 30 },
    });
    expect([r.status, r.json]).toEqual([
      400,
      { message: { access_level: ['should be greater than or equal to Maintainer inherited membership from group Acme'] } },
    ]);
  });

  it('needs maintainer to add, owner to add an owner (403)', async () => {
    const developer = await c.call('/groups/acme/members', {
      ...as('olivia.garcia'),
      method: 'POST',
      json: { username: 'root', access_level: 10 },
    });
    expect([developer.status, developer.json]).toEqual([403, { message: '403 Forbidden' }]);
    const ownerByMaintainer = await c.call('/groups/acme/members', {
      as: 'user',
      method: 'POST',
      json: { username: 'root', access_level: 50 },
    });
    expect([ownerByMaintainer.status, ownerByMaintainer.json]).toEqual([403, { message: '403 Forbidden' }]);
    const byMaintainer = await c.call('/groups/acme/members', { as: 'user', method: 'POST', json: { username: 'root', access_level: 40 } });
    expect([byMaintainer.status, byMaintainer.json.access_level]).toEqual([201, 40]);
  });
});

describe('endpoints §10 GET …/members/:user_id and …/members/all/:user_id', () => {
  it('gives a direct member, an inherited one only under /all, and the find_by! 404 otherwise', async () => {
    const direct = await c.call('/groups/acme/members/2', { as: 'admin' });
    expect([direct.status, direct.json.access_level]).toEqual([200, 40]);
    const notDirect = await c.call('/groups/acme%2Fplatform/members/2', { as: 'admin' });
    expect([notDirect.status, notDirect.json]).toEqual([404, { message: '404 Not found' }]);
    const inherited = await c.call('/groups/acme%2Fplatform/members/all/2', { as: 'admin' });
    expect([inherited.status, inherited.json.access_level]).toEqual([200, 40]);
  });
});

describe('endpoints §10 PUT and DELETE …/members/:user_id', () => {
  it('changes a level (200) and passes a raised subgroup level down to /members/all', async () => {
    const added = await c.call('/groups/acme%2Fplatform/members', {
      as: 'admin',
      method: 'POST',
      json: { username: 'jdoe', access_level: 50 },
    });
    expect(added.status).toBe(201);
    const all = await c.call('/groups/acme%2Fplatform/members/all?query=jdoe', { as: 'admin' });
    expect(levelsOf(all.json)).toEqual([['jdoe', 50]]);
    const sybil = c.sb.state.user('sybil.lopez')!;
    const changed = await c.call(`/groups/acme/members/${sybil.id}`, { as: 'admin', method: 'PUT', json: { access_level: 30 } });
    expect([changed.status, changed.json.access_level, changed.json.expires_at]).toEqual([200, 30, null]);
  });

  it('answers 404 Not found for a user who is not a direct member', async () => {
    const put = await c.call('/groups/acme/members/4', { as: 'admin', method: 'PUT', json: { access_level: 30 } });
    expect([put.status, put.json]).toEqual([404, { message: '404 Not found' }]);
    const del = await c.call('/groups/acme/members/4', { as: 'admin', method: 'DELETE' });
    expect([del.status, del.json]).toEqual([404, { message: '404 Not found' }]);
  });

  it('needs maintainer to change or remove someone (403 for a developer)', async () => {
    const sybil = c.sb.state.user('sybil.lopez')!;
    const put = await c.call(`/groups/acme/members/${sybil.id}`, { ...as('olivia.garcia'), method: 'PUT', json: { access_level: 10 } });
    expect([put.status, put.json]).toEqual([403, { message: '403 Forbidden' }]);
    const del = await c.call(`/groups/acme/members/${sybil.id}`, { ...as('olivia.garcia'), method: 'DELETE' });
    expect([del.status, del.json]).toEqual([403, { message: '403 Forbidden' }]);
  });

  it('keeps the last owner of a group: neither demoted nor removed (403), until another owner exists', async () => {
    const initech = c.sb.state.group('initech')!;
    expect(
      (await c.call('/groups/initech/members', { as: 'admin', method: 'POST', json: { username: 'jdoe', access_level: 50 } })).status,
    ).toBe(201);
    const demote = await c.call('/groups/initech/members/2', { as: 'admin', method: 'PUT', json: { access_level: 40 } });
    expect([demote.status, demote.json]).toEqual([403, { message: '403 Forbidden' }]);
    const remove = await c.call('/groups/initech/members/2', { as: 'admin', method: 'DELETE' });
    expect([remove.status, remove.json]).toEqual([403, { message: '403 Forbidden' }]);
    expect(
      (await c.call(`/groups/${initech.id}/members`, { as: 'admin', method: 'POST', json: { username: 'root', access_level: 50 } })).status,
    ).toBe(201);
    const removed = await c.call('/groups/initech/members/2', { as: 'admin', method: 'DELETE' });
    expect([removed.status, removed.text]).toEqual([204, '']);
    expect((await c.call('/groups/initech/members/2', { as: 'admin' })).status).toBe(404);
  });

  it('lets a member leave without any role, and removes a seeded member for good', async () => {
    const sybil = c.sb.state.user('sybil.lopez')!;
    const left = await c.call(`/groups/acme/members/${sybil.id}`, { ...as('sybil.lopez'), method: 'DELETE' });
    expect(left.status).toBe(204);
    const listed = await c.call('/groups/acme/members', { as: 'admin' });
    expect(levelsOf(listed.json)).toEqual([
      ['root', 40],
      ['jdoe', 40],
      ['olivia.garcia', 30],
    ]);
  });
});
