// The store: seeded users, groups, projects and snippets with the indexes
// that serve any page of a 100,000-project instance in about a millisecond.
// Per-project records (issues, pipelines, releases, …) live in the store of
// their resource file (see collection.ts).
import { canReadGroup, canReadProject, groupRole } from '../access.js';
import { hash32, rng } from '../util/random.js';
import { insertSorted, removeSorted } from '../util/sorted.js';
import { ProjectOrders } from './project-order.js';
import { Memberships } from './memberships.js';
import { Repositories } from './repository.js';
import type { GroupRec, ProjectRec, SnippetRec, UserRec } from './records.js';
import { seedGroups, seedProjects, seedSnippets, seedUsers } from './seed.js';
import { Table } from './table.js';

export interface WorldOptions {
  projects: number;
  /** seeded users; 0: 12 + projects/50 */
  users?: number;
  storages: string[];
  seed: number;
  spreadStorages: boolean;
  /** Only the two users the handed-out tokens belong to (root, jdoe): a scenario describes the rest. */
  bare?: boolean;
}

const DAY = 86_400_000;
export type UserOrderKey = 'id' | 'name' | 'username' | 'created_at' | 'updated_at';

export class World {
  readonly seed: number;
  readonly storages: string[];
  readonly users = new Table<UserRec>();
  readonly usersByName = new Map<string, number>(); // lower-case username → id
  readonly groups = new Table<GroupRec>();
  readonly groupsByPath = new Map<string, number>(); // lower-case full path → id
  readonly groupChildren = new Map<number, number[]>();
  readonly projects = new Table<ProjectRec>();
  readonly projectsByPath = new Map<string, number>(); // lower-case full path → id
  readonly projectNames = new Map<string, number>(); // ns key + lower name → id
  readonly redirects = new Map<string, number>(); // lower-case old full path → id
  readonly allIds: number[] = [];
  readonly publicIds: number[] = [];
  readonly storageIdx = new Map<string, number[]>();
  readonly snippets = new Table<SnippetRec>();
  readonly weights: Record<string, number> = {};
  readonly seededProjects: number;
  readonly renamed: Array<{ projectId: number; oldFullPath: string }> = [];
  /** Sorted orderings of `GET /projects` (see project-order.ts). */
  readonly projectOrders = new ProjectOrders(this);
  /** The synthetic repositories of every project. */
  readonly repos = new Repositories(this);
  /** Memberships written through the API (access.ts reads them over the seeded ones). */
  readonly memberships = new Memberships();
  /** Spacing of seeded creation times. */
  readonly step: number;
  /** Groups and users seeded at start: a seeded user's namespace id is the seeded group count plus the user id. */
  readonly seededGroupCount: number;
  readonly seededUserCount: number;
  /** Namespaces created through the API (groups, users) take ids from one sequence after the seeded ones. */
  private nextNamespaceId: number;
  private readonly createdUserNamespaces = new Map<number, number>(); // created user id → namespace id
  private readonly namespaceUsers = new Map<number, number>(); // namespace id → created user id
  private readonly visibleCache = new Map<number, number[]>();
  private readonly groupCache = new Map<number, number[]>();
  private readonly userSortCache = new Map<string, number[]>();
  private readonly groupOrders = new Map<'name' | 'path', number[]>();
  private readonly weightRng: () => number;

  constructor(opts: WorldOptions) {
    this.seed = opts.seed;
    this.storages = [...opts.storages];
    for (const s of this.storages) {
      this.storageIdx.set(s, []);
      this.weights[s] = s === this.storages[0] ? 100 : 0;
    }
    this.weightRng = rng(hash32(opts.seed, 99));
    const n = Math.max(0, Math.floor(opts.projects));
    this.seededProjects = n;
    this.step = n > 0 ? Math.max(60_000, Math.floor((3 * 365 * DAY) / n)) : DAY;
    seedUsers(this, opts.bare ? 2 : opts.users ? Math.max(2, opts.users) : 12 + Math.floor(n / 50));
    seedGroups(this, opts.bare ? 0 : 6 + Math.floor(n / 100));
    seedProjects(this, n, opts.spreadStorages);
    seedSnippets(this, opts.bare ? 0 : 10 + Math.floor(n / 100), opts.spreadStorages);
    this.seededGroupCount = this.groups.size;
    this.seededUserCount = this.users.size;
    this.nextNamespaceId = this.seededGroupCount + this.seededUserCount + 1;
  }

  h(...xs: number[]): number {
    return hash32(this.seed, ...xs);
  }

  base: () => string = () => 'http://127.0.0.1';
  /** Now, as pipelines and jobs see it (the sandbox's `clock`). */
  now: () => number = Date.now;

  // ---- projects ------------------------------------------------------------

  nsFullPath(p: { nsKind: 'group' | 'user'; nsOwner: number }): string {
    return p.nsKind === 'group' ? this.groups.get(p.nsOwner)!.fullPath : this.users.get(p.nsOwner)!.username;
  }

