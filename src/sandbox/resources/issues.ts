// Issues: project, group and instance lists with the service's filters, read,
// create, edit, delete (reference endpoints §1). Seeded issues are derived from
// (seed, project, iid).
import { can } from '../access.js';
import { offer } from '../engine/ports.js';
import type { Ctx } from '../server/context.js';
import { ApiError, E } from '../server/errors.js';
import { pageOf } from '../server/paging.js';
import { boolParam, enumParam, intParam, intSeg, listParam, SORTS, strParam } from '../server/params.js';
import { sendJson, sendList } from '../server/respond.js';
import { ChildCollection, cmp, type Compare, storeFor } from '../store/collection.js';
import type { IssueRec, ProjectRec, UserRec } from '../store/records.js';
import { ISSUE_TITLES } from '../store/seed.js';
import type { World } from '../store/world.js';
import { requireAbility } from './guards.js';
import { type Issue, issueFilter } from './issue-filters.js';
import { issueJson, singleIssueJson } from './issue-json.js';
import type { Mounts } from './mounts.js';
import { OrderedScan } from './ordered-scan.js';

const ISSUE_SLOTS = 8;
const DAY = 86_400_000;

function seededIssueCount(w: World, pid: number): number {
  const p = w.projects.get(pid);
  if (!p?.seeded) return 0;
  return pid === 1 ? 6 : 2 + (w.h(50, pid) % (ISSUE_SLOTS - 1));
}

export function deriveIssue(w: World, pid: number, iid: number): IssueRec | null {
  if (!Number.isInteger(iid) || iid < 1 || iid > seededIssueCount(w, pid)) return null;
  const p = w.projects.get(pid)!;
  const h = w.h(52, pid, iid);
  const created = p.createdAt + iid * 3 * 3_600_000 + (h % 1000);
  const closed = iid % 4 === 0;
  const updated = created + ((h >>> 4) % (5 * DAY));
  const authorId = 1 + ((h >>> 8) % w.seededUserCount);
  const labels = (h >>> 16) % 2 ? ['bug'] : ['feature'];
  if ((h >>> 18) % 3 === 0) labels.push('backend');
  return {
    id: 100 + (pid - 1) * ISSUE_SLOTS + iid,
    iid,
    projectId: pid,
    title: ISSUE_TITLES[(h >>> 12) % ISSUE_TITLES.length]!,
    description: `Steps to reproduce for issue ${iid}.`,
    state: closed ? 'closed' : 'opened',
    createdAt: created,
    updatedAt: updated,
    closedAt: closed ? updated : null,
    closedById: closed ? authorId : null,
    labels,
    milestone: (h >>> 22) % 3 === 0 ? 'v1.0' : null,
    authorId,
    assigneeId: (h >>> 24) % 3 === 0 ? 1 + ((h >>> 26) % w.seededUserCount) : null,
    upvotes: (h >>> 20) % 5,
    userNotesCount: pid === 1 && iid === 1 ? 45 : w.h(51, pid, iid) % 6,
  };
}

interface IssueStore {
  issues: ChildCollection<number, Issue>;
  nextId: number;
  /** projects whose issues were created, edited or deleted */
  changed: Set<number>;
  /** bumped by every write, so cached listings are rebuilt */
  version: number;
  listings: Map<string, OrderedScan<[Issue, ProjectRec]>>;
}

export const issueStore = storeFor<IssueStore>((w) => ({
  issues: new ChildCollection<number, Issue>({
    seededKeys: (pid) => Array.from({ length: seededIssueCount(w, pid) }, (_, i) => i + 1),
    derive: (pid, iid) => deriveIssue(w, pid, iid),
  }),
  nextId: 100 + w.seededProjects * ISSUE_SLOTS + 1,
  changed: new Set(),
  version: 0,
  listings: new Map(),
}));

/** Open issues of a project; seeded issues close every fourth iid, so no derivation is needed until one changes. */
function openIssueCount(w: World, pid: number): number {
  const store = issueStore(w);
  if (!store.changed.has(pid)) {
    const n = seededIssueCount(w, pid);
    return n - Math.floor(n / 4);
  }
  return store.issues.list(pid).filter((i) => i.state === 'opened').length;
}

const ORDERS: Record<string, Compare<Issue>> = {
  created_at: (a, b) => a.createdAt - b.createdAt || a.id - b.id,
  updated_at: (a, b) => a.updatedAt - b.updatedAt || a.id - b.id,
  title: (a, b) => cmp(a.title.toLowerCase(), b.title.toLowerCase()) || a.id - b.id,
  popularity: (a, b) => a.upvotes - b.upvotes || a.id - b.id,
};
const ORDER_KEYS = [
  'created_at',
  'updated_at',
  'priority',
  'due_date',
  'relative_position',
  'label_priority',
  'milestone_due',
  'popularity',
  'title',
] as const;

