// Deterministic seeded data for the sandbox, with the indexes needed to
// serve any page of a 100,000-project instance in about a millisecond.
//
// Heavy per-project objects (issues, notes, repository, pipelines, jobs,
// releases) are not stored: they are derived on demand from (seed, project id)
// so memory stays small; only changes made through the API are stored.
import { ProjectOrders } from './project-order.js';
import { hash32, insertSorted, iso, lowerBound, removeSorted, seededBytes, sha1, sha256, buildZip, rng } from './util.js';

export type Visibility = 'public' | 'internal' | 'private';

export interface UserRec {
  id: number;
  username: string;
  name: string;
  email: string;
  state: 'active' | 'blocked';
  isAdmin: boolean;
  createdAt: number;
  updatedAt: number;
}

export interface GroupRec {
  id: number;
  name: string;
  path: string;
  fullPath: string;
  fullName: string;
  parentId: number | null;
  rootId: number;
  visibility: Visibility;
  description: string;
  createdAt: number;
  storage: string;
  readOnly: boolean;
}

export interface ProjectRec {
  id: number;
  name: string;
  path: string;
  nsKind: 'group' | 'user';
  nsOwner: number; // group id or user id
  fullPath: string;
  visibility: Visibility;
  storage: string;
  readOnly: boolean;
  description: string | null;
  createdAt: number;
  lastActivityAt: number;
  creatorId: number;
  starCount: number;
  importStatus: string;
  seeded: boolean;
}

export interface SnippetRec {
  id: number;
  title: string;
  fileName: string;
  description: string | null;
  visibility: Visibility;
  authorId: number;
  content: string;
  createdAt: number;
  updatedAt: number;
  storage: string;
  readOnly: boolean;
}

export interface ImportRec {
  projectId: number;
  startedAt: number;
  fails: boolean;
  correlationId: string;
}

export interface PipelineRec {
  id: number;
  iid: number;
  projectId: number;
  ref: string;
  sha: string;
  createdAt: number;
  userId: number;
  /** fixed status for seeded pipelines; null = progresses with time */
  fixedStatus: string | null;
  willFail: boolean;
  variables: Array<{ key: string; value: string; variable_type: string }>;
  jobIds: number[];
}

export interface JobRec {
  id: number;
  pipelineId: number;
  projectId: number;
  name: string;
  stage: string;
  hasArtifacts: boolean;
}

export interface ReleaseRec {
  tagName: string;
  name: string;
  description: string;
  createdAt: number;
  releasedAt: number;
  authorId: number;
  sha: string;
}

export interface CommitRec {
  id: string;
  title: string;
  parentId: string | null;
  createdAt: number;
  authorIdx: number;
}

export interface ShareRec {
  groupId: number;
  access: number;
  expiresAt: string | null;
}

const ADJ = ['brave', 'calm', 'eager', 'fancy', 'gentle', 'happy', 'jolly', 'kind', 'lively', 'nice', 'proud', 'silly', 'witty', 'zealous', 'amber', 'bold', 'crisp', 'dusty', 'early', 'frosty', 'golden', 'hidden', 'icy', 'lucky', 'mellow', 'noble', 'quiet', 'rapid', 'shiny', 'tidy'];
const NOUN = ['otter', 'falcon', 'badger', 'heron', 'lynx', 'panda', 'raven', 'salmon', 'tiger', 'walrus', 'beacon', 'bridge', 'canyon', 'delta', 'ember', 'forge', 'garden', 'harbor', 'island', 'jungle', 'kernel', 'lantern', 'meadow', 'nebula', 'orchard', 'prism', 'quarry', 'river', 'summit', 'tundra'];
const COMPANY = ['acme', 'globex', 'initech', 'umbrella', 'hooli', 'stark', 'wayne', 'tyrell', 'cyberdyne', 'soylent', 'aperture', 'massive', 'wonka', 'oscorp', 'vandelay'];
const SUBGROUP = ['platform', 'backend', 'frontend', 'infra', 'tools', 'mobile', 'data', 'security', 'docs', 'qa'];
const FIRST = ['Alice', 'Bob', 'Carol', 'Dave', 'Erin', 'Frank', 'Grace', 'Heidi', 'Ivan', 'Judy', 'Mallory', 'Niaj', 'Olivia', 'Peggy', 'Rupert', 'Sybil', 'Trent', 'Victor', 'Walter', 'Yvonne'];
const LAST = ['Smith', 'Jones', 'Garcia', 'Miller', 'Davis', 'Lopez', 'Wilson', 'Moore', 'Taylor', 'Thomas', 'Martin', 'Clark', 'Lewis', 'Walker', 'Young', 'King', 'Wright', 'Hill', 'Green', 'Baker'];
const ISSUE_TITLES = ['Login fails with SSO', 'Crash on empty config', 'Add dark mode', 'Improve search speed', 'Typo in README', 'Flaky test in CI', 'Upgrade dependencies', 'Memory leak in worker', 'Support IPv6', 'Docs: clarify setup'];
const NOTE_BODIES = ['I can reproduce this.', 'Fixed in the latest main.', 'Could you share the logs?', 'Closing as duplicate.', 'Thanks, looks good to me.', 'Needs a test case.', 'Bumping priority.', 'Working on it.'];

/** Branches of every synthetic repository (note the `/` in names). */
export const BRANCHES = ['main', 'develop', 'feature/login', 'feature/search-v2', 'fix/issue-1', 'fail/broken-build'];
/** Tags: name → main commit index (from oldest, 0-based) or branch head. */
const TAGS: Array<{ name: string; branch: string; index: number; message: string | null }> = [
  { name: 'v1.0.0', branch: 'main', index: 4, message: 'First stable release' },
  { name: 'v1.0.0+build.5', branch: 'main', index: 5, message: null },
  { name: 'v1.1.0', branch: 'main', index: 9, message: 'Feature release' },
  { name: 'v2.0.0-rc.1', branch: 'develop', index: -1, message: null },
];
const MAIN_COMMITS = 12;
const BRANCH_COMMITS = 3;
const SEEDED_PIPELINES = 3;
const SEEDED_JOBS = 2;
const ISSUE_SLOTS = 8;
const NOTE_SLOTS = 64;

