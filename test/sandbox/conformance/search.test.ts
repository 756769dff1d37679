// Basic search pages its results as every list does (lib/api/search.rb `present paginate(results)`): the
// totals and links count only what the caller may see, and each record is the entity a single read answers.
import { describe, expect, it } from 'vitest';
import type { Res } from '../helpers.js';
import { useSandbox } from './setup.js';
import { TestClock } from '../../support/clock.js';

// Pipelines stand still, so a merge request's status reads the same in the search and its single read.
const clock = new TestClock();
const c = useSandbox({ projects: 5, clock: clock.now });

const paging = (r: Res) =>
  Object.fromEntries(['x-total', 'x-total-pages', 'x-page', 'x-per-page', 'x-next-page', 'x-prev-page'].map((h) => [h, r.headers[h]]));

/** The single reads of what was found; an issue's single read also has `subscribed`, which lists and search leave out. */
async function singleReads(kind: 'issues' | 'merge_requests', found: Res): Promise<unknown[]> {
  const records = found.json as Array<{ project_id: number; iid: number }>;
  return Promise.all(
    records.map(async (r) => {
      const single = (await c.call(`/projects/${r.project_id}/${kind}/${r.iid}`, { as: 'user' })).json;
      if (kind === 'issues') delete single.subscribed;
      return single;
    }),
  );
}

describe('search paging', () => {
  it('pages issues everywhere, leaving out confidential ones the caller may not see', async () => {
    // jdoe maintains project 1 and has no role in the public project 4.
    const made: Array<[number, number]> = [];
    for (const [project, confidential] of [
      [1, false],
      [4, true],
      [1, true],
      [4, false],
      [1, false],
    ] as const) {
      const r = await c.call(`/projects/${project}/issues`, {
        as: 'admin',
        method: 'POST',
        json: { title: `quokka ${made.length}`, confidential },
      });
      made.push([project, r.json.iid as number]);
    }
    const first = await c.call('/search?scope=issues&search=Quokka&per_page=2', { as: 'user' });
    expect(paging(first)).toEqual({
      'x-total': '4',
      'x-total-pages': '2',
      'x-page': '1',
      'x-per-page': '2',
      'x-next-page': '2',
      'x-prev-page': '',
    });
    const second = await c.call('/search?scope=issues&search=Quokka&per_page=2&page=2', { as: 'user' });
    expect(paging(second)).toEqual({
      'x-total': '4',
      'x-total-pages': '2',
      'x-page': '2',
      'x-per-page': '2',
      'x-next-page': '',
      'x-prev-page': '1',
    });
    const titles = (r: Res) => (r.json as Array<{ title: string }>).map((i) => i.title);
    expect([...titles(first), ...titles(second)]).toEqual(['quokka 0', 'quokka 2', 'quokka 4', 'quokka 3']);
    expect(first.json).toEqual(await singleReads('issues', first));
    expect(second.json).toEqual(await singleReads('issues', second));
    const admin = await c.call('/search?scope=issues&search=quokka&per_page=2&page=3', { as: 'admin' });
    expect([admin.headers['x-total'], titles(admin)]).toEqual(['5', ['quokka 3']]);
  });

  it('pages the merge requests of a group and its subgroups', async () => {
    const last = await c.call('/groups/1/search?scope=merge_requests&search=changes%20from%20feature&per_page=3&page=3', { as: 'user' });
    expect(paging(last)).toEqual({
      'x-total': '7',
      'x-total-pages': '3',
      'x-page': '3',
      'x-per-page': '3',
      'x-next-page': '',
      'x-prev-page': '2',
    });
    expect((last.json as Array<{ project_id: number; iid: number }>).map((m) => [m.project_id, m.iid])).toEqual([[3, 3]]);
    expect(last.json).toEqual(await singleReads('merge_requests', last));
    const middle = await c.call('/groups/1/search?scope=merge_requests&search=changes%20from%20feature&per_page=3&page=2', { as: 'user' });
    expect((middle.json as Array<{ project_id: number; iid: number }>).map((m) => [m.project_id, m.iid])).toEqual([
      [2, 2],
      [2, 3],
      [3, 2],
    ]);
  });
});
