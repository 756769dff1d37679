// Groups: service-endpoints.md §9.
import { describe, expect, it } from 'vitest';
import { ids, useSandbox } from './setup.js';

const c = useSandbox();

describe('§9 groups', () => {
  it('orders by name, ascending, by default', async () => {
    const r = await c.call('/groups?per_page=100', { as: 'admin' });
    const names = r.json.map((g: { name: string }) => g.name);
    expect(names).toEqual([...names].sort());
  });

  it('order_by=path orders by full path', async () => {
    const r = await c.call('/groups?per_page=100&order_by=path', { as: 'admin' });
    const paths = r.json.map((g: { full_path: string }) => g.full_path);
    expect(paths).toEqual([...paths].sort());
    expect(paths.indexOf('acme')).toBeLessThan(paths.indexOf('acme/platform'));
  });

  it('order_by=id&sort=desc orders by id, newest first', async () => {
    const r = await c.call('/groups?per_page=100&order_by=id&sort=desc', { as: 'admin' });
    expect(ids(r)).toEqual([6, 5, 4, 3, 2, 1]);
  });

  it('refuses an unknown order_by', async () => {
    const r = await c.call('/groups?order_by=created_at', { as: 'admin' });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ error: 'order_by does not have a valid value' });
  });

  it('answers an unknown group {"message":"404 Group Not Found"}', async () => {
    const r = await c.call('/groups/999', { as: 'admin' });
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ message: '404 Group Not Found' });
  });
});

describe('§9 GET /groups/:id/projects: with_shared (default true)', () => {
  type Listed = { id: number; namespace: { id: number }; shared_with_groups: Array<{ group_id: number }> };
  const list = async (query: string): Promise<Listed[]> => (await c.call(`/groups/3/projects?per_page=100${query}`, { as: 'admin' })).json;

  it('lists the projects shared with the group among its own (newest first) by default, only its own with with_shared=false', async () => {
    const own = await list('&with_shared=false');
    expect(own.map((p) => p.namespace.id)).toEqual(own.map(() => 3));
    const all = await list('');
    const shared = all.filter((p) => p.namespace.id !== 3);
    expect(shared.map((p) => p.id)).toEqual([13, 1]);
    expect(shared.map((p) => p.shared_with_groups.map((s) => s.group_id))).toEqual([[3], [3]]);
    expect(all.map((p) => p.id)).toEqual([...own.map((p) => p.id), 13, 1].sort((a, b) => b - a));
  });
});
