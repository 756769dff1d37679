// The filters of the issue lists (reference endpoints §1, list params).
import type { Ctx } from '../server/context.js';
import { ApiError, E } from '../server/errors.js';
import { boolParam, enumParam, listParam, strParam, timeParam } from '../server/params.js';
import type { IssueRec } from '../store/records.js';

/** An issue with the fields only API writes set (seeded issues are neither confidential nor due). */
export type Issue = IssueRec & {
  confidential?: boolean;
  dueDate?: string | null;
  /** the issue it was moved to (then it is closed) */
  movedToId?: number;
};

const SCOPES = ['created-by-me', 'assigned-to-me', 'created_by_me', 'assigned_to_me', 'all'] as const;
const TYPES = ['issue', 'incident', 'test_case', 'task'] as const;
const IN = ['title', 'description', 'title,description', 'description,title'] as const;

function exclusive(ctx: Ctx, a: string, b: string): void {
  if (ctx.params[a] !== undefined && ctx.params[b] !== undefined) throw new ApiError(400, { error: `${a}, ${b} are mutually exclusive` });
}

/** `None`, `Any`, or an integer user id. */
function userIdParam(ctx: Ctx, name: string): number | 'None' | 'Any' | undefined {
  const v = strParam(ctx, name);
  if (v === undefined || v === '') return undefined;
  if (v === 'None' || v === 'Any') return v;
  if (!/^\d+$/.test(v)) throw E.invalid(name);
  return Number(v);
}

/** The filters of one request; `/issues` defaults its scope to the caller's own issues. */
export function issueFilter(ctx: Ctx, defaultScope: (typeof SCOPES)[number] = 'all'): (i: Issue) => boolean {
  const w = ctx.world;
  const tests: Array<(i: Issue) => boolean> = [];
  const state = enumParam(ctx, 'state', ['opened', 'closed', 'all'] as const, 'all');
  if (state !== 'all') tests.push((i) => i.state === state);
  const labels = listParam(ctx, 'labels')
    ?.map((l) => l.trim())
    .filter(Boolean);
  if (labels && labels.length > 0) {
    if (labels.length === 1 && labels[0] === 'None') tests.push((i) => i.labels.length === 0);
    else if (labels.length === 1 && labels[0] === 'Any') tests.push((i) => i.labels.length > 0);
    else tests.push((i) => labels.every((l) => i.labels.includes(l)));
  }
  exclusive(ctx, 'milestone', 'milestone_id');
  const milestone = strParam(ctx, 'milestone');
  if (milestone === 'None') tests.push((i) => i.milestone === null);
  else if (milestone === 'Any') tests.push((i) => i.milestone !== null);
  else if (milestone !== undefined) tests.push((i) => i.milestone === milestone);
  exclusive(ctx, 'author_id', 'author_username');
  const authorId = userIdParam(ctx, 'author_id');
  if (typeof authorId === 'number') tests.push((i) => i.authorId === authorId);
  const authorName = strParam(ctx, 'author_username');
  if (authorName !== undefined) {
    const uid = w.usersByName.get(authorName.toLowerCase()) ?? 0;
    tests.push((i) => i.authorId === uid);
  }
  exclusive(ctx, 'assignee_id', 'assignee_username');
  const assigneeId = userIdParam(ctx, 'assignee_id');
  if (assigneeId === 'None') tests.push((i) => i.assigneeId === null);
  else if (assigneeId === 'Any') tests.push((i) => i.assigneeId !== null);
  else if (assigneeId !== undefined) tests.push((i) => i.assigneeId === assigneeId);
  const assigneeNames = listParam(ctx, 'assignee_username');
  if (assigneeNames !== undefined) {
    if (assigneeNames.length > 1)
      throw new ApiError(400, {
        error: `assignee_username allows one value, but found ${assigneeNames.length}: ${assigneeNames.join(', ')}`,
      });
    const uid = w.usersByName.get(assigneeNames[0]!.toLowerCase()) ?? 0;
    tests.push((i) => i.assigneeId === uid);
  }
  const scope = enumParam(ctx, 'scope', SCOPES, defaultScope);
  const me = ctx.user?.id ?? 0;
  if (scope === 'created-by-me' || scope === 'created_by_me') tests.push((i) => i.authorId === me);
  if (scope === 'assigned-to-me' || scope === 'assigned_to_me') tests.push((i) => i.assigneeId === me);
  const search = strParam(ctx, 'search');
  if (search) {
    const within = enumParam(ctx, 'in', IN, 'title,description');
    const q = search.toLowerCase();
    tests.push(
      (i) =>
        (within.includes('title') && i.title.toLowerCase().includes(q)) ||
        (within.includes('description') && i.description.toLowerCase().includes(q)),
    );
  }
  const iids = listParam(ctx, 'iids');
  if (iids !== undefined) {
    if (iids.some((v) => !/^\d+$/.test(v))) throw E.invalid('iids');
    const wanted = new Set(iids.map(Number));
    tests.push((i) => wanted.has(i.iid));
  }
  const range: Array<[string, (i: Issue) => number, 1 | -1]> = [
    ['created_after', (i) => i.createdAt, 1],
    ['created_before', (i) => i.createdAt, -1],
    ['updated_after', (i) => i.updatedAt, 1],
    ['updated_before', (i) => i.updatedAt, -1],
  ];
  for (const [name, value, dir] of range) {
    const t = timeParam(ctx, name);
    if (t !== undefined) tests.push((i) => (dir === 1 ? value(i) >= t : value(i) <= t));
  }
  const type = enumParam(ctx, 'issue_type', TYPES);
  if (type !== undefined) tests.push(() => type === 'issue');
  const confidential = boolParam(ctx, 'confidential');
  if (confidential !== undefined) tests.push((i) => (i.confidential ?? false) === confidential);
  return (i) => tests.every((t) => t(i));
}