/** Confidential issues show only to reporters and above, their author and their assignee. */
function canSeeIssue(w: World, user: UserRec | null, p: ProjectRec, i: Issue): boolean {
  if (!i.confidential) return true;
  if (!user) return false;
  return can(w, user, p, 'update_issue') || i.authorId === user.id || i.assigneeId === user.id;
}

/** The issue of `:issue_iid` (or `iid`); a missing one is `.find`'s 404 (lowercase "f"). */
export function findIssue(ctx: Ctx, p: ProjectRec, notFound = E.findNotFound, iid = intSeg(ctx, 'issue_iid')): Issue {
  const i = issueStore(ctx.world).issues.get(p.id, iid);
  if (!i || !canSeeIssue(ctx.world, ctx.user, p, i)) throw notFound();
  return i;
}

const EDITABLE = [
  'assignee_id',
  'assignee_ids',
  'confidential',
  'created_at',
  'description',
  'discussion_locked',
  'due_date',
  'labels',
  'add_labels',
  'remove_labels',
  'milestone_id',
  'state_event',
  'title',
  'issue_type',
];

function labelsParam(ctx: Ctx, name: string): string[] | undefined {
  return listParam(ctx, name)
    ?.map((l) => l.trim())
    .filter(Boolean);
}

/**
 * `assignee_ids` (CE keeps the first) or `assignee_id`; an id that names no user assigns nobody,
 * as the service drops unknown assignees, and `0` or an empty list clears.
 */
function assigneeParam(ctx: Ctx): number | null | undefined {
  const ids = listParam(ctx, 'assignee_ids');
  if (ctx.params.assignee_ids !== undefined && !ids) return null;
  if (ids?.some((v) => !/^\d+$/.test(v.trim()))) throw E.invalid('assignee_ids');
  const id = ids ? Number(ids[0]) : intParam(ctx, 'assignee_id');
  if (id === undefined) return undefined;
  return ctx.world.users.get(id) ? id : null;
}

/** The sandbox's projects have one milestone, `v1.0` (id 1); `milestone_id=0` clears. */
function milestoneParam(ctx: Ctx): string | null | undefined {
  if (ctx.params.milestone_id !== undefined && ctx.params.milestone !== undefined) {
    throw new ApiError(400, { error: 'milestone_id, milestone are mutually exclusive' });
  }
  const id = intParam(ctx, 'milestone_id');
  if (id === 0) return null;
  const title = strParam(ctx, 'milestone');
  if (id === undefined && title === undefined) return undefined;
  if (id === 1 || title === 'v1.0') return 'v1.0';
  throw E.notFound('Milestone');
}

function dueDateParam(ctx: Ctx): string | null | undefined {
  const v = strParam(ctx, 'due_date');
  if (v === undefined) return undefined;
  if (v === '') return null;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v) || Number.isNaN(Date.parse(v))) throw E.invalid('due_date');
  return v;
}

function markChanged(store: IssueStore, pid: number): void {
  store.changed.add(pid);
  store.version++;
}

/** A new issue of the project, with the next iid and id. */
export function addIssue(w: World, pid: number, fields: Omit<Issue, 'id' | 'iid' | 'projectId'>): Issue {
  const store = issueStore(w);
  markChanged(store, pid);
  const iid = Math.max(0, ...store.issues.list(pid).map((i) => i.iid)) + 1;
  const rec: Issue = { id: store.nextId++, iid, projectId: pid, ...fields };
  store.issues.insert(pid, iid, rec);
  return rec;
}

export function saveIssue(ctx: Ctx, p: ProjectRec, i: Issue): void {
  const store = issueStore(ctx.world);
  markChanged(store, p.id);
  store.issues.update(p.id, i.iid, i);
}

/** Where the seeded issues of a project fall in time, by the orders that have such a window. */
function seededWindow(store: IssueStore, p: ProjectRec, orderBy: string): [number, number] | null {
  if (!p.seeded || store.changed.has(p.id)) return null;
  const created: [number, number] = [p.createdAt + 3 * 3_600_000, p.createdAt + ISSUE_SLOTS * 3 * 3_600_000 + 999];
  if (orderBy === 'created_at') return created;
  return orderBy === 'updated_at' ? [created[0], created[1] + 5 * DAY] : null;
}

