// Project orderings for `GET /projects?order_by=…` without a scan per request:
// ids sorted ascending by (value, id), kept per scope (every project, one
// storage, one viewer) and updated in place as projects are added or move.
import type { ProjectRec, UserRec } from './records.js';
import type { World } from './world.js';

export const PROJECT_ORDER_KEYS = ['id', 'name', 'path', 'created_at', 'updated_at', 'last_activity_at', 'star_count'] as const;
export type ProjectOrderKey = (typeof PROJECT_ORDER_KEYS)[number];

type SortedKey = Exclude<ProjectOrderKey, 'id'>;
type SortValue = (p: ProjectRec) => string | number;

// Project records carry no separate update time, so `updated_at` orders by the
// last activity, which is what changes when a project is touched.
const SORT_VALUE: Record<SortedKey, SortValue> = {
  name: (p) => p.name.toLowerCase(),
  path: (p) => p.path.toLowerCase(),
  created_at: (p) => p.createdAt,
  updated_at: (p) => p.lastActivityAt,
  last_activity_at: (p) => p.lastActivityAt,
  star_count: (p) => p.starCount,
};

function compare(x: string | number, xId: number, y: string | number, yId: number): number {
  return x < y ? -1 : x > y ? 1 : xId - yId;
}

/** Where `p` belongs in `ids` (sorted by `value`, then id), by binary search. */
function position(ids: readonly number[], p: ProjectRec, value: SortValue, world: World): number {
  const v = value(p);
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const id = ids[mid]!;
    if (compare(value(world.projects.get(id)!), id, v, p.id) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class ProjectOrders {
  private readonly everyProject = new Map<SortedKey, number[]>();
  /** `<key>\n<storage>` → the ids on that storage */
  private readonly perStorage = new Map<string, { key: SortedKey; storage: string; ids: number[] }>();
  /** `<key>\n<user id, 0 for anonymous>` → the ids the viewer may see; dropped with the world's visibility lists */
  private readonly perViewer = new Map<string, number[]>();
  /** created_at follows id order while no project is created earlier than the one before it */
  private createdInIdOrder = true;
  private lastCreatedAt = -Infinity;

  constructor(private readonly world: World) {}

  /**
   * Ids sorted ascending by `key` (then id) among the projects on `storage`
   * when given, else among those `viewer` may see.
   */
  sorted(key: ProjectOrderKey, viewer: UserRec | null, storage?: string): readonly number[] {
    const w = this.world;
    if (key === 'id' || (key === 'created_at' && this.createdInIdOrder)) {
      return storage !== undefined ? (w.storageIdx.get(storage) ?? []) : w.visibleIds(viewer);
    }
    if (storage !== undefined) {
      const cacheKey = `${key}\n${storage}`;
      let entry = this.perStorage.get(cacheKey);
      if (!entry) {
        entry = { key, storage, ids: this.all(key).filter((id) => w.projects.get(id)!.storage === storage) };
        this.perStorage.set(cacheKey, entry);
      }
      return entry.ids;
    }
    if (viewer?.isAdmin) return this.all(key);
    const cacheKey = `${key}\n${viewer?.id ?? 0}`;
    let ids = this.perViewer.get(cacheKey);
    if (!ids) {
      const visible = new Uint8Array(w.projects.nextId());
      for (const id of w.visibleIds(viewer)) visible[id] = 1;
      ids = this.all(key).filter((id) => visible[id] === 1);
      this.perViewer.set(cacheKey, ids);
    }
    return ids;
  }

  private all(key: SortedKey): number[] {
    let ids = this.everyProject.get(key);
    if (!ids) {
      const w = this.world;
      const value = SORT_VALUE[key];
      const keyed = w.allIds.map((id) => ({ id, v: value(w.projects.get(id)!) }));
      keyed.sort((a, b) => compare(a.v, a.id, b.v, b.id));
      ids = keyed.map((k) => k.id);
      this.everyProject.set(key, ids);
    }
    return ids;
  }

  /**
   * Build the orderings of every project, then those of `viewers`, one per
   * event-loop turn, so that after start-up no request of theirs pays for a
   * sort or a scan. Returns a canceller.
   */
  warm(viewers: UserRec[]): () => void {
    const keys = Object.keys(SORT_VALUE) as SortedKey[];
    const tasks: Array<() => void> = keys.map((key) => () => this.all(key));
    for (const v of viewers) for (const key of keys) tasks.push(() => this.sorted(key, v));
    let timer: NodeJS.Immediate | null = null;
    const next = () => {
      const task = tasks.shift();
      if (task === undefined) return;
      task();
      timer = setImmediate(next);
    };
    timer = setImmediate(next);
    return () => {
      if (timer) clearImmediate(timer);
      tasks.length = 0;
    };
  }

  /** A project was added: place it in every ordering built so far. */
  added(p: ProjectRec): void {
    if (p.createdAt < this.lastCreatedAt) this.createdInIdOrder = false;
    this.lastCreatedAt = Math.max(this.lastCreatedAt, p.createdAt);
    for (const [key, ids] of this.everyProject) this.insert(ids, p, key);
    for (const { key, storage, ids } of this.perStorage.values()) if (storage === p.storage) this.insert(ids, p, key);
  }

  /** A project is about to be removed, or to change a sort value (then `added` places it again). */
  removed(p: ProjectRec): void {
    for (const [key, ids] of this.everyProject) this.remove(ids, p, key);
    for (const { key, storage, ids } of this.perStorage.values()) if (storage === p.storage) this.remove(ids, p, key);
  }

  /** What viewers may see changed (the world dropped its visibility lists). */
  viewersChanged(): void {
    this.perViewer.clear();
  }

  /** A project moved to another storage (its `storage` is already the new one). */
  moved(p: ProjectRec, from: string): void {
    for (const { key, storage, ids } of this.perStorage.values()) {
      if (storage === from) this.remove(ids, p, key);
      else if (storage === p.storage) this.insert(ids, p, key);
    }
  }

  private insert(ids: number[], p: ProjectRec, key: SortedKey): void {
    const i = position(ids, p, SORT_VALUE[key], this.world);
    if (ids[i] !== p.id) ids.splice(i, 0, p.id);
  }

  private remove(ids: number[], p: ProjectRec, key: SortedKey): void {
    const i = position(ids, p, SORT_VALUE[key], this.world);
    if (ids[i] === p.id) ids.splice(i, 1);
  }
}
