// Issues and merge requests of the whole instance in a sandbox with more than the 10,000 records
// the service counts (service-endpoints.md §1, §2 lists; service-behaviour.md pagination):
// newest first, no X-Total past 10,000, pages that follow on, a write seen at once.
import { describe, expect, it } from 'vitest';
import { useSandbox } from './setup.js';

const c = useSandbox({ projects: 4000 });
const asAdmin = { as: 'admin' as const };

type Listed = { id: number; created_at: string; updated_at: string };
const ordered = (list: Listed[], key: 'created_at' | 'updated_at', desc: boolean) =>
  list.every((r, i) => i === 0 || (desc ? list[i - 1]![key] >= r[key] : list[i - 1]![key] <= r[key]));

for (const [name, path] of [
  ['issues', '/issues?scope=all'],
  ['merge requests', '/merge_requests?scope=all'],
] as const) {
  describe(`§${name === 'issues' ? 1 : 2} GET ${path.split('?')[0]} over 4,000 projects`, () => {
    it('answers newest first with no X-Total (more than 10,000), and page 2 follows page 1', async () => {
      const one = await c.call(`${path}&per_page=100`, asAdmin);
      const two = await c.call(`${path}&per_page=100&page=2`, asAdmin);
      expect([one.status, one.headers['x-total'], one.headers['x-next-page']]).toEqual([200, undefined, '2']);
      const both = [...(one.json as Listed[]), ...(two.json as Listed[])];
      expect(both).toHaveLength(200);
      expect(new Set(both.map((r) => r.id)).size).toBe(200);
      expect(ordered(both, 'created_at', true)).toBe(true);
    });

    it('orders by updated_at, and ascending, the same way', async () => {
      const updated = await c.call(`${path}&order_by=updated_at&per_page=100`, asAdmin);
      expect(ordered(updated.json as Listed[], 'updated_at', true)).toBe(true);
      const asc = await c.call(`${path}&sort=asc&per_page=100`, asAdmin);
      expect(ordered(asc.json as Listed[], 'created_at', false)).toBe(true);
      const oldest = await c.call(`/projects/1/${name === 'issues' ? 'issues' : 'merge_requests'}?sort=asc&per_page=1`, asAdmin);
      expect((asc.json as Listed[])[0]!.id).toBe((oldest.json as Listed[])[0]!.id);
    });
  });
}

describe('a write is seen by the next wide listing', () => {
  it('a new issue in the oldest project heads the instance list', async () => {
    const created = await c.call('/projects/1/issues', { ...asAdmin, method: 'POST', json: { title: 'Newest of all' } });
    expect(created.status).toBe(201);
    const listed = await c.call('/issues?scope=all&per_page=5', asAdmin);
    expect((listed.json as Listed[])[0]!.id).toBe(created.json.id);
  });

  it('a new merge request in the oldest project heads the instance list', async () => {
    const created = await c.call('/projects/1/merge_requests', {
      as: 'user',
      method: 'POST',
      json: { title: 'Newest of all', source_branch: 'fix/issue-1', target_branch: 'develop' },
    });
    expect(created.status).toBe(201);
    const listed = await c.call('/merge_requests?scope=all&per_page=5', asAdmin);
    expect((listed.json as Listed[])[0]!.id).toBe(created.json.id);
  });
});