/** A listing's issues in order, kept (with how far it has read) for its next pages until an issue changes. */
function listingOf(ctx: Ctx, projects: () => ProjectRec[], keep: (i: Issue) => boolean): OrderedScan<[Issue, ProjectRec]> {
  const store = issueStore(ctx.world);
  const query = Object.entries(ctx.params).filter(([k]) => k !== 'page' && k !== 'per_page');
  const key = JSON.stringify([ctx.user?.id ?? 0, ctx.rawPath, store.version, ctx.world.allIds.length, query.sort()]);
  let scan = store.listings.get(key);
  if (!scan) {
    const orderBy = enumParam(ctx, 'order_by', ORDER_KEYS, 'created_at');
    const by = ORDERS[orderBy] ? orderBy : 'created_at';
    const compare = ORDERS[by]!;
    scan = new OrderedScan<[Issue, ProjectRec]>({
      projects: projects(),
      records: (p) => {
        if (!can(ctx.world, ctx.user, p, 'read_issue')) return [];
        const kept: Array<[Issue, ProjectRec]> = [];
        for (const i of store.issues.list(p.id)) if (keep(i) && canSeeIssue(ctx.world, ctx.user, p, i)) kept.push([i, p]);
        return kept;
      },
      compare: (a, b) => compare(a[0], b[0]),
      desc: enumParam(ctx, 'sort', SORTS, 'desc') === 'desc',
      key: ([i]) => (by === 'updated_at' ? i.updatedAt : i.createdAt),
      window: (p) => seededWindow(store, p, by),
    });
    store.listings.set(key, scan);
    if (store.listings.size > 8) store.listings.delete(store.listings.keys().next().value as string);
  }
  return scan;
}

/** The issues of these projects that the caller may see and the filters keep, ordered and paged. */
function sendIssues(ctx: Ctx, projects: () => ProjectRec[], keep = issueFilter(ctx)): void {
  const listing = listingOf(ctx, projects, keep).forPage(ctx);
  sendList(
    ctx,
    pageOf(ctx, listing).map(([i, p]) => issueJson(ctx.world, p, i)),
  );
}

/** Projects whose issues a listing over many projects covers: issues on, not archived unless asked (readable: checked as read). */
function issueProjects(ctx: Ctx, inScope: (p: ProjectRec) => boolean): ProjectRec[] {
  const w = ctx.world;
  const withArchived = boolParam(ctx, 'non_archived') === false;
  const out: ProjectRec[] = [];
  for (const id of w.visibleIds(ctx.user)) {
    const p = w.projects.get(id)!;
    if (inScope(p) && p.issuesEnabled && (!p.archived || withArchived)) out.push(p);
  }
  return out;
}

