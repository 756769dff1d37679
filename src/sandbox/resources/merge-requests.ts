// Merge requests: lists (project, group with its subgroups, instance), read,
// create, edit (state_event close/reopen), delete (reference endpoints §2).
import { can } from '../access.js';
import { ask, offer } from '../engine/ports.js';
import type { Ctx } from '../server/context.js';
import { ApiError, E } from '../server/errors.js';
import { pageOf } from '../server/paging.js';
import { boolParam, enumParam, intParam, listParam, SORTS, strParam } from '../server/params.js';
import { sendJson, sendList } from '../server/respond.js';
import type { GroupRec, ProjectRec } from '../store/records.js';
import type { World } from '../store/world.js';
import { requireAbility } from './guards.js';
import { MR_ORDER_KEYS, MR_ORDERS, type MergeRequestScope, mergeRequestFilter } from './merge-request-filters.js';
import {
  findMergeRequest,
  sourceHead,
  type MergeRequestRec,
  markMergeRequestsChanged,
  mergeRequestStore,
  mergeRequestTotal,
  projectMergeRequests,
  rechecked,
  removeMergeRequestsAuthoredBy,
  saveMergeRequest,
  seededMergeRequestWindow,
} from './merge-request-store.js';
import { abortAutoMerge } from './merge-request-auto-merge.js';
import { newCheck, rebaseInProgress, uncheck } from './merge-request-checks.js';
import { singleReadExtras } from './merge-request-extras.js';
import { mergeRequestJson } from './merge-request-json.js';
import type { Mounts } from './mounts.js';
import { OrderedScan } from './ordered-scan.js';

const EDITABLE = [
  'assignee_id',
  'assignee_ids',
  'reviewer_ids',
  'description',
  'labels',
  'add_labels',
  'remove_labels',
  'milestone_id',
  'milestone',
  'remove_source_branch',
  'allow_collaboration',
  'allow_maintainer_to_push',
  'squash',
  'target_branch',
  'title',
  'state_event',
  'discussion_locked',
  'merge_after',
];

/** A listing's merge requests in order, kept (with how far it has read) for its next pages until one changes. */
function listingOf(ctx: Ctx, projects: () => ProjectRec[], defaultScope: MergeRequestScope): OrderedScan<MergeRequestRec> {
  const w = ctx.world;
  const store = mergeRequestStore(w);
  const query = Object.entries(ctx.params).filter(([k]) => k !== 'page' && k !== 'per_page');
  const key = JSON.stringify([ctx.user?.id ?? 0, ctx.rawPath, store.version, w.allIds.length, query.sort()]);
  const cached = store.listings.get(key) as OrderedScan<MergeRequestRec> | undefined;
  if (cached) return cached;
  const orderBy = enumParam(ctx, 'order_by', MR_ORDER_KEYS, 'created_at');
  const sort = enumParam(ctx, 'sort', SORTS, 'desc');
  const keep = mergeRequestFilter(ctx, defaultScope);
  const by = MR_ORDERS[orderBy] ? orderBy : 'created_at';
  const scan = new OrderedScan<MergeRequestRec>({
    projects: projects().filter((p) => p.mergeRequestsEnabled),
    records: (p) => (can(w, ctx.user, p, 'read_merge_request') ? projectMergeRequests(w, p.id).filter(keep) : []),
    compare: MR_ORDERS[by]!,
    desc: sort === 'desc',
    key: (mr) => (by === 'updated_at' ? mr.updatedAt : mr.createdAt),
    window: (p) => seededMergeRequestWindow(w, p, by),
  });
  store.listings.set(key, scan);
  if (store.listings.size > 8) store.listings.delete(store.listings.keys().next().value as string);
  return scan;
}

/** Sorted, paged and rendered merge requests of several projects. */
function sendMergeRequests(ctx: Ctx, projects: () => ProjectRec[], defaultScope: MergeRequestScope): void {
  const w = ctx.world;
  const page = pageOf(ctx, listingOf(ctx, projects, defaultScope).forPage(ctx));
  const recheck = boolParam(ctx, 'with_merge_status_recheck') === true;
  sendList(
    ctx,
    page.map((mr) => mergeRequestJson(ctx, w.projects.get(mr.projectId)!, recheck ? rechecked(w, mr, false) : mr, false)),
  );
}

function groupProjects(w: World, g: GroupRec): ProjectRec[] {
  const groups = w.groupSubtree(g.id);
  return w.allIds.map((id) => w.projects.get(id)!).filter((p) => p.nsKind === 'group' && groups.has(p.nsOwner));
}

function labelsParam(ctx: Ctx, name: string): string[] | undefined {
  return listParam(ctx, name)
    ?.map((l) => l.trim())
    .filter(Boolean);
}

