// Project issues: list with the service's filters, read, create, edit, delete
// (reference endpoints §1). Seeded issues are derived from (seed, project, iid).
import { can } from '../access.js';
import type { Ctx } from '../server/context.js';
import { E } from '../server/errors.js';
import { pageOf } from '../server/paging.js';
import { enumParam, intParam, intSeg, listParam, SORTS, strParam } from '../server/params.js';
import { sendJson, sendList } from '../server/respond.js';
import { ChildCollection, cmp, type Compare, ordered, storeFor } from '../store/collection.js';
import type { IssueRec, ProjectRec } from '../store/records.js';
import { ISSUE_TITLES } from '../store/seed.js';
import type { World } from '../store/world.js';
import { iso } from '../util.js';
import { requireAbility } from './guards.js';
import { issueFilter } from './issue-filters.js';
import type { Mounts } from './mounts.js';
import { userBasic } from './users.js';

const ISSUE_SLOTS = 8;
const DAY = 86_400_000;

function seededIssueCount(w: World, pid: number): number {
  const p = w.projects.get(pid);
  if (!p?.seeded) return 0;
  return pid === 1 ? 6 : 2 + (w.h(50, pid) % (ISSUE_SLOTS - 1));
}

function deriveIssue(w: World, pid: number, iid: number): IssueRec | null {
  if (!Number.isInteger(iid) || iid < 1 || iid > seededIssueCount(w, pid)) return null;
  const p = w.projects.get(pid)!;
  const h = w.h(52, pid, iid);
  const created = p.createdAt + iid * 3 * 3_600_000 + (h % 1000);
  const closed = iid % 4 === 0;
  const updated = created + ((h >>> 4) % (5 * DAY));
  const authorId = 1 + ((h >>> 8) % w.users.size);
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
    assigneeId: (h >>> 24) % 3 === 0 ? 1 + ((h >>> 26) % w.users.size) : null,
    upvotes: (h >>> 20) % 5,
    userNotesCount: pid === 1 && iid === 1 ? 45 : w.h(51, pid, iid) % 6,
  };
}

interface IssueStore {
  issues: ChildCollection<number, IssueRec>;
  nextId: number;
  /** projects whose issues were created, edited or deleted */
  changed: Set<number>;
}

const issueStore = storeFor<IssueStore>((w) => ({
  issues: new ChildCollection<number, IssueRec>({
    seededKeys: (pid) => Array.from({ length: seededIssueCount(w, pid) }, (_, i) => i + 1),
    derive: (pid, iid) => deriveIssue(w, pid, iid),
  }),
  nextId: 100 + w.seededProjects * ISSUE_SLOTS + 1,
  changed: new Set(),
}));

/** Open issues of a project; seeded issues close every fourth iid, so no derivation is needed until one changes. */
export function openIssueCount(w: World, pid: number): number {
  const store = issueStore(w);
  if (!store.changed.has(pid)) {
    const n = seededIssueCount(w, pid);
    return n - Math.floor(n / 4);
  }
  return store.issues.list(pid).filter((i) => i.state === 'opened').length;
}

function issueJson(w: World, p: ProjectRec, i: IssueRec): Record<string, unknown> {
  const user = (id: number | null) => (id === null ? null : userBasic(w, w.users.get(id)!));
  const assignee = user(i.assigneeId);
  return {
    id: i.id,
    iid: i.iid,
    project_id: i.projectId,
    title: i.title,
    description: i.description,
    state: i.state,
    created_at: iso(i.createdAt),
    updated_at: iso(i.updatedAt),
    closed_at: i.closedAt === null ? null : iso(i.closedAt),
    closed_by: user(i.closedById),
    labels: i.labels,
    milestone:
      i.milestone === null
        ? null
        : {
            id: 1,
            iid: 1,
            project_id: p.id,
            title: i.milestone,
            description: null,
            state: 'active',
            due_date: null,
            start_date: null,
            web_url: `${w.base()}/${p.fullPath}/-/milestones/1`,
          },
    assignees: assignee ? [assignee] : [],
    assignee,
    author: user(i.authorId),
    type: 'ISSUE',
    user_notes_count: i.userNotesCount,
    merge_requests_count: 0,
    upvotes: i.upvotes,
    downvotes: 0,
    due_date: null,
    confidential: false,
    discussion_locked: null,
    issue_type: 'issue',
    web_url: `${w.base()}/${p.fullPath}/-/issues/${i.iid}`,
    time_stats: { time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null },
    task_completion_status: { count: 0, completed_count: 0 },
    references: { short: `#${i.iid}`, relative: `#${i.iid}`, full: `${p.fullPath}#${i.iid}` },
  };
}