export function mountIssues({ root, project, group }: Mounts): void {
  offer('issueTotals', issueTotals);
  offer('removeIssuesAuthoredBy', removeIssuesAuthoredBy);
  offer('findIssue', findIssue);
  offer('saveIssue', saveIssue);
  offer('deriveIssue', deriveIssue);
  offer('issuesOf', (w, pid) => issueStore(w).issues.list(pid));
  offer('openIssueCount', openIssueCount);
  offer('issueOf', (ctx, p, wanted) => {
    const i = findIssue(ctx, p, E.findNotFound, wanted);
    const { id, iid, projectId, authorId, title, description, state } = i;
    const assigneeIds = i.assigneeId === null ? [] : [i.assigneeId];
    const labels = i.labels;
    return {
      type: 'Issue',
      id,
      iid,
      projectId,
      authorId,
      assigneeIds,
      title,
      description,
      state,
      labels,
      json: () => issueJson(ctx.world, p, i),
    };
  });
  project.get('/issues', { auth: 'public', job: true }, (ctx, p) => {
    requireAbility(ctx, p, 'read_issue');
    sendIssues(ctx, () => [p]);
  });
  group.get('/issues', { auth: 'public' }, (ctx, g) => {
    const groups = ctx.world.groupSubtree(g.id);
    sendIssues(ctx, () => issueProjects(ctx, (p) => p.nsKind === 'group' && groups.has(p.nsOwner)));
  });
  root.get('/issues', { auth: 'public' }, (ctx) => {
    // Without a token only `scope=all` is answered; the default scope is the caller's own issues.
    if (!ctx.user && strParam(ctx, 'scope') !== 'all') throw E.unauthorized();
    sendIssues(ctx, () => issueProjects(ctx, () => true), issueFilter(ctx, 'created_by_me'));
  });
  project.get('/issues/:issue_iid', { auth: 'public', job: true }, (ctx, p) => {
    requireAbility(ctx, p, 'read_issue');
    sendJson(ctx, 200, singleIssueJson(ctx, p, findIssue(ctx, p)));
  });
  project.post('/issues', { auth: 'user' }, (ctx, p) => {
    requireAbility(ctx, p, 'create_issue');
    const title = strParam(ctx, 'title');
    if (title === undefined) throw E.missing('title');
    if (title.trim() === '') throw E.validation({ title: ["can't be blank"] });
    const assigneeId = assigneeParam(ctx) ?? null;
    const milestone = milestoneParam(ctx) ?? null;
    const dueDate = dueDateParam(ctx) ?? null;
    const confidential = boolParam(ctx, 'confidential') ?? false;
    const now = ctx.world.now();
    const rec = addIssue(ctx.world, p.id, {
      title,
      description: strParam(ctx, 'description') ?? '',
      state: 'opened',
      createdAt: now,
      updatedAt: now,
      closedAt: null,
      closedById: null,
      labels: labelsParam(ctx, 'labels') ?? [],
      milestone,
      authorId: ctx.user!.id,
      assigneeId,
      upvotes: 0,
      userNotesCount: 0,
      confidential,
      dueDate,
    });
    sendJson(ctx, 201, issueJson(ctx.world, p, rec));
  });
  project.put('/issues/:issue_iid', { auth: 'user' }, (ctx, p) => {
    const found = findIssue(ctx, p);
    if (![...EDITABLE, 'milestone'].some((k) => ctx.params[k] !== undefined)) throw E.atLeastOne(...EDITABLE);
    const stateEvent = enumParam(ctx, 'state_event', ['close', 'reopen'] as const);
    if (found.authorId !== ctx.user!.id) requireAbility(ctx, p, 'update_issue');
    const i: Issue = { ...found, updatedAt: ctx.world.now() };
    const title = strParam(ctx, 'title');
    if (title !== undefined) i.title = title;
    const description = strParam(ctx, 'description');
    if (description !== undefined) i.description = description;
    const labels = labelsParam(ctx, 'labels');
    if (labels !== undefined) i.labels = labels;
    const add = labelsParam(ctx, 'add_labels') ?? [];
    const remove = new Set(labelsParam(ctx, 'remove_labels') ?? []);
    i.labels = [...new Set([...i.labels, ...add])].filter((l) => !remove.has(l));
    const assignee = assigneeParam(ctx);
    if (assignee !== undefined) i.assigneeId = assignee;
    const milestone = milestoneParam(ctx);
    if (milestone !== undefined) i.milestone = milestone;
    const dueDate = dueDateParam(ctx);
    if (dueDate !== undefined) i.dueDate = dueDate;
    const confidential = boolParam(ctx, 'confidential');
    if (confidential !== undefined) i.confidential = confidential;
    if (stateEvent === 'close' && i.state === 'opened')
      Object.assign(i, { state: 'closed', closedAt: i.updatedAt, closedById: ctx.user!.id });
    if (stateEvent === 'reopen' && i.state === 'closed') Object.assign(i, { state: 'opened', closedAt: null, closedById: null });
    saveIssue(ctx, p, i);
    sendJson(ctx, 200, issueJson(ctx.world, p, i));
  });
  project.delete('/issues/:issue_iid', { auth: 'user' }, (ctx, p) => {
    // The delete route looks the issue up with not_found!('Issue').
    const i = findIssue(ctx, p, () => E.notFound('Issue'));
    if (!can(ctx.world, ctx.user, p, 'delete_issue')) throw E.forbidden();
    const store = issueStore(ctx.world);
    markChanged(store, p.id);
    store.issues.remove(p.id, i.iid);
    sendJson(ctx, 204, null);
  });
}

/** A hard user deletion: every issue the user authored goes, in every project. */
function removeIssuesAuthoredBy(w: World, userId: number): void {
  const store = issueStore(w);
  for (const pid of w.allIds) {
    for (const i of store.issues.list(pid)) {
      if (i.authorId !== userId) continue;
      markChanged(store, pid);
      store.issues.remove(pid, i.iid);
    }
  }
}

/** Issues of the whole instance, and their notes (`GET /application/statistics`). */
function issueTotals(w: World): { issues: number; notes: number } {
  const store = issueStore(w);
  let issues = 0;
  let notes = 0;
  for (const pid of w.allIds) {
    for (const i of store.issues.list(pid)) {
      issues++;
      notes += i.userNotesCount;
    }
  }
  return { issues, notes };
}