export interface WorldOptions {
  projects: number;
  storages: string[];
  seed: number;
  spreadStorages: boolean;
}

const DAY = 86_400_000;
/** Each step of imports and created pipelines takes this long. */
export const IMPORT_STEP_MS = 100;
export const PIPELINE_STEP_MS = 100;
const BASE_TIME = Date.UTC(2021, 0, 4, 9, 0, 0);

export class World {
  readonly seed: number;
  readonly storages: string[];
  readonly users: UserRec[] = []; // index = id (0 unused)
  readonly usersByName = new Map<string, number>(); // lower-case username → id
  readonly groups: GroupRec[] = []; // index = id (0 unused)
  readonly groupsByPath = new Map<string, number>(); // lower-case full path → id
  readonly groupChildren = new Map<number, number[]>();
  readonly projects: Array<ProjectRec | undefined> = []; // index = id
  readonly projectsByPath = new Map<string, number>(); // lower-case full path → id
  readonly projectNames = new Map<string, number>(); // ns key + lower name → id
  readonly redirects = new Map<string, number>(); // lower-case old full path → id
  readonly allIds: number[] = [];
  readonly publicIds: number[] = [];
  readonly storageIdx = new Map<string, number[]>();
  readonly snippets: SnippetRec[] = []; // index = id
  readonly imports = new Map<number, ImportRec>();
  readonly pipelines = new Map<number, PipelineRec>(); // created through the API
  readonly projectPipelines = new Map<number, number[]>();
  readonly jobs = new Map<number, JobRec>(); // jobs of created pipelines
  readonly releases = new Map<number, ReleaseRec[]>(); // created releases per project
  readonly extraTags = new Map<number, Map<string, string>>();
  readonly shares = new Map<number, Map<number, ShareRec>>(); // overrides per project
  readonly spamLogs = new Map<number, { userId: number; used: boolean }>();
  readonly weights: Record<string, number> = {};
  readonly seededProjects: number;
  readonly seededPipelineMax: number;
  readonly seededJobMax: number;
  readonly renamed: Array<{ projectId: number; oldFullPath: string }> = [];
  /** Sorted orderings of `GET /projects` (see project-order.ts). */
  readonly projectOrders = new ProjectOrders(this);
  private nextPipelineId: number;
  private nextJobId: number;
  private nextSpamLogId = 1;
  private visibleCache = new Map<number, number[]>();
  private nsCache = new Map<number, number[]>();
  private userSortCache = new Map<string, number[]>();
  private groupNameOrder: number[] | null = null;
  private weightRng: () => number;
  private readonly step: number;

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
    this.seededPipelineMax = n * SEEDED_PIPELINES;
    this.seededJobMax = n * SEEDED_PIPELINES * SEEDED_JOBS;
    this.nextPipelineId = this.seededPipelineMax + 1;
    this.nextJobId = this.seededJobMax + 1;
    this.step = n > 0 ? Math.max(60_000, Math.floor((3 * 365 * DAY) / n)) : DAY;
    this.genUsers(12 + Math.floor(n / 50));
    this.genGroups(6 + Math.floor(n / 100));
    this.genProjects(n, opts.spreadStorages);
    this.genSnippets(10 + Math.floor(n / 100), opts.spreadStorages);
  }

  private h(...xs: number[]): number {
    return hash32(this.seed, ...xs);
  }

  // ---- generation --------------------------------------------------------

  private genUsers(count: number): void {
    this.users.push(undefined as unknown as UserRec);
    const start = BASE_TIME - 60 * DAY;
    for (let i = 1; i <= count; i++) {
      let username: string;
      let name: string;
      if (i === 1) {
        username = 'root';
        name = 'Administrator';
      } else if (i === 2) {
        username = 'jdoe';
        name = 'Jane Doe';
      } else {
        const h = this.h(10, i);
        const f = FIRST[h % FIRST.length]!;
        const l = LAST[(h >>> 8) % LAST.length]!;
        name = `${f} ${l}`;
        username = `${f}.${l}`.toLowerCase();
        if (this.usersByName.has(username)) username = `${username}${i}`;
      }
      const createdAt = start + i * 3_600_000 + (this.h(11, i) % 1000);
      this.users.push({
        id: i,
        username,
        name,
        email: `${username}@example.com`,
        state: i > 2 && i % 17 === 0 ? 'blocked' : 'active',
        isAdmin: i === 1,
        createdAt,
        updatedAt: createdAt + (this.h(12, i) % (30 * DAY)),
      });
      this.usersByName.set(username.toLowerCase(), i);
    }
  }

  private genGroups(count: number): void {
    this.groups.push(undefined as unknown as GroupRec);
    const fixed: Array<[string, number | null, Visibility]> = [
      ['acme', null, 'public'],
      ['platform', 1, 'public'],
      ['globex', null, 'private'],
      ['initech', null, 'public'],
      ['backend', 4, 'internal'],
      ['umbrella', null, 'public'],
    ];
    for (let i = 1; i <= count; i++) {
      let path: string;
      let parentId: number | null;
      let visibility: Visibility;
      const h = this.h(20, i);
      if (i <= fixed.length) {
        [path, parentId, visibility] = fixed[i - 1]!;
      } else {
        const depthOk = (g: number) => this.depth(g) < 3;
        const cand = 1 + ((h >>> 4) % (i - 1));
        if (h % 3 === 0 && depthOk(cand)) {
          parentId = cand;
          path = `${SUBGROUP[(h >>> 8) % SUBGROUP.length]}-${i}`;
        } else {
          parentId = null;
          path = `${COMPANY[(h >>> 8) % COMPANY.length]}-${i}`;
        }
        const v = (h >>> 12) % 5;
        visibility = v === 0 ? 'private' : v === 1 ? 'internal' : 'public';
      }
      const parent = parentId ? this.groups[parentId]! : null;
      if (parent && parent.visibility === 'private') visibility = 'private';
      const name = path.charAt(0).toUpperCase() + path.slice(1);
      const g: GroupRec = {
        id: i,
        name,
        path,
        fullPath: parent ? `${parent.fullPath}/${path}` : path,
        fullName: parent ? `${parent.fullName} / ${name}` : name,
        parentId,
        rootId: parent ? parent.rootId : i,
        visibility,
        description: `${name} group`,
        createdAt: BASE_TIME - 30 * DAY + i * 60_000 + (h % 1000),
        storage: this.storages[0]!,
        readOnly: false,
      };
      this.groups.push(g);
      this.groupsByPath.set(g.fullPath.toLowerCase(), i);
      if (parentId) {
        const list = this.groupChildren.get(parentId) ?? [];
        list.push(i);
        this.groupChildren.set(parentId, list);
      }
    }
  }

  private depth(g: number): number {
    let d = 1;
    let cur = this.groups[g];
    while (cur && cur.parentId) {
      d++;
      cur = this.groups[cur.parentId];
    }
    return d;
  }

  private genProjects(n: number, spread: boolean): void {
    this.projects.push(undefined);
    const U = this.users.length - 1;
    const G = this.groups.length - 1;
    for (let i = 1; i <= n; i++) {
      const h = this.h(30, i);
      let nsKind: 'group' | 'user';
      let nsOwner: number;
      if (i <= 3) {
        nsKind = 'group';
        nsOwner = i === 3 ? 1 : 2;
      } else if (h % 7 === 0) {
        nsKind = 'user';
        nsOwner = 1 + ((h >>> 3) % U);
      } else {
        nsKind = 'group';
        nsOwner = 1 + ((h >>> 3) % G);
      }
      let visibility: Visibility;
      if (i === 1) visibility = 'public';
      else if (i === 2) visibility = 'private';
      else if (i === 3) visibility = 'internal';
      else {
        const v = (h >>> 8) % 10;
        visibility = v < 4 ? 'public' : v < 6 ? 'internal' : 'private';
      }
      const adj = ADJ[(h >>> 12) % ADJ.length]!;
      const noun = NOUN[(h >>> 17) % NOUN.length]!;
      const createdAt = BASE_TIME + i * this.step + (h % 1000);
      const storage = spread ? this.storages[(h >>> 20) % this.storages.length]! : this.storages[0]!;
      this.addProject({
        id: i,
        name: `${adj.charAt(0).toUpperCase()}${adj.slice(1)} ${noun.charAt(0).toUpperCase()}${noun.slice(1)} ${i}`,
        path: `${adj}-${noun}-${i}`,
        nsKind,
        nsOwner,
        fullPath: '',
        visibility,
        storage,
        readOnly: false,
        description: h % 3 === 0 ? null : `The ${adj} ${noun} service`,
        createdAt,
        lastActivityAt: createdAt + ((h >>> 5) % (30 * DAY)),
        creatorId: nsKind === 'user' ? nsOwner : 1 + ((h >>> 6) % U),
        starCount: (h >>> 24) % 20,
        importStatus: 'none',
        seeded: true,
      });
    }
    // Renamed projects: their old path is kept as a redirect route.
    for (const id of [1, 2]) {
      const p = this.projects[id];
      if (!p) continue;
      const old = `${this.nsFullPath(p)}/old-${p.path.replace(/-\d+$/, '')}`;
      this.redirects.set(old.toLowerCase(), id);
      this.renamed.push({ projectId: id, oldFullPath: old });
    }
  }

  private genSnippets(count: number, spread: boolean): void {
    this.snippets.push(undefined as unknown as SnippetRec);
    const U = this.users.length - 1;
    for (let i = 1; i <= count; i++) {
      const h = this.h(40, i);
      const authorId = i <= 2 ? 2 : 1 + (h % U);
      const v = (h >>> 4) % 3;
      const visibility: Visibility = i === 1 ? 'public' : i === 2 ? 'private' : v === 0 ? 'public' : v === 1 ? 'internal' : 'private';
      const createdAt = BASE_TIME + i * 7_200_000 + (h % 1000);
      this.snippets.push({
        id: i,
        title: `${ADJ[(h >>> 8) % ADJ.length]} snippet ${i}`,
        fileName: `snippet${i}.rb`,
        description: null,
        visibility,
        authorId,
        content: `puts "snippet ${i}"\n`,
        createdAt,
        updatedAt: createdAt,
        storage: spread ? this.storages[(h >>> 12) % this.storages.length]! : this.storages[0]!,
        readOnly: false,
      });
    }
  }

  // ---- projects ------------------------------------------------------------

  nsFullPath(p: ProjectRec): string {
    return p.nsKind === 'group' ? this.groups[p.nsOwner]!.fullPath : this.users[p.nsOwner]!.username;
  }

  nsKey(p: { nsKind: string; nsOwner: number }): string {
    return `${p.nsKind}:${p.nsOwner}`;
  }

  /** Namespace id: groups share their id; user namespaces follow the groups. */
  namespaceId(kind: 'group' | 'user', owner: number): number {
    return kind === 'group' ? owner : this.groups.length - 1 + owner;
  }

  addProject(p: ProjectRec): void {
    p.fullPath = `${this.nsFullPath(p)}/${p.path}`;
    this.projects[p.id] = p;
    this.projectsByPath.set(p.fullPath.toLowerCase(), p.id);
    this.projectNames.set(`${this.nsKey(p)}\n${p.name.toLowerCase()}`, p.id);
    this.allIds.push(p.id);
    if (p.visibility === 'public') this.publicIds.push(p.id);
    this.storageIdx.get(p.storage)?.push(p.id);
    this.projectOrders.added(p);
    if (!p.seeded) this.invalidateVisibility();
  }

  nextProjectId(): number {
    return this.projects.length;
  }

  setProjectStorage(id: number, storage: string): void {
    const p = this.projects[id];
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

  invalidateVisibility(): void {
    this.visibleCache.clear();
    this.nsCache.clear();
    this.projectOrders.viewersChanged();
  }

  isMemberOfGroup(userId: number, groupId: number): boolean {
    const g = this.groups[groupId];
    if (!g) return false;
    return (g.rootId + userId) % 4 === 3;
  }

  isProjectMember(user: UserRec, p: ProjectRec): boolean {
    if (p.nsKind === 'user') return p.nsOwner === user.id;
    return p.creatorId === user.id || this.isMemberOfGroup(user.id, p.nsOwner);
  }

  canReadProject(user: UserRec | null, p: ProjectRec): boolean {
    if (p.visibility === 'public') return true;
    if (!user) return false;
    if (user.isAdmin) return true;
    if (p.visibility === 'internal') return true;
    return this.isProjectMember(user, p);
  }

  canWriteProject(user: UserRec | null, p: ProjectRec): boolean {
    if (!user) return false;
    return user.isAdmin || this.isProjectMember(user, p);
  }

  /** Sorted ids of the projects `user` may see (admin: all; anonymous: public). */
  visibleIds(user: UserRec | null): number[] {
    if (!user) return this.publicIds;
    if (user.isAdmin) return this.allIds;
    let list = this.visibleCache.get(user.id);
    if (!list) {
      list = [];
      for (const id of this.allIds) {
        const p = this.projects[id]!;
        if (p.visibility !== 'private' || this.isProjectMember(user, p)) list.push(id);
      }
      this.visibleCache.set(user.id, list);
    }
    return list;
  }

  findProjectByPath(path: string): { project: ProjectRec; redirected: boolean } | null {
    const key = path.toLowerCase();
    const id = this.projectsByPath.get(key);
    if (id !== undefined) return { project: this.projects[id]!, redirected: false };
    const rid = this.redirects.get(key);
    if (rid !== undefined) return { project: this.projects[rid]!, redirected: true };
    return null;
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

  getShares(pid: number): Map<number, ShareRec> {
    let m = this.shares.get(pid);
    if (!m) {
      m = new Map();
      const p = this.projects[pid];
      const G = this.groups.length - 1;
      if (p && p.seeded && pid % 4 === 1) {
        const gid = 1 + ((pid + 1) % G);
        if (!(p.nsKind === 'group' && p.nsOwner === gid)) m.set(gid, { groupId: gid, access: 30, expiresAt: null });
      }
      this.shares.set(pid, m);
    }
    return m;
  }

  // ---- namespaces & groups -------------------------------------------------

  namespaceCount(): number {
    return this.groups.length - 1 + this.users.length - 1;
  }

  /** Namespace ids visible to a non-admin user: own namespace + member groups. */
  userNamespaceIds(user: UserRec): number[] {
    let list = this.nsCache.get(user.id);
    if (!list) {
      list = [];
      for (let g = 1; g < this.groups.length; g++) if (this.isMemberOfGroup(user.id, g)) list.push(g);
      list.push(this.namespaceId('user', user.id));
      this.nsCache.set(user.id, list);
    }
    return list;
  }

  canReadGroup(user: UserRec | null, g: GroupRec): boolean {
    if (g.visibility === 'public') return true;
    if (!user) return false;
    if (user.isAdmin || g.visibility === 'internal') return true;
    return this.isMemberOfGroup(user.id, g.id);
  }

  visibleGroupIds(user: UserRec | null): number[] {
    const key = user ? (user.isAdmin ? -1 : user.id) : 0;
    let list = this.visibleCache.get(-1000 - key);
    if (!list) {
      list = [];
      for (let g = 1; g < this.groups.length; g++) if (this.canReadGroup(user, this.groups[g]!)) list.push(g);
      this.visibleCache.set(-1000 - key, list);
    }
    return list;
  }

  groupsByName(): number[] {
    if (!this.groupNameOrder) {
      const ids = [];
      for (let g = 1; g < this.groups.length; g++) ids.push(g);
      ids.sort((a, b) => cmpStr(this.groups[a]!.name, this.groups[b]!.name) || a - b);
      this.groupNameOrder = ids;
    }
    return this.groupNameOrder;
  }

  /** User ids sorted by the given key (ascending, id as tie-breaker). */
  usersSortedBy(key: 'id' | 'name' | 'username' | 'created_at' | 'updated_at'): number[] {
    let list = this.userSortCache.get(key);
    if (!list) {
      list = [];
      for (let u = 1; u < this.users.length; u++) list.push(u);
      if (key !== 'id') {
        const val = (u: number) => userSortValue(this.users[u]!, key);
        list.sort((a, b) => cmpAny(val(a), val(b)) || a - b);
      }
      this.userSortCache.set(key, list);
    }
    return list;
  }

  findUser(ident: string): UserRec | null {
    if (/^\d+$/.test(ident)) return this.users[Number(ident)] ?? null;
    const id = this.usersByName.get(ident.toLowerCase());
    return id ? this.users[id]! : null;
  }

  // ---- issues & notes ------------------------------------------------------

  issueCount(pid: number): number {
    const p = this.projects[pid];
    if (!p || !p.seeded) return 0;
    return pid === 1 ? 6 : 2 + (this.h(50, pid) % (ISSUE_SLOTS - 1));
  }

  issueGlobalId(pid: number, iid: number): number {
    return 100 + (pid - 1) * ISSUE_SLOTS + iid;
  }

  noteCount(pid: number, iid: number): number {
    return pid === 1 && iid === 1 ? 45 : this.h(51, pid, iid) % 6;
  }

  issue(pid: number, iid: number): Record<string, unknown> | null {
    if (!Number.isInteger(iid) || iid < 1 || iid > this.issueCount(pid)) return null;
    const p = this.projects[pid]!;
    const h = this.h(52, pid, iid);
    const created = p.createdAt + iid * 3 * 3_600_000 + (h % 1000);
    const closed = iid % 4 === 0;
    const updated = created + ((h >>> 4) % (5 * DAY));
    const author = this.users[1 + ((h >>> 8) % (this.users.length - 1))]!;
    const web = `${this.base()}/${p.fullPath}/-/issues/${iid}`;
    return {
      id: this.issueGlobalId(pid, iid),
      iid,
      project_id: pid,
      title: ISSUE_TITLES[(h >>> 12) % ISSUE_TITLES.length],
      description: `Steps to reproduce for issue ${iid}.`,
      state: closed ? 'closed' : 'opened',
      created_at: iso(created),
      updated_at: iso(updated),
      closed_at: closed ? iso(updated) : null,
      closed_by: closed ? this.userBasic(author) : null,
      labels: (h >>> 16) % 2 ? ['bug'] : ['feature'],
      milestone: null,
      assignees: [],
      assignee: null,
      author: this.userBasic(author),
      type: 'ISSUE',
      user_notes_count: this.noteCount(pid, iid),
      merge_requests_count: 0,
      upvotes: (h >>> 20) % 5,
      downvotes: 0,
      due_date: null,
      confidential: false,
      discussion_locked: null,
      issue_type: 'issue',
      web_url: web,
      time_stats: { time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null },
      task_completion_status: { count: 0, completed_count: 0 },
      references: { short: `#${iid}`, relative: `#${iid}`, full: `${p.fullPath}#${iid}` },
    };
  }

  note(pid: number, iid: number, n: number): Record<string, unknown> {
    const p = this.projects[pid]!;
    const h = this.h(53, pid, iid, n);
    const created = p.createdAt + iid * 3 * 3_600_000 + n * 600_000 + (h % 1000);
    const author = this.users[1 + (h % (this.users.length - 1))]!;
    return {
      id: 10 + ((pid - 1) * ISSUE_SLOTS + (iid - 1)) * NOTE_SLOTS + n,
      type: null,
      body: NOTE_BODIES[(h >>> 8) % NOTE_BODIES.length],
      attachment: null,
      author: this.userBasic(author),
      created_at: iso(created),
      updated_at: iso(created),
      system: false,
      noteable_id: this.issueGlobalId(pid, iid),
      noteable_type: 'Issue',
      project_id: pid,
      noteable_iid: iid,
      resolvable: false,
      confidential: false,
      internal: false,
      commands_changes: {},
    };
  }

  // ---- repository ------------------------------------------------------------

  private commitSha(pid: number, branch: string, i: number): string {
    return sha1(`${this.seed}:${pid}:${branch}:${i}`);
  }

  /** Commits of a branch, newest first. */
  branchCommits(pid: number, branch: string): CommitRec[] | null {
    const p = this.projects[pid];
    if (!p || !BRANCHES.includes(branch)) return null;
    const main: CommitRec[] = [];
    for (let i = 0; i < MAIN_COMMITS; i++) {
      main.push({
        id: this.commitSha(pid, 'main', i),
        title: i === 0 ? 'Initial commit' : `Update ${['docs', 'main module', 'tests', 'CI config'][i % 4]} (${i})`,
        parentId: i === 0 ? null : this.commitSha(pid, 'main', i - 1),
        createdAt: p.createdAt + i * 3_600_000,
        authorIdx: i % 3,
      });
    }
    if (branch === 'main') return main.reverse();
    const base = 3 + (BRANCHES.indexOf(branch) % 5);
    const own: CommitRec[] = [];
    for (let i = 0; i < BRANCH_COMMITS; i++) {
      own.push({
        id: this.commitSha(pid, branch, i),
        title: `${branch.split('/').pop()}: step ${i + 1}`,
        parentId: i === 0 ? main[base]!.id : this.commitSha(pid, branch, i - 1),
        createdAt: p.createdAt + (base + i) * 3_600_000 + 1_800_000,
        authorIdx: (i + 1) % 3,
      });
    }
    return [...own.reverse(), ...main.slice(0, base + 1).reverse()];
  }

  tags(pid: number): Array<{ name: string; sha: string; message: string | null }> {
    const out: Array<{ name: string; sha: string; message: string | null }> = [];
    for (const t of TAGS) {
      const commits = this.branchCommits(pid, t.branch)!;
      const sha = t.index < 0 ? commits[0]!.id : commits[commits.length - 1 - t.index]!.id;
      out.push({ name: t.name, sha, message: t.message });
    }
    const extra = this.extraTags.get(pid);
    if (extra) for (const [name, sha] of extra) out.push({ name, sha, message: null });
    return out;
  }

  findCommit(pid: number, sha: string): CommitRec | null {
    for (const b of BRANCHES) {
      const c = this.branchCommits(pid, b)!.find((x) => x.id === sha || (sha.length >= 7 && x.id.startsWith(sha)));
      if (c) return c;
    }
    return null;
  }

  /** Resolve a ref (branch, tag, sha, HEAD) to a commit sha. */
  resolveRef(pid: number, ref: string): string | null {
    if (ref === 'HEAD') ref = 'main';
    if (BRANCHES.includes(ref)) return this.branchCommits(pid, ref)![0]!.id;
    const tag = this.tags(pid).find((t) => t.name === ref);
    if (tag) return tag.sha;
    if (/^[0-9a-f]{7,40}$/.test(ref)) return this.findCommit(pid, ref)?.id ?? null;
    return null;
  }

  branchForSha(pid: number, sha: string): string {
    for (const b of BRANCHES) if (this.branchCommits(pid, b)!.some((c) => c.id === sha)) return b;
    return 'main';
  }

  files(pid: number, ref: string): Map<string, Buffer> {
    const p = this.projects[pid]!;
    const m = new Map<string, Buffer>();
    m.set('README.md', Buffer.from(`# ${p.name}\n\n${p.description ?? 'No description.'}\n\nSee docs/guide/intro.md.\n`));
    m.set('.gitlab-ci.yml', Buffer.from('stages: [build, test]\nbuild:\n  stage: build\n  script: make\n  artifacts:\n    paths: [build/]\ntest:\n  stage: test\n  script: make test\n'));
    m.set('docs/guide/intro.md', Buffer.from(`# Introduction\n\nWelcome to ${p.name}.\n`));
    m.set('docs/guide/advanced/config.md', Buffer.from('# Configuration\n\nSet `LOG_LEVEL=debug` for verbose output.\n'));
    m.set('docs/c++/notes+tips.md', Buffer.from('# C++ notes\n\nA file whose path has a plus sign.\n'));
    m.set('docs/release notes.md', Buffer.from('# Release notes\n\nA file whose name has a space.\n'));
    m.set('src/app/main.ts', Buffer.from(`export const project = ${JSON.stringify(p.path)};\nconsole.log(project);\n`));
    m.set('src/lib/util.ts', Buffer.from('export function add(a: number, b: number): number {\n  return a + b;\n}\n'));
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), seededBytes(this.h(60, pid), 1016)]);
    m.set('assets/logo.png', png);
    if (ref === 'feature/login') m.set('src/app/login.ts', Buffer.from('export function login(): boolean {\n  return true;\n}\n'));
    return m;
  }

  commitJson(pid: number, c: CommitRec): Record<string, unknown> {
    const p = this.projects[pid]!;
    const people = [
      ['Administrator', 'admin@example.com'],
      ['Jane Doe', 'jdoe@example.com'],
      ['Build Bot', 'bot@example.com'],
    ];
    const [an, ae] = people[c.authorIdx]!;
    return {
      id: c.id,
      short_id: c.id.slice(0, 8),
      created_at: iso(c.createdAt),
      parent_ids: c.parentId ? [c.parentId] : [],
      title: c.title,
      message: `${c.title}\n`,
      author_name: an,
      author_email: ae,
      authored_date: iso(c.createdAt),
      committer_name: an,
      committer_email: ae,
      committed_date: iso(c.createdAt),
      trailers: {},
      extended_trailers: {},
      web_url: `${this.base()}/${p.fullPath}/-/commit/${c.id}`,
    };
  }

  // ---- pipelines & jobs ----------------------------------------------------

  pipeline(id: number): PipelineRec | null {
    if (Number.isInteger(id) && id >= 1 && id <= this.seededPipelineMax) {
      const pid = Math.ceil(id / SEEDED_PIPELINES);
      const k = id - (pid - 1) * SEEDED_PIPELINES;
      const p = this.projects[pid]!;
      const h = this.h(70, id);
      const sha = this.branchCommits(pid, 'main')![SEEDED_PIPELINES - k]!.id;
      const jobIds = [];
      for (let j = 1; j <= SEEDED_JOBS; j++) jobIds.push((id - 1) * SEEDED_JOBS + j);
      return {
        id,
        iid: k,
        projectId: pid,
        ref: 'main',
        sha,
        createdAt: p.createdAt + DAY + k * 3_600_000 + (h % 1000),
        userId: p.creatorId,
        fixedStatus: k === 2 && h % 3 === 0 ? 'failed' : 'success',
        willFail: false,
        variables: [],
        jobIds,
      };
    }
    return this.pipelines.get(id) ?? null;
  }

  pipelineIds(pid: number): number[] {
    const out: number[] = [];
    const p = this.projects[pid];
    if (p?.seeded) for (let k = 1; k <= SEEDED_PIPELINES; k++) out.push((pid - 1) * SEEDED_PIPELINES + k);
    const extra = this.projectPipelines.get(pid);
    if (extra) out.push(...extra);
    return out;
  }

  createPipeline(pid: number, ref: string, sha: string, userId: number, variables: PipelineRec['variables']): PipelineRec {
    const id = this.nextPipelineId++;
    const iid = this.pipelineIds(pid).length + 1;
    const willFail = ref.startsWith('fail/') || variables.some((v) => v.key === 'SANDBOX_PIPELINE_RESULT' && v.value === 'failed');
    const jobIds = [];
    for (const [name, stage] of [['build', 'build'], ['test', 'test']] as const) {
      const jid = this.nextJobId++;
      this.jobs.set(jid, { id: jid, pipelineId: id, projectId: pid, name, stage, hasArtifacts: name === 'build' });
      jobIds.push(jid);
    }
    const rec: PipelineRec = { id, iid, projectId: pid, ref, sha, createdAt: Date.now(), userId, fixedStatus: null, willFail, variables, jobIds };
    this.pipelines.set(id, rec);
    const list = this.projectPipelines.get(pid) ?? [];
    list.push(id);
    this.projectPipelines.set(pid, list);
    return rec;
  }

  job(id: number): JobRec | null {
    if (Number.isInteger(id) && id >= 1 && id <= this.seededJobMax) {
      const pipelineId = Math.ceil(id / SEEDED_JOBS);
      const j = id - (pipelineId - 1) * SEEDED_JOBS;
      const pid = Math.ceil(pipelineId / SEEDED_PIPELINES);
      return { id, pipelineId, projectId: pid, name: j === 1 ? 'build' : 'test', stage: j === 1 ? 'build' : 'test', hasArtifacts: j === 1 };
    }
    return this.jobs.get(id) ?? null;
  }

  artifactSize(jobId: number): number {
    return 64 * 1024 + (jobId % 16) * 16 * 1024;
  }

  artifactArchive(jobId: number): Buffer {
    const size = this.artifactSize(jobId);
    const report = Buffer.from(`job ${jobId}\nstatus: success\n`);
    const overhead = 22 + 2 * (30 + 46) + 'build/output.bin'.length * 2 + 'build/report.txt'.length * 2 + report.length;
    const bin = seededBytes(this.h(80, jobId), Math.max(1024, size - overhead));
    return buildZip([
      { name: 'build/output.bin', data: bin },
      { name: 'build/report.txt', data: report },
    ]);
  }

  // ---- releases ------------------------------------------------------------

  projectReleases(pid: number): ReleaseRec[] {
    const p = this.projects[pid];
    if (!p) return [];
    const out: ReleaseRec[] = [];
    if (p.seeded) {
      const tags = this.tags(pid);
      for (const [i, name] of (['v1.0.0', 'v1.1.0'] as const).entries()) {
        const t = tags.find((x) => x.name === name)!;
        const at = p.createdAt + (i + 1) * 5 * DAY + (this.h(90, pid, i) % 1000);
        out.push({ tagName: name, name: `Release ${name}`, description: `Changes in ${name}.`, createdAt: at, releasedAt: at, authorId: p.creatorId, sha: t.sha });
      }
    }
    const extra = this.releases.get(pid);
    if (extra) out.push(...extra);
    return out.sort((a, b) => b.releasedAt - a.releasedAt);
  }

  // ---- imports ---------------------------------------------------------------

  /** Import status progresses with time: scheduled → started → finished | failed. */
  importState(p: ProjectRec): { status: string; error: string | null } {
    const imp = this.imports.get(p.id);
    if (!imp) return { status: p.importStatus, error: null };
    const t = Date.now() - imp.startedAt;
    if (t < IMPORT_STEP_MS) return { status: 'scheduled', error: null };
    if (t < 2 * IMPORT_STEP_MS) return { status: 'started', error: null };
    if (imp.fails) return { status: 'failed', error: 'Unable to decompress the import archive: the file is not a gzip-compressed tar archive' };
    return { status: 'finished', error: null };
  }

  // ---- spam ------------------------------------------------------------------

  newSpamLog(userId: number): number {
    const id = this.nextSpamLogId++;
    this.spamLogs.set(id, { userId, used: false });
    return id;
  }

  // ---- rendering -------------------------------------------------------------

  base: () => string = () => 'http://127.0.0.1';

  userBasic(u: UserRec): Record<string, unknown> {
    return {
      id: u.id,
      username: u.username,
      name: u.name,
      state: u.state,
      locked: u.state === 'blocked',
      avatar_url: null,
      web_url: `${this.base()}/${u.username}`,
    };
  }

  userJson(u: UserRec, viewer: UserRec | null): Record<string, unknown> {
    const out: Record<string, unknown> = {
      ...this.userBasic(u),
      created_at: iso(u.createdAt),
      bio: '',
      location: '',
      public_email: null,
      linkedin: '',
      twitter: '',
      website_url: '',
      organization: '',
      job_title: '',
      pronouns: null,
      bot: false,
      work_information: null,
    };
    if (viewer && (viewer.isAdmin || viewer.id === u.id)) {
      Object.assign(out, {
        email: u.email,
        is_admin: u.isAdmin,
        last_sign_in_at: iso(u.updatedAt),
        confirmed_at: iso(u.createdAt),
        two_factor_enabled: false,
        external: false,
        namespace_id: this.namespaceId('user', u.id),
        updated_at: iso(u.updatedAt),
      });
    }
    return out;
  }

  namespaceBasic(kind: 'group' | 'user', owner: number): Record<string, unknown> {
    if (kind === 'group') {
      const g = this.groups[owner]!;
      return { id: g.id, name: g.name, path: g.path, kind: 'group', full_path: g.fullPath, parent_id: g.parentId, avatar_url: null, web_url: `${this.base()}/groups/${g.fullPath}` };
    }
    const u = this.users[owner]!;
    return { id: this.namespaceId('user', u.id), name: u.name, path: u.username, kind: 'user', full_path: u.username, parent_id: null, avatar_url: null, web_url: `${this.base()}/${u.username}` };
  }

  namespaceJson(nsId: number): Record<string, unknown> | null {
    const G = this.groups.length - 1;
    if (nsId >= 1 && nsId <= G) return { ...this.namespaceBasic('group', nsId), members_count_with_descendants: 2, billable_members_count: 2, root_repository_size: 0, projects_count: 0 };
    const uid = nsId - G;
    if (uid >= 1 && uid < this.users.length) return { ...this.namespaceBasic('user', uid), billable_members_count: 1, root_repository_size: 0, projects_count: 0 };
    return null;
  }

  projectIdentity(p: ProjectRec): Record<string, unknown> {
    const nsName = p.nsKind === 'group' ? this.groups[p.nsOwner]!.fullName : this.users[p.nsOwner]!.name;
    return {
      id: p.id,
      description: p.description,
      name: p.name,
      name_with_namespace: `${nsName} / ${p.name}`,
      path: p.path,
      path_with_namespace: p.fullPath,
      created_at: iso(p.createdAt),
    };
  }

  /** Read-only view of a project's group shares (no allocation for unshared projects). */
  sharesOf(pid: number): ShareRec[] {
    const m = this.shares.get(pid);
    if (m) return [...m.values()];
    const p = this.projects[pid];
    const G = this.groups.length - 1;
    if (p && p.seeded && pid % 4 === 1) {
      const gid = 1 + ((pid + 1) % G);
      if (!(p.nsKind === 'group' && p.nsOwner === gid)) return [{ groupId: gid, access: 30, expiresAt: null }];
    }
    return [];
  }

  private nsFragCache = new Map<string, { ns: string; nsName: string; owner: string | null; base: string }>();

  private nsFrag(p: ProjectRec): { ns: string; nsName: string; owner: string | null } {
    const key = `${p.nsKind}:${p.nsOwner}`;
    const base = this.base();
    let f = this.nsFragCache.get(key);
    if (!f || f.base !== base) {
      f = {
        ns: JSON.stringify(this.namespaceBasic(p.nsKind, p.nsOwner)),
        nsName: p.nsKind === 'group' ? this.groups[p.nsOwner]!.fullName : this.users[p.nsOwner]!.name,
        owner: p.nsKind === 'user' ? JSON.stringify(this.userBasic(this.users[p.nsOwner]!)) : null,
        base,
      };
      this.nsFragCache.set(key, f);
    }
    return f;
  }

  /**
   * The project entity as JSON text. Built from cached namespace fragments
   * so a page of 100 projects renders in well under a millisecond.
   */
  projectJsonText(p: ProjectRec, viewer: UserRec | null): string {
    const base = this.base();
    const f = this.nsFrag(p);
    const js = JSON.stringify;
    const fp = js(p.fullPath).slice(1, -1);
    const web = `${base}/${fp}`;
    const api = `${base}/api/v4/projects/${p.id}`;
    const host = base.replace(/^https?:\/\//, '').replace(/:\d+$/, '');
    const shares = this.sharesOf(p.id)
      .map((s) => {
        const g = this.groups[s.groupId]!;
        return `{"group_id":${g.id},"group_name":${js(g.name)},"group_full_path":${js(g.fullPath)},"group_access_level":${s.access},"expires_at":${js(s.expiresAt)}}`;
      })
      .join(',');
    return (
      `{"id":${p.id},"description":${js(p.description)},"name":${js(p.name)},"name_with_namespace":${js(`${f.nsName} / ${p.name}`)},` +
      `"path":${js(p.path)},"path_with_namespace":"${fp}","created_at":"${iso(p.createdAt)}","default_branch":"main","tag_list":[],"topics":[],` +
      `"ssh_url_to_repo":"git@${host}:${fp}.git","http_url_to_repo":"${web}.git","web_url":"${web}","readme_url":"${web}/-/blob/main/README.md",` +
      `"forks_count":0,"avatar_url":null,"star_count":${p.starCount},"last_activity_at":"${iso(p.lastActivityAt)}","namespace":${f.ns},` +
      (f.owner ? `"owner":${f.owner},` : '') +
      `"visibility":"${p.visibility}","archived":false,"empty_repo":false,"issues_enabled":true,"merge_requests_enabled":true,"jobs_enabled":true,` +
      `"import_status":${js(this.importState(p).status)},"open_issues_count":${p.seeded ? Math.ceil(this.issueCount(p.id) * 0.75) : 0},` +
      `"creator_id":${p.creatorId},"shared_with_groups":[${shares}],` +
      (viewer?.isAdmin ? `"repository_storage":${js(p.storage)},` : '') +
      `"_links":{"self":"${api}","issues":"${api}/issues","merge_requests":"${api}/merge_requests","repo_branches":"${api}/repository/branches",` +
      `"labels":"${api}/labels","events":"${api}/events","members":"${api}/members","cluster_agents":"${api}/cluster_agents"}}`
    );
  }

  groupJson(g: GroupRec, viewer: UserRec | null): Record<string, unknown> {
    const out: Record<string, unknown> = {
      id: g.id,
      web_url: `${this.base()}/groups/${g.fullPath}`,
      name: g.name,
      path: g.path,
      description: g.description,
      visibility: g.visibility,
      share_with_group_lock: false,
      require_two_factor_authentication: false,
      two_factor_grace_period: 48,
      project_creation_level: 'developer',
      auto_devops_enabled: null,
      subgroup_creation_level: 'owner',
      emails_disabled: false,
      emails_enabled: true,
      mentions_disabled: null,
      lfs_enabled: true,
      default_branch: null,
      default_branch_protection: 2,
      avatar_url: null,
      request_access_enabled: false,
      full_name: g.fullName,
      full_path: g.fullPath,
      created_at: iso(g.createdAt),
      parent_id: g.parentId,
      organization_id: 1,
      shared_runners_setting: 'enabled',
      archived: false,
      marked_for_deletion_on: null,
    };
    if (viewer?.isAdmin) out.repository_storage = g.storage;
    return out;
  }

  snippetJson(s: SnippetRec): Record<string, unknown> {
    const base = this.base();
    return {
      id: s.id,
      title: s.title,
      description: s.description,
      visibility: s.visibility,
      author: this.userBasic(this.users[s.authorId]!),
      created_at: iso(s.createdAt),
      updated_at: iso(s.updatedAt),
      project_id: null,
      web_url: `${base}/-/snippets/${s.id}`,
      raw_url: `${base}/-/snippets/${s.id}/raw`,
      ssh_url_to_repo: `git@${base.replace(/^https?:\/\//, '').replace(/:\d+$/, '')}:snippets/${s.id}.git`,
      http_url_to_repo: `${base}/snippets/${s.id}.git`,
      file_name: s.fileName,
      files: [{ path: s.fileName, raw_url: `${base}/-/snippets/${s.id}/raw/main/${s.fileName}` }],
      imported: false,
      imported_from: 'none',
    };
  }

  canReadSnippet(user: UserRec | null, s: SnippetRec): boolean {
    if (s.visibility === 'public') return true;
    if (!user) return false;
    if (user.isAdmin || s.visibility === 'internal') return true;
    return s.authorId === user.id;
  }

  fileBlob(content: Buffer): { blobId: string; sha256: string } {
    return { blobId: sha1(Buffer.concat([Buffer.from(`blob ${content.length}\0`), content])), sha256: sha256(content) };
  }
}

function cmpStr(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function cmpAny(a: string | number, b: string | number): number {
  return typeof a === 'number' && typeof b === 'number' ? a - b : cmpStr(String(a), String(b));
}

export function userSortValue(u: UserRec, key: string): string | number {
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

export { lowerBound };
