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
