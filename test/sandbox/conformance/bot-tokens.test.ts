// Project and group access tokens are credentials (service-behaviour.md §4.1: "Personal, project and group
// access tokens. Sent as `PRIVATE-TOKEN`…"); their bot user is `<kind>_<id>_bot_<hex>`, a direct member at the
// token's access level (service-endpoints.md §11; app/services/resource_access_tokens/create_service.rb).
// Project 2 and group 3 (globex) are private.
import { describe, expect, it } from 'vitest';
import { useSandbox } from './setup.js';

const c = useSandbox({ projects: 10 });

async function projectToken(level: number): Promise<{ token: string; userId: number }> {
  const r = await c.call('/projects/2/access_tokens', {
    as: 'admin',
    method: 'POST',
    json: { name: 'ci-bot', scopes: ['api'], access_level: level },
  });
  expect(r.status).toBe(201);
  return { token: r.json.token, userId: r.json.user_id };
}

describe('behaviour §4.1 project and group access tokens authenticate as their bot user', () => {
  it('a project token reads its private project as a direct member of the token level', async () => {
    const { token, userId } = await projectToken(30);
    const me = await c.call('/user', { token });
    expect(me.status).toBe(200);
    expect(me.json.id).toBe(userId);
    expect(me.json.username).toMatch(/^project_2_bot_[0-9a-f]{32}$/);
    expect([me.json.name, me.json.bot]).toEqual(['ci-bot', true]);
    const p = await c.call('/projects/2', { token });
    expect([p.status, p.json.permissions]).toEqual([
      200,
      { project_access: { access_level: 30, notification_level: 3 }, group_access: null },
    ]);
    const member = await c.call(`/projects/2/members/${userId}`, { as: 'admin' });
    expect([member.status, member.json.access_level]).toEqual([200, 30]);
  });

  it('the bot may do what its level allows, and nothing more', async () => {
    const { token } = await projectToken(30);
    const branch = await c.call('/projects/2/repository/branches', { token, method: 'POST', json: { branch: 'bot-work', ref: 'main' } });
    expect(branch.status).toBe(201);
    const settings = await c.call('/projects/2', { token, method: 'PUT', json: { description: 'by bot' } });
    expect([settings.status, settings.json]).toEqual([403, { message: '403 Forbidden' }]);
    const other = await c.call('/projects/3/members', { token });
    expect(other.status).toBe(200);
    const foreign = await c.call('/groups/3', { token });
    expect([foreign.status, foreign.json]).toEqual([404, { message: '404 Group Not Found' }]);
  });

  it('a group token reaches the private group and its projects; a revoked one is refused', async () => {
    const r = await c.call('/groups/3/access_tokens', {
      as: 'admin',
      method: 'POST',
      json: { name: 'g', scopes: ['read_api'], access_level: 20 },
    });
    expect(r.status).toBe(201);
    const token = r.json.token as string;
    const g = await c.call('/groups/3', { token });
    expect([g.status, g.json.id]).toEqual([200, 3]);
    const me = await c.call('/user', { token });
    expect(me.json.username).toMatch(/^group_3_bot_[0-9a-f]{32}$/);
    const write = await c.call('/groups/3', { token, method: 'PUT', json: { description: 'x' } });
    expect([write.status, write.json.error]).toEqual([403, 'insufficient_scope']);
    const del = await c.call(`/groups/3/access_tokens/${r.json.id}`, { as: 'admin', method: 'DELETE' });
    expect(del.status).toBe(204);
    const after = await c.call('/user', { token });
    expect([after.status, after.json.error_description]).toEqual([401, 'Token was revoked. You have to re-authorize from the user.']);
  });

  it('a rotated token authenticates as the same bot; the old one no longer does', async () => {
    const { token, userId } = await projectToken(20);
    const list = await c.call('/projects/2/access_tokens', { as: 'admin' });
    const id = (list.json as Array<{ id: number; user_id: number }>).find((t) => t.user_id === userId)!.id;
    const rot = await c.call(`/projects/2/access_tokens/${id}/rotate`, { as: 'admin', method: 'POST' });
    expect(rot.status).toBe(200);
    const me = await c.call('/user', { token: rot.json.token });
    expect([me.status, me.json.id]).toEqual([200, userId]);
    const old = await c.call('/user', { token });
    expect(old.status).toBe(401);
  });
});