  nsName(p: { nsKind: 'group' | 'user'; nsOwner: number }): string {
    return p.nsKind === 'group' ? this.groups.get(p.nsOwner)!.fullName : this.users.get(p.nsOwner)!.name;
  }

  nsKey(p: { nsKind: string; nsOwner: number }): string {
    return `${p.nsKind}:${p.nsOwner}`;
  }

  /** Namespace id: groups share their id; user namespaces follow the seeded groups. */
  namespaceId(kind: 'group' | 'user', owner: number): number {
    if (kind === 'group') return owner;
    return this.createdUserNamespaces.get(owner) ?? this.seededGroupCount + owner;
  }

  namespaceCount(): number {
    return this.groups.size + this.users.size;
  }

  /** The namespace of an integer id. */
  namespaceById(id: number): { kind: 'group' | 'user'; owner: number } | null {
    if (this.groups.get(id)) return { kind: 'group', owner: id };
    const created = this.namespaceUsers.get(id);
    if (created !== undefined) return { kind: 'user', owner: created };
    const uid = id - this.seededGroupCount;
    return uid >= 1 && uid <= this.seededUserCount && this.users.get(uid) ? { kind: 'user', owner: uid } : null;
  }

  /** A group created through the API: its id is the next namespace id. */
  addGroup(g: Omit<GroupRec, 'id'>): GroupRec {
    const rec = { ...g, id: this.nextNamespaceId++ };
    this.groups.insert(rec);
    this.groupsByPath.set(rec.fullPath.toLowerCase(), rec.id);
    if (rec.parentId !== null) this.groupChildren.set(rec.parentId, [...(this.groupChildren.get(rec.parentId) ?? []), rec.id]);
    this.accessChanged();
    return rec;
  }

  /** After a user's name or username changed: the orderings of users are recomputed. */
  usersChanged(): void {
    this.userSortCache.clear();
  }

  /** A user created through the API, with the next namespace id for their personal namespace. */
  addUser(u: Omit<UserRec, 'id'>): UserRec {
    const rec = { ...u, id: this.users.nextId() };
    this.users.insert(rec);
    this.usersByName.set(rec.username.toLowerCase(), rec.id);
    const namespaceId = this.nextNamespaceId++;
    this.createdUserNamespaces.set(rec.id, namespaceId);
    this.namespaceUsers.set(namespaceId, rec.id);
    this.userSortCache.clear();
    return rec;
  }

  addProject(p: ProjectRec): void {
    p.fullPath = `${this.nsFullPath(p)}/${p.path}`;
    this.projects.insert(p);
    this.projectsByPath.set(p.fullPath.toLowerCase(), p.id);
    this.projectNames.set(`${this.nsKey(p)}\n${p.name.toLowerCase()}`, p.id);
    this.allIds.push(p.id);
    if (p.visibility === 'public') this.publicIds.push(p.id);
    this.storageIdx.get(p.storage)?.push(p.id);
    this.projectOrders.added(p);
    if (!p.seeded) this.invalidateVisibility();
  }

  /** Changes what a project is named, where it lives or who sees it, keeping every index in step. */
  changeProject(
    p: ProjectRec,
    change: Partial<Pick<ProjectRec, 'name' | 'path' | 'nsKind' | 'nsOwner' | 'visibility' | 'lastActivityAt'>>,
  ): void {
    this.unindexProject(p);
    Object.assign(p, change);
    p.fullPath = `${this.nsFullPath(p)}/${p.path}`;
    this.projectsByPath.set(p.fullPath.toLowerCase(), p.id);
    this.projectNames.set(`${this.nsKey(p)}\n${p.name.toLowerCase()}`, p.id);
    if (p.visibility === 'public') insertSorted(this.publicIds, p.id);
    this.projectOrders.added(p);
    this.invalidateVisibility();
  }

  removeProject(p: ProjectRec): void {
    this.unindexProject(p);
    removeSorted(this.allIds, p.id);
    const onStorage = this.storageIdx.get(p.storage);
    if (onStorage) removeSorted(onStorage, p.id);
    this.projects.remove(p.id);
    this.invalidateVisibility();
  }

  private unindexProject(p: ProjectRec): void {
    this.projectOrders.removed(p);
    this.projectsByPath.delete(p.fullPath.toLowerCase());
    this.projectNames.delete(`${this.nsKey(p)}\n${p.name.toLowerCase()}`);
    if (p.visibility === 'public') removeSorted(this.publicIds, p.id);
  }

  setProjectStorage(id: number, storage: string): void {
    const p = this.projects.get(id);
    if (!p || p.storage === storage) return;
    const previous = p.storage;
    const from = this.storageIdx.get(previous);
    if (from) removeSorted(from, id);
    p.storage = storage;
    let to = this.storageIdx.get(storage);
    if (!to) {
      to = [];
      this.storageIdx.set(storage, to);
    }
    insertSorted(to, id);
    this.projectOrders.moved(p, previous);
  }

