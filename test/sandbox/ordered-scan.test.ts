// Lists over many projects read only as far as the page needs (resources/ordered-scan.ts): the
// records they give must be exactly the first records of the whole list, in order.
import { describe, expect, it } from 'vitest';
import { OrderedScan } from '../../src/sandbox/resources/ordered-scan.js';
import type { ProjectRec } from '../../src/sandbox/store/records.js';

interface Rec {
  id: number;
  at: number;
  pid: number;
}

const HOUR = 3_600_000;

/** Projects an hour apart whose records fall 1–8 hours after them; a few "changed" ones hold records at any time. */
function world(projects: number, changed: Set<number>) {
  const recs = new Map<number, Rec[]>();
  let id = 0;
  let h = 7;
  const next = () => (h = (h * 1_103_515_245 + 12_345) % 2_147_483_648);
  const list: ProjectRec[] = [];
  for (let pid = 1; pid <= projects; pid++) {
    const createdAt = pid * HOUR + (next() % 1000);
    list.push({ id: pid, createdAt } as ProjectRec);
    const own: Rec[] = [];
    for (let k = 1; k <= 1 + (next() % 6); k++) {
      const at = changed.has(pid) ? next() * 1000 : createdAt + k * HOUR + (next() % 1000);
      own.push({ id: ++id, at, pid });
    }
    recs.set(pid, own);
  }
  return { list, recs };
}

function scan(desc: boolean, projects = 3000, changed = new Set([5, 1700, 2999])) {
  const { list, recs } = world(projects, changed);
  const reads: number[] = [];
  const s = new OrderedScan<Rec>({
    projects: list,
    records: (p) => {
      reads.push(p.id);
      return recs.get(p.id)!.filter((r) => r.id % 3 !== 0);
    },
    compare: (a, b) => a.at - b.at || a.id - b.id,
    desc,
    key: (r) => r.at,
    window: (p) => (changed.has(p.id) ? null : [p.createdAt + HOUR, p.createdAt + 6 * HOUR + 999]),
  });
  const all = [...recs.values()].flat().filter((r) => r.id % 3 !== 0);
  all.sort((a, b) => (desc ? b.at - a.at || b.id - a.id : a.at - b.at || a.id - b.id));
  return { s, all, reads };
}

describe('OrderedScan', () => {
  for (const desc of [true, false]) {
    it(`gives the first records of the whole list in order (${desc ? 'desc' : 'asc'}), reading few projects`, () => {
      const { s, all, reads } = scan(desc);
      const first = s.take(100);
      expect(first.slice(0, 100)).toEqual(all.slice(0, 100));
      expect(reads.length).toBeLessThan(1000);
      const more = s.take(5000);
      expect(more.slice(0, 5000)).toEqual(all.slice(0, 5000));
      expect(s.take(all.length + 1)).toEqual(all);
      expect(new Set(reads).size).toBe(reads.length);
    });
  }

  it('reads every project once when asked for more records than there are', () => {
    const { s, all, reads } = scan(true, 50);
    expect(s.take(1_000_000)).toEqual(all);
    expect(reads.sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });
});