/** `assignee_ids`/`reviewer_ids` (`0` or empty clears), or `assignee_id`; ids of no user are dropped. */
function userIds(ctx: Ctx, name: string): number[] | undefined {
  const raw = ctx.params[name];
  if (raw === '' || (Array.isArray(raw) && raw.length === 0)) return [];
  const values = listParam(ctx, name);
  if (values === undefined) return undefined;
  if (values.some((v) => !/^\d+$/.test(v.trim()))) throw E.invalid(name);
  return values.map(Number).filter((id) => id !== 0 && ctx.world.users.get(id));
}

function requireBranch(w: World, p: ProjectRec, name: 'source_branch' | 'target_branch', value: string): void {
  if (!w.repos.hasBranch(p.id, value)) {
    const which = name === 'source_branch' ? 'Source' : 'Target';
    throw new ApiError(409, { message: [`${which} branch "${value}" does not exist`] });
  }
}

/** The model's branch validations: same branch (422), another open MR from the source branch (409). */
function validateBranches(w: World, p: ProjectRec, mr: MergeRequestRec): void {
  if (mr.sourceBranch === mr.targetBranch)
    throw new ApiError(422, { message: ["You can't use same project/branch for source and target"] });
  if (mr.state !== 'opened') return;
  const other = projectMergeRequests(w, p.id).find((x) => x.state === 'opened' && x.sourceBranch === mr.sourceBranch && x.iid !== mr.iid);
  if (other) throw new ApiError(409, { message: [`Another open merge request already exists for this source branch: !${other.iid}`] });
}

/** The fields create and edit share. */
function applyFields(ctx: Ctx, mr: MergeRequestRec): void {
  const description = strParam(ctx, 'description');
  if (description !== undefined) {
    if (description.length > 1_048_576) throw E.validation({ description: ['is too long (maximum is 1048576 characters)'] });
    mr.description = description;
  }
  const labels = labelsParam(ctx, 'labels');
  if (labels !== undefined) mr.labels = labels;
  const add = labelsParam(ctx, 'add_labels') ?? [];
  const remove = new Set(labelsParam(ctx, 'remove_labels') ?? []);
  mr.labels = [...new Set([...mr.labels, ...add])].filter((l) => !remove.has(l));
  const assignee = intParam(ctx, 'assignee_id');
  if (assignee !== undefined) mr.assigneeIds = assignee !== 0 && ctx.world.users.get(assignee) ? [assignee] : [];
  mr.assigneeIds = userIds(ctx, 'assignee_ids') ?? mr.assigneeIds;
  mr.reviewerIds = userIds(ctx, 'reviewer_ids') ?? mr.reviewerIds;
  const removeSource = boolParam(ctx, 'remove_source_branch');
  if (removeSource !== undefined) mr.removeSourceBranch = removeSource;
  mr.squash = boolParam(ctx, 'squash') ?? mr.squash;
}

