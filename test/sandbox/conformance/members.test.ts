// Members: service-endpoints.md §10 (direct members, /members/all with inherited levels, the member shape).
import { describe, expect, it } from 'vitest';
import { useSandbox } from './setup.js';

const c = useSandbox({ projects: 10 });

describe('endpoints §10 GET …/members and …/members/all', () => {
  it('gives the member shape: UserBasic plus access_level, created_at, created_by, expires_at, membership_state', async () => {
    const r = await c.call('/groups/1/members?query=jdoe', { as: 'admin' });
    const jdoe = c.sb.state.user('jdoe')!;
    expect([r.status, r.json]).toEqual([
      200,
      [
        {
          id: jdoe.id,
          username: 'jdoe',
          name: jdoe.name,
          state: 'active',
          locked: false,
          avatar_url: null,
          web_url: `${c.sb.url}/jdoe`,
          access_level: 40,
          created_at: new Date(jdoe.createdAt).toISOString(),
          created_by: {
            id: 1,
            username: 'root',
            name: 'Administrator',
            state: 'active',
            locked: false,
            avatar_url: null,
            web_url: `${c.sb.url}/root`,
          },
          expires_at: null,
          membership_state: 'active',
        },
      ],
    ]);
  });

  it('lists no direct members of a subgroup whose members come from its parent', async () => {
    const r = await c.call('/groups/2/members', { as: 'admin' });
    expect([r.status, r.json]).toEqual([200, []]);
  });

  it('includes the inherited members with /members/all', async () => {
    const direct = (await c.call('/groups/1/members', { as: 'admin' })).json;
    const all = (await c.call('/groups/2/members/all', { as: 'admin' })).json;
    expect(all).toEqual(direct);
  });

  it("gives a project's direct members, and with /members/all its group's too (the higher level kept)", async () => {
    const direct = (await c.call('/projects/2/members', { as: 'admin' })).json.map((m: { id: number; access_level: number }) => [
      m.id,
      m.access_level,
    ]);
    const creator = c.sb.state.project(2)!.creatorId;
    expect(direct).toEqual([[creator, 40]]);
    const all = (await c.call('/projects/2/members/all', { as: 'admin' })).json.map((m: { id: number; access_level: number }) => [
      m.id,
      m.access_level,
    ]);
    const groupLevels = (await c.call('/groups/1/members', { as: 'admin' })).json.map((m: { id: number; access_level: number }) => [
      m.id,
      m.access_level,
    ]);
    const merged = new Map<number, number>(groupLevels);
    merged.set(creator, Math.max(40, merged.get(creator) ?? 0));
    expect(all).toEqual([...merged.entries()].sort((a, b) => a[0] - b[0]));
  });
});

describe('endpoints §10 and §11: a user created through the API', () => {
  it('is a member of no group until added (404 on every seeded group, none in /members/all)', async () => {
    const created: number[] = [];
    for (const n of [1, 2, 3, 4]) {
      const r = await c.call('/users', {
        as: 'admin',
        method: 'POST',
        json: { email: `new${n}@example.com`, username: `new${n}`, name: `New ${n}`, force_random_password: true },
      });
      created.push(r.json.id);
    }
    const groupIds = ((await c.call('/groups?per_page=100', { as: 'admin' })).json as Array<{ id: number }>).map((g) => g.id);
    expect(groupIds.length).toBe(6);
    const found: string[] = [];
    for (const g of groupIds) {
      const all = await c.call(`/groups/${g}/members/all?per_page=100`, { as: 'admin' });
      for (const m of all.json as Array<{ id: number }>) if (created.includes(m.id)) found.push(`${g}:${m.id}`);
      for (const id of created) {
        const direct = await c.call(`/groups/${g}/members/${id}`, { as: 'admin' });
        if (direct.status !== 404) found.push(`${g}:${id}:${direct.status}`);
      }
    }
    expect(found).toEqual([]);
  });
});

describe('endpoints §10 GET /projects/:id/members/all: invited groups', () => {
  const levels = async (path: string): Promise<Array<[number, number]>> =>
    ((await c.call(path, { as: 'admin' })).json as Array<{ id: number; access_level: number }>).map((m) => [m.id, m.access_level]);

  it("includes the members of a group the project is shared with, at most at the share's level, until unshared", async () => {
    const before = await levels('/projects/2/members/all');
    const direct = await levels('/projects/2/members');
    const invited = await levels('/groups/3/members/all');
    expect(invited.length).toBe(3);
    const shared = await c.call('/projects/2/share', { as: 'admin', method: 'POST', json: { group_id: 3, group_access: 20 } });
    expect(shared.status).toBe(201);
    const expected = new Map<number, number>(before);
    for (const [id, level] of invited) expected.set(id, Math.max(expected.get(id) ?? 0, Math.min(level, 20)));
    expect(await levels('/projects/2/members/all')).toEqual([...expected.entries()].sort((a, b) => a[0] - b[0]));
    expect(await levels('/projects/2/members')).toEqual(direct);
    const one = await c.call(`/projects/2/members/all/${invited[0]![0]}`, { as: 'admin' });
    expect([one.status, one.json.access_level]).toEqual([200, expected.get(invited[0]![0])]);
    expect((await c.call('/projects/2/share/3', { as: 'admin', method: 'DELETE' })).status).toBe(204);
    expect(await levels('/projects/2/members/all')).toEqual(before);
  });
});

describe('GET /projects/:id/users (lib/api/projects.rb)', () => {
  it('lists the users of the project team, inherited members included, as UserBasic by id; search and skip_users narrow', async () => {
    const all = await c.call('/projects/2/members/all?per_page=100', { as: 'admin' });
    const expected = all.json.map((m: { id: number }) => m.id).sort((a: number, b: number) => a - b);
    const r = await c.call('/projects/2/users?per_page=100', { as: 'user' });
    expect([r.status, r.json.map((u: { id: number }) => u.id), r.headers['x-total']]).toEqual([200, expected, String(expected.length)]);
    expect(Object.keys(r.json[0])).toEqual(['id', 'username', 'name', 'state', 'locked', 'avatar_url', 'web_url']);
    const found = await c.call('/projects/2/users?search=JDOE', { as: 'user' });
    expect(found.json.map((u: { username: string }) => u.username)).toEqual(['jdoe']);
    const skipped = await c.call(`/projects/2/users?per_page=100&skip_users[]=${expected[0]}`, { as: 'user' });
    expect(skipped.json.map((u: { id: number }) => u.id)).toEqual(expected.slice(1));
    const hidden = await c.call('/projects/2/users');
    expect([hidden.status, hidden.json]).toEqual([404, { message: '404 Project Not Found' }]);
  });
});