const ORDERS: Record<string, Compare<IssueRec>> = {
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

/** The issue of `:issue_iid`; a missing one is `.find`'s 404 (lowercase "f"). */
export function findIssue(ctx: Ctx, p: ProjectRec, notFound = E.findNotFound): IssueRec {
  const i = issueStore(ctx.world).issues.get(p.id, intSeg(ctx, 'issue_iid'));
  if (!i) throw notFound();
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

/** `assignee_id`; an id that names no user assigns nobody, as the service drops unknown assignees. */
function assigneeParam(ctx: Ctx): number | null | undefined {
  const id = intParam(ctx, 'assignee_id');
  if (id === undefined) return undefined;
  return ctx.world.users.get(id) ? id : null;
}

function save(ctx: Ctx, p: ProjectRec, i: IssueRec): void {
  const store = issueStore(ctx.world);
  store.changed.add(p.id);
  store.issues.update(p.id, i.iid, i);
}

export function mountIssues({ project }: Mounts): void {
  project.get('/issues', { auth: 'public' }, (ctx, p) => {
    requireAbility(ctx, p, 'read_issue');
    const orderBy = enumParam(ctx, 'order_by', ORDER_KEYS, 'created_at');
    const sort = enumParam(ctx, 'sort', SORTS, 'desc');
    const keep = issueFilter(ctx);
    const list = issueStore(ctx.world).issues.list(p.id).filter(keep);
    const page = pageOf(ctx, ordered(list, ORDERS, ORDERS[orderBy] ? orderBy : 'created_at', sort));
    sendList(
      ctx,
      page.map((i) => issueJson(ctx.world, p, i)),
    );
  });
  project.get('/issues/:issue_iid', { auth: 'public' }, (ctx, p) => {
    requireAbility(ctx, p, 'read_issue');
    sendJson(ctx, 200, issueJson(ctx.world, p, findIssue(ctx, p)));
  });
  project.post('/issues', { auth: 'user' }, (ctx, p) => {
    requireAbility(ctx, p, 'create_issue');
    const title = strParam(ctx, 'title');
    if (title === undefined) throw E.missing('title');
    if (title.trim() === '') throw E.validation({ title: ["can't be blank"] });
    const store = issueStore(ctx.world);
    store.changed.add(p.id);
    const iid = Math.max(0, ...store.issues.list(p.id).map((i) => i.iid)) + 1;
    const now = Date.now();
    const rec: IssueRec = {
      id: store.nextId++,
      iid,
      projectId: p.id,
      title,
      description: strParam(ctx, 'description') ?? '',
      state: 'opened',
      createdAt: now,
      updatedAt: now,
      closedAt: null,
      closedById: null,
      labels: labelsParam(ctx, 'labels') ?? [],
      milestone: null,
      authorId: ctx.user!.id,
      assigneeId: assigneeParam(ctx) ?? null,
      upvotes: 0,
      userNotesCount: 0,
    };
    store.issues.insert(p.id, iid, rec);
    sendJson(ctx, 201, issueJson(ctx.world, p, rec));
  });
  project.put('/issues/:issue_iid', { auth: 'user' }, (ctx, p) => {
    const found = findIssue(ctx, p);
    if (!EDITABLE.some((k) => ctx.params[k] !== undefined)) throw E.atLeastOne(...EDITABLE);
    const stateEvent = enumParam(ctx, 'state_event', ['close', 'reopen'] as const);
    if (found.authorId !== ctx.user!.id) requireAbility(ctx, p, 'update_issue');
    const i: IssueRec = { ...found, updatedAt: Date.now() };
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
    if (stateEvent === 'close' && i.state === 'opened')
      Object.assign(i, { state: 'closed', closedAt: i.updatedAt, closedById: ctx.user!.id });
    if (stateEvent === 'reopen' && i.state === 'closed') Object.assign(i, { state: 'opened', closedAt: null, closedById: null });
    save(ctx, p, i);
    sendJson(ctx, 200, issueJson(ctx.world, p, i));
  });
  project.delete('/issues/:issue_iid', { auth: 'user' }, (ctx, p) => {
    // The delete route looks the issue up with not_found!('Issue').
    const i = findIssue(ctx, p, () => E.notFound('Issue'));
    if (!can(ctx.world, ctx.user, p, 'delete_issue')) throw E.forbidden();
    const store = issueStore(ctx.world);
    store.changed.add(p.id);
    store.issues.remove(p.id, i.iid);
    sendJson(ctx, 204, null);
  });
}