export function mountMergeRequests({ root, project, group }: Mounts): void {
  offer('mergeRequestTotal', mergeRequestTotal);
  offer('removeMergeRequestsAuthoredBy', removeMergeRequestsAuthoredBy);
  offer('mergeRequestsOf', projectMergeRequests);
  offer('mergeRequestOf', (ctx, p, wanted) => {
    const mr = wanted === undefined ? findMergeRequest(ctx, p) : mergeRequestStore(ctx.world).mrs.get(p.id, wanted);
    if (!mr) throw E.findNotFound();
    const { id, iid, projectId, authorId, assigneeIds, title, description, state, labels } = mr;
    return {
      type: 'MergeRequest',
      ...{ id, iid, projectId, authorId, assigneeIds, title, description, state, labels },
      refs: { sourceSha: sourceHead(ctx.world, mr), target: mr.targetBranch },
      json: () => mergeRequestJson(ctx, p, mr, true),
    };
  });
  root.get('/merge_requests', { auth: 'public' }, (ctx) => {
    const scope = enumParam(ctx, 'scope', [
      'created-by-me',
      'assigned-to-me',
      'created_by_me',
      'assigned_to_me',
      'reviews_for_me',
      'all',
    ] as const);
    if (!ctx.user && scope !== 'all') throw E.unauthorized();
    const w = ctx.world;
    sendMergeRequests(ctx, () => w.visibleIds(ctx.user).map((id) => w.projects.get(id)!), 'created_by_me');
  });
  group.get('/merge_requests', { auth: 'public' }, (ctx, g) => {
    sendMergeRequests(ctx, () => groupProjects(ctx.world, g), 'all');
  });
  project.get('/merge_requests', { auth: 'public', job: true }, (ctx, p) => {
    requireAbility(ctx, p, 'read_merge_request');
    if (!p.mergeRequestsEnabled) throw E.forbidden();
    sendMergeRequests(ctx, () => [p], 'all');
  });
  project.get('/merge_requests/:merge_request_iid', { auth: 'public', job: true }, (ctx, p) => {
    requireAbility(ctx, p, 'read_merge_request');
    const mr = rechecked(ctx.world, findMergeRequest(ctx, p), false);
    const json = { ...mergeRequestJson(ctx, p, mr, true), ...singleReadExtras(ctx, mr) };
    if (boolParam(ctx, 'include_rebase_in_progress')) json.rebase_in_progress = rebaseInProgress(mr);
    sendJson(ctx, 200, json);
  });
  project.post('/merge_requests', { auth: 'user' }, (ctx, p) => {
    const missing = ['title', 'source_branch', 'target_branch'].filter((k) => strParam(ctx, k) === undefined);
    if (missing.length > 0) throw E.missing(...missing);
    requireAbility(ctx, p, 'create_merge_request');
    const title = strParam(ctx, 'title')!;
    if (title.trim() === '') throw E.validation({ title: ["can't be blank"] });
    const source = strParam(ctx, 'source_branch')!;
    const target = strParam(ctx, 'target_branch')!;
    const store = mergeRequestStore(ctx.world);
    const iid = Math.max(0, ...store.mrs.list(p.id).map((mr) => mr.iid)) + 1;
    const now = Date.now();
    const mr: MergeRequestRec = {
      id: store.nextId,
      iid,
      projectId: p.id,
      title,
      description: '',
      state: 'opened',
      sourceBranch: source,
      targetBranch: target,
      createdAt: now,
      updatedAt: now,
      closedAt: null,
      closedById: null,
      mergedAt: null,
      mergedById: null,
      mergeCommitSha: null,
      squashCommitSha: null,
      authorId: ctx.user!.id,
      assigneeIds: [],
      reviewerIds: [],
      labels: [],
      conflicts: false,
      approvalsRequired: 0,
      approvals: [],
      squash: false,
      removeSourceBranch: null,
      autoMerge: false,
      upvotes: 0,
      seededNotes: 0,
      deletedNotes: [],
      createdNotes: [],
      editedNotes: [],
      ...newCheck(now),
    };
    applyFields(ctx, mr);
    validateBranches(ctx.world, p, mr);
    requireBranch(ctx.world, p, 'source_branch', source);
    requireBranch(ctx.world, p, 'target_branch', target);
    store.nextId++;
    markMergeRequestsChanged(ctx.world, p.id);
    store.mrs.insert(p.id, iid, mr);
    ask('mergeRequestOpened')(ctx.world, mr);
    sendJson(ctx, 201, mergeRequestJson(ctx, p, mr, true));
  });
  project.put('/merge_requests/:merge_request_iid', { auth: 'user' }, (ctx, p) => {
    const found = findMergeRequest(ctx, p);
    if (!EDITABLE.some((k) => ctx.params[k] !== undefined)) throw E.atLeastOne(...EDITABLE);
    const stateEvent = enumParam(ctx, 'state_event', ['close', 'reopen'] as const);
    if (found.authorId !== ctx.user!.id) requireAbility(ctx, p, 'update_merge_request');
    let mr: MergeRequestRec = { ...found, updatedAt: Date.now() };
    for (const key of ['title', 'target_branch'] as const) {
      const value = strParam(ctx, key);
      if (value === undefined) continue;
      if (value.trim() === '') throw E.validation({ [key]: ["can't be blank"] });
      if (key === 'title') mr.title = value;
      else {
        requireBranch(ctx.world, p, key, value);
        if (value !== mr.targetBranch) mr = uncheck({ ...mr, targetBranch: value });
      }
    }
    applyFields(ctx, mr);
    if (stateEvent === 'close' && mr.state === 'opened') {
      Object.assign(mr, { state: 'closed', closedAt: mr.updatedAt, closedById: ctx.user!.id });
      mr = abortAutoMerge(ctx.world, mr, ctx.user!.id, 'merge request was closed');
    }
    if (stateEvent === 'reopen' && mr.state === 'closed') Object.assign(mr, { state: 'opened', closedAt: null, closedById: null });
    validateBranches(ctx.world, p, mr);
    saveMergeRequest(ctx.world, mr);
    sendJson(ctx, 200, mergeRequestJson(ctx, p, mr, true));
  });
  project.delete('/merge_requests/:merge_request_iid', { auth: 'user' }, (ctx, p) => {
    const mr = findMergeRequest(ctx, p);
    requireAbility(ctx, p, 'delete_merge_request');
    markMergeRequestsChanged(ctx.world, p.id);
    mergeRequestStore(ctx.world).mrs.remove(p.id, mr.iid);
    sendJson(ctx, 204, null);
  });
}
