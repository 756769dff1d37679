// The filters and orders of the merge request lists (reference endpoints §2, list params).
import type { Ctx } from '../server/context.js';
import { ApiError, E } from '../server/errors.js';
import { boolParam, enumParam, listParam, strParam, timeParam } from '../server/params.js';
import { cmp, type Compare } from '../store/collection.js';
import { isDraft, type MergeRequestRec } from './merge-request-store.js';

const SCOPES = ['created-by-me', 'assigned-to-me', 'created_by_me', 'assigned_to_me', 'reviews_for_me', 'all'] as const;
export type MergeRequestScope = (typeof SCOPES)[number];
const IN = ['title', 'description', 'title,description', 'description,title'] as const;

export const MR_ORDERS: Record<string, Compare<MergeRequestRec>> = {
  created_at: (a, b) => a.createdAt - b.createdAt || a.id - b.id,
  updated_at: (a, b) => a.updatedAt - b.updatedAt || a.id - b.id,
  merged_at: (a, b) => (a.mergedAt ?? 0) - (b.mergedAt ?? 0) || a.id - b.id,
  title: (a, b) => cmp(a.title.toLowerCase(), b.title.toLowerCase()) || a.id - b.id,
  popularity: (a, b) => a.upvotes - b.upvotes || a.id - b.id,
};
export const MR_ORDER_KEYS = [
  'created_at',
  'label_priority',
  'milestone_due',
  'popularity',
  'priority',
  'title',
  'updated_at',
  'merged_at',
] as const;

function exclusive(ctx: Ctx, a: string, b: string): void {
  if (ctx.params[a] !== undefined && ctx.params[b] !== undefined) throw new ApiError(400, { error: `${a}, ${b} are mutually exclusive` });
}

/** A user filter given as `<x>_id` (an id, `None` or `Any`) xor `<x>_username`. */
function userFilter(
  ctx: Ctx,
  prefix: string,
  ids: (mr: MergeRequestRec) => number[],
  tests: Array<(mr: MergeRequestRec) => boolean>,
): void {
  exclusive(ctx, `${prefix}_id`, `${prefix}_username`);
  const id = strParam(ctx, `${prefix}_id`);
  if (id === 'None') tests.push((mr) => ids(mr).length === 0);
  else if (id === 'Any') tests.push((mr) => ids(mr).length > 0);
  else if (id !== undefined && id !== '') {
    if (!/^\d+$/.test(id)) throw E.invalid(`${prefix}_id`);
    tests.push((mr) => ids(mr).includes(Number(id)));
  }
  const name = strParam(ctx, `${prefix}_username`);
  if (name !== undefined) {
    const uid = ctx.world.usersByName.get(name.toLowerCase()) ?? 0;
    tests.push((mr) => ids(mr).includes(uid));
  }
}

export function mergeRequestFilter(ctx: Ctx, defaultScope: MergeRequestScope): (mr: MergeRequestRec) => boolean {
  const tests: Array<(mr: MergeRequestRec) => boolean> = [];
  const state = enumParam(ctx, 'state', ['opened', 'closed', 'locked', 'merged', 'all'] as const, 'all');
  if (state !== 'all') tests.push((mr) => mr.state === state);
  const labels = listParam(ctx, 'labels')
    ?.map((l) => l.trim())
    .filter(Boolean);
  if (labels && labels.length > 0) {
    if (labels.length === 1 && labels[0] === 'None') tests.push((mr) => mr.labels.length === 0);
    else if (labels.length === 1 && labels[0] === 'Any') tests.push((mr) => mr.labels.length > 0);
    else tests.push((mr) => labels.every((l) => mr.labels.includes(l)));
  }
  userFilter(ctx, 'author', (mr) => [mr.authorId], tests);
  userFilter(ctx, 'assignee', (mr) => mr.assigneeIds, tests);
  userFilter(ctx, 'reviewer', (mr) => mr.reviewerIds, tests);
  const me = ctx.user?.id ?? 0;
  const scope = enumParam(ctx, 'scope', SCOPES, defaultScope);
  if (scope === 'created-by-me' || scope === 'created_by_me') tests.push((mr) => mr.authorId === me);
  if (scope === 'assigned-to-me' || scope === 'assigned_to_me') tests.push((mr) => mr.assigneeIds.includes(me));
  if (scope === 'reviews_for_me') tests.push((mr) => mr.reviewerIds.includes(me));
  for (const key of ['source_branch', 'target_branch'] as const) {
    const branch = strParam(ctx, key);
    if (branch !== undefined) tests.push((mr) => (key === 'source_branch' ? mr.sourceBranch : mr.targetBranch) === branch);
  }
  const search = strParam(ctx, 'search');
  if (search) {
    const within = enumParam(ctx, 'in', IN, 'title,description');
    const q = search.toLowerCase();
    tests.push(
      (mr) =>
        (within.includes('title') && mr.title.toLowerCase().includes(q)) ||
        (within.includes('description') && mr.description.toLowerCase().includes(q)),
    );
  }
  exclusive(ctx, 'wip', 'draft');
  const wip = enumParam(ctx, 'wip', ['yes', 'no'] as const);
  const draft = wip === undefined ? boolParam(ctx, 'draft') : wip === 'yes';
  if (draft !== undefined) tests.push((mr) => isDraft(mr.title) === draft);
  const iids = listParam(ctx, 'iids');
  if (iids !== undefined) {
    if (iids.some((v) => !/^\d+$/.test(v))) throw E.invalid('iids');
    const wanted = new Set(iids.map(Number));
    tests.push((mr) => wanted.has(mr.iid));
  }
  const range: Array<[string, (mr: MergeRequestRec) => number | null, 1 | -1]> = [
    ['created_after', (mr) => mr.createdAt, 1],
    ['created_before', (mr) => mr.createdAt, -1],
    ['updated_after', (mr) => mr.updatedAt, 1],
    ['updated_before', (mr) => mr.updatedAt, -1],
    ['merged_after', (mr) => mr.mergedAt, 1],
    ['merged_before', (mr) => mr.mergedAt, -1],
  ];
  for (const [name, value, dir] of range) {
    const t = timeParam(ctx, name);
    if (t === undefined) continue;
    tests.push((mr) => {
      const v = value(mr);
      return v !== null && (dir === 1 ? v >= t : v <= t);
    });
  }
  return (mr) => tests.every((t) => t(mr));
}
