// Users: service-endpoints.md §11 and service-behaviour.md §6 (User entities).
import { describe, expect, it } from 'vitest';
import { ids, useSandbox } from './setup.js';

const c = useSandbox();
const BASIC_KEYS = ['id', 'username', 'name', 'state', 'locked', 'avatar_url', 'web_url'];

describe('§11 users', () => {
  it('answers anonymous GET /users with 403', async () => {
    const r = await c.call('/users');
    expect(r.status).toBe(403);
    expect(r.json).toEqual({ message: '403 Forbidden - Not authorized to access /api/v4/users' });
  });

  it('lets anonymous callers look a user up by username', async () => {
    const r = await c.call('/users?username=jdoe');
    expect(r.status).toBe(200);
    expect(r.json).toEqual([
      { id: 2, username: 'jdoe', name: 'Jane Doe', state: 'active', locked: false, avatar_url: null, web_url: `${c.sb.url}/jdoe` },
    ]);
  });

  it('gives non-admins listing users the basic user', async () => {
    const r = await c.call('/users?per_page=3', { as: 'user' });
    expect(r.json.map((u: object) => Object.keys(u))).toEqual([BASIC_KEYS, BASIC_KEYS, BASIC_KEYS]);
  });

  it('gives admins the full user with the admin fields', async () => {
    const r = await c.call('/users?per_page=1', { as: 'admin' });
    expect(r.json[0]).toMatchObject({ is_admin: false, two_factor_enabled: false, external: false });
    expect(typeof r.json[0].email).toBe('string');
  });

  it('lists by id, newest first, by default', async () => {
    const r = await c.call('/users?per_page=100', { as: 'admin' });
    const list = ids(r);
    expect(list).toEqual([...list].sort((a, b) => b - a));
    expect(list.length).toBe(12);
  });

  it('answers /users/jdoe with {"error":"id is invalid"}', async () => {
    const r = await c.call('/users/jdoe', { as: 'user' });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ error: 'id is invalid' });
  });

  it('answers an unknown user {"message":"404 User Not Found"}', async () => {
    const r = await c.call('/users/999', { as: 'user' });
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ message: '404 User Not Found' });
  });
});