  /** After a membership or a group changed: every cached view of who sees what is recomputed. */
  accessChanged(): void {
    this.groupCache.clear();
    this.groupOrders.clear();
    this.invalidateVisibility();
  }

  invalidateVisibility(): void {
    this.visibleCache.clear();
    this.projectOrders.viewersChanged();
  }

  /** Sorted ids of the projects `user` may see (admin: all; anonymous: public). */
  visibleIds(user: UserRec | null): number[] {
    if (!user) return this.publicIds;
    if (user.isAdmin) return this.allIds;
    let list = this.visibleCache.get(user.id);
    if (!list) {
      list = [];
      for (const id of this.allIds) if (canReadProject(this, user, this.projects.get(id)!)) list.push(id);
      this.visibleCache.set(user.id, list);
    }
    return list;
  }

  findProjectByPath(path: string): { project: ProjectRec; redirected: boolean } | null {
    const key = path.toLowerCase();
    const id = this.projectsByPath.get(key);
    if (id !== undefined) return { project: this.projects.get(id)!, redirected: false };
    const rid = this.redirects.get(key);
    if (rid !== undefined) return { project: this.projects.get(rid)!, redirected: true };
    return null;
  }

  /** A project by numeric id or full path (a renamed one's old path too). */
  findProject(ident: string): ProjectRec | null {
    return /^\d+$/.test(ident) ? this.projects.get(Number(ident)) : (this.findProjectByPath(ident)?.project ?? null);
  }

  pickStorageByWeight(): string {
    const entries = this.storages.map((s) => [s, Math.max(0, this.weights[s] ?? 0)] as const);
    const total = entries.reduce((a, [, w]) => a + w, 0);
    if (total <= 0) return this.storages[0]!;
    let x = this.weightRng() * total;
    for (const [s, w] of entries) {
      if (x < w) return s;
      x -= w;
    }
    return entries[entries.length - 1]![0];
  }

  // ---- groups ----------------------------------------------------------------

  /** Group ids visible to a user, ascending. */
  visibleGroupIds(user: UserRec | null): number[] {
    const key = user ? (user.isAdmin ? -1 : user.id) : 0;
    let list = this.groupCache.get(key);
    if (!list) {
      list = this.groups.filter((g) => canReadGroup(this, user, g)).map((g) => g.id);
      this.groupCache.set(key, list);
    }
    return list;
  }

  /** Namespace ids a non-admin user may use: member groups, then the personal namespace. */
  userNamespaceIds(user: UserRec): number[] {
    const list = this.groups.filter((g) => groupRole(this, user.id, g) > 0).map((g) => g.id);
    list.push(this.namespaceId('user', user.id));
    return list;
  }

  /** Group ids sorted by name or full path (then id). */
  groupsSortedBy(key: 'name' | 'path'): number[] {
    let ids = this.groupOrders.get(key);
    if (!ids) {
      const value = (g: GroupRec) => (key === 'name' ? g.name : g.fullPath);
      const list = [...this.groups].sort((a, b) => cmpStr(value(a), value(b)) || a.id - b.id);
      ids = list.map((g) => g.id);
      this.groupOrders.set(key, ids);
    }
    return ids;
  }

  /** A group with its subgroups at every depth: the scope of group-wide lists and searches. */
  groupSubtree(id: number): Set<number> {
    const ids = new Set([id]);
    const pending = [id];
    while (pending.length > 0) {
      for (const child of this.groupChildren.get(pending.pop()!) ?? []) {
        ids.add(child);
        pending.push(child);
      }
    }
    return ids;
  }

  findGroup(v: string): GroupRec | null {
    const id = /^\d+$/.test(v) ? Number(v) : this.groupsByPath.get(v.toLowerCase());
    return id ? this.groups.get(id) : null;
  }

  // ---- users -----------------------------------------------------------------

  /** User ids sorted by the given key (ascending, id as tie-breaker). */
  usersSortedBy(key: UserOrderKey): number[] {
    let list = this.userSortCache.get(key);
    if (!list) {
      list = [...this.users].map((u) => u.id);
      if (key !== 'id') {
        const val = (u: number) => userSortValue(this.users.get(u)!, key);
        list.sort((a, b) => cmpAny(val(a), val(b)) || a - b);
      }
      this.userSortCache.set(key, list);
    }
    return list;
  }

  findUser(ident: string): UserRec | null {
    if (/^\d+$/.test(ident)) return this.users.own(Number(ident));
    const id = this.usersByName.get(ident.toLowerCase());
    return id ? this.users.get(id) : null;
  }
}

function cmpStr(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function cmpAny(a: string | number, b: string | number): number {
  return typeof a === 'number' && typeof b === 'number' ? a - b : cmpStr(String(a), String(b));
}

export function userSortValue(u: UserRec, key: UserOrderKey): string | number {
  switch (key) {
    case 'name':
      return u.name;
    case 'username':
      return u.username;
    case 'created_at':
      return u.createdAt;
    case 'updated_at':
      return u.updatedAt;
    default:
      return u.id;
  }
}
