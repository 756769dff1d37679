// Collections of records that belong to a parent (issues of a project,
// pipelines of a project, …): the seeded records are derived on demand from
// (seed, parent, key) and never stored; records created, updated or deleted
// through the API are kept in overlays on top of them.
import type { ProjectRec } from './records.js';
import type { World } from './world.js';

interface ChildSource<K, T> {
  /** Keys of the seeded records of a parent, ascending. */
  seededKeys(parent: number): K[];
  /** The seeded record, or null when `key` is not one of the parent's seeded keys. */
  derive(parent: number, key: K): T | null;
}

export class ChildCollection<K extends string | number, T> {
  private readonly created = new Map<number, Map<K, T>>();
  private readonly updated = new Map<number, Map<K, T>>();
  private readonly deleted = new Map<number, Set<K>>();

  constructor(private readonly source: ChildSource<K, T>) {}

  get(parent: number, key: K): T | null {
    if (this.deleted.get(parent)?.has(key)) return null;
    return this.updated.get(parent)?.get(key) ?? this.created.get(parent)?.get(key) ?? this.source.derive(parent, key);
  }

  /** Every live record of a parent: seeded ones in key order, then created ones in creation order. */
  list(parent: number): T[] {
    const out: T[] = [];
    const gone = this.deleted.get(parent);
    const changed = this.updated.get(parent);
    for (const key of this.source.seededKeys(parent)) {
      if (gone?.has(key)) continue;
      const rec = changed?.get(key) ?? this.source.derive(parent, key);
      if (rec) out.push(rec);
    }
    for (const [key, rec] of this.created.get(parent) ?? []) if (!gone?.has(key)) out.push(changed?.get(key) ?? rec);
    return out;
  }

  count(parent: number): number {
    return this.source.seededKeys(parent).length + (this.created.get(parent)?.size ?? 0) - (this.deleted.get(parent)?.size ?? 0);
  }

  insert(parent: number, key: K, rec: T): void {
    this.deleted.get(parent)?.delete(key);
    if (this.source.derive(parent, key) !== null) overlay(this.updated, parent).set(key, rec);
    else overlay(this.created, parent).set(key, rec);
  }

  /** Replace a record (seeded or created) by its new version. */
  update(parent: number, key: K, rec: T): void {
    const own = this.created.get(parent);
    if (own?.has(key)) own.set(key, rec);
    else overlay(this.updated, parent).set(key, rec);
  }

  remove(parent: number, key: K): boolean {
    if (this.get(parent, key) === null) return false;
    this.updated.get(parent)?.delete(key);
    if (this.created.get(parent)?.delete(key)) return true;
    let set = this.deleted.get(parent);
    if (!set) {
      set = new Set();
      this.deleted.set(parent, set);
    }
    set.add(key);
    return true;
  }
}

function overlay<K, T>(maps: Map<number, Map<K, T>>, parent: number): Map<K, T> {
  let m = maps.get(parent);
  if (!m) {
    m = new Map();
    maps.set(parent, m);
  }
  return m;
}

/** Per-world state of one resource, created on first use (resource files keep their own store). */
export function storeFor<S>(make: (world: World) => S): (world: World) => S {
  const stores = new WeakMap<World, S>();
  return (world) => {
    let s = stores.get(world);
    if (s === undefined) {
      s = make(world);
      stores.set(world, s);
    }
    return s;
  };
}

export type Compare<T> = (a: T, b: T) => number;

/** Sort by one of the comparators of `orders` (ascending, ties by the next keys), reversed for `desc`. */
export function ordered<T>(list: T[], orders: Record<string, Compare<T>>, orderBy: string, sort: 'asc' | 'desc'): T[] {
  const cmp = orders[orderBy]!;
  list.sort(cmp);
  if (sort === 'desc') list.reverse();
  return list;
}

export function cmp(a: string | number, b: string | number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Records of each project, seeded on the project's first read from the seed and the sandbox's clock
 * when the store was first used (so ages count back from one moment, whichever project is read first).
 */
export function perProjectStore<T>(seed: (world: World, p: ProjectRec, seededAt: number) => T[]): (world: World, p: ProjectRec) => T[] {
  const store = storeFor((w) => ({ byProject: new Map<number, T[]>(), seededAt: w.now() }));
  return (world, p) => {
    const s = store(world);
    let list = s.byProject.get(p.id);
    if (!list) {
      list = seed(world, p, s.seededAt);
      s.byProject.set(p.id, list);
    }
    return list;
  };
}
