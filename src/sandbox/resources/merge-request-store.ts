// Merge requests of a project: seeded ones derived from (seed, project, iid),
// and their mergeability (reference endpoints §2); merge-request-json.ts renders them.
// Project 1 carries one merge request per blocker, so tests can name them.
// Choices where the reference is open: blockers are checked in the order of
// `detailedMergeStatus`; a head pipeline (the newest of the source branch) must
// succeed; a seeded quarter of merge requests conflict and another needs one
// approval (shown as the EE keys `approvals_required`/`approvals_left`, see merge-request-json.ts); created
// ones neither conflict nor need approvals; a merge changes no branch.
import type { Ctx } from '../server/context.js';
import { E } from '../server/errors.js';
import { intSeg } from '../server/params.js';
import { ChildCollection, storeFor } from '../store/collection.js';
import type { PipelineRec, ProjectRec } from '../store/records.js';
import { BRANCHES } from '../store/repository.js';
import { ISSUE_TITLES } from '../store/seed.js';
import type { World } from '../store/world.js';
import { sha1 } from '../util/digest.js';
import { checkStatus, type MergeCheck, recheck, SEEDED_CHECK } from './merge-request-checks.js';
import { removeMergedSource } from './merge-request-cleanup.js';
import { ask } from '../engine/ports.js';

export type MergeRequestState = 'opened' | 'closed' | 'merged' | 'locked';

export interface MergeRequestRec extends MergeCheck {
  id: number;
  iid: number;
  projectId: number;
  title: string;
  description: string;
  state: MergeRequestState;
  sourceBranch: string;
  targetBranch: string;
  createdAt: number;
  updatedAt: number;
  closedAt: number | null;
  closedById: number | null;
  mergedAt: number | null;
  mergedById: number | null;
  mergeCommitSha: string | null;
  squashCommitSha: string | null;
  authorId: number;
  assigneeIds: number[];
  reviewerIds: number[];
  labels: string[];
  /** the branches do not merge cleanly */
  conflicts: boolean;
  approvalsRequired: number;
  approvals: Array<{ userId: number; at: number }>;
  squash: boolean;
  removeSourceBranch: boolean | null;
  /** the source branch's head when merged, which outlives the branch */
  mergedSourceSha?: string;
  /** set to merge once the head pipeline succeeds */
  autoMerge: boolean;
  /** who set the auto-merge, and merges it */
  mergeUserId?: number | null;
  upvotes: number;
  seededNotes: number;
  /** seeded notes deleted through the API, by number (1-based) */
  deletedNotes: number[];
  createdNotes: CreatedNote[];
  /** notes edited through the API, by id */
  editedNotes: Array<{ id: number; body: string; updatedAt: number }>;
}

export interface CreatedNote {
  id: number;
  body: string;
  authorId: number;
  createdAt: number;
  /** a note the service wrote (auto-merge set, canceled, aborted) */
  system?: boolean;
}

const MR_SLOTS = 8;
const MR_ID_BASE = 50_000;
const HOUR = 3_600_000;

/** Project 1: 1 mergeable, 2 draft, 3 conflicts, 4 merged, 5 needs an approval, 6 closed. */
const FIXTURES: Array<
  Pick<MergeRequestRec, 'sourceBranch' | 'targetBranch' | 'state' | 'conflicts' | 'approvalsRequired'> & { title: string }
> = [
  {
    sourceBranch: 'develop',
    targetBranch: 'main',
    state: 'opened',
    conflicts: false,
    approvalsRequired: 0,
    title: 'Merge develop into main',
  },
  {
    sourceBranch: 'feature/login',
    targetBranch: 'main',
    state: 'opened',
    conflicts: false,
    approvalsRequired: 0,
    title: 'Draft: Add a login page',
  },
  {
    sourceBranch: 'feature/search-v2',
    targetBranch: 'main',
    state: 'opened',
    conflicts: true,
    approvalsRequired: 0,
    title: 'Rewrite the search',
  },
  { sourceBranch: 'fix/issue-1', targetBranch: 'main', state: 'merged', conflicts: false, approvalsRequired: 0, title: 'Fix issue 1' },
  {
    sourceBranch: 'fail/broken-build',
    targetBranch: 'main',
    state: 'opened',
    conflicts: false,
    approvalsRequired: 1,
    title: 'Refactor the build',
  },
  {
    sourceBranch: 'feature/login',
    targetBranch: 'develop',
    state: 'closed',
    conflicts: false,
    approvalsRequired: 0,
    title: 'Try the login page on develop',
  },
];

function seededCount(w: World, pid: number): number {
  const p = w.projects.get(pid);
  if (!p?.seeded) return 0;
  return pid === 1 ? FIXTURES.length : 1 + (w.h(80, pid) % (BRANCHES.length - 1));
}

function deriveMergeRequest(w: World, pid: number, iid: number): MergeRequestRec | null {
  if (!Number.isInteger(iid) || iid < 1 || iid > seededCount(w, pid)) return null;
  const p = w.projects.get(pid)!;
  const h = w.h(81, pid, iid);
  const fixture = pid === 1 ? FIXTURES[iid - 1]! : null;
  const roll = h % 6;
  const state: MergeRequestState = fixture?.state ?? (roll === 0 ? 'merged' : roll === 1 ? 'closed' : 'opened');
  const title = fixture?.title ?? `${(h >>> 4) % 5 === 0 ? 'Draft: ' : ''}${ISSUE_TITLES[(h >>> 6) % ISSUE_TITLES.length]}`;
  const created = p.createdAt + 2 * 86_400_000 + iid * HOUR + (h % 1000);
  const updated = created + ((h >>> 10) % 48) * HOUR;
  const authorId = 1 + ((h >>> 14) % w.seededUserCount);
  const ended = state === 'merged' || state === 'closed';
  const source = fixture?.sourceBranch ?? BRANCHES[iid]!;
  return {
    id: MR_ID_BASE + (pid - 1) * MR_SLOTS + iid,
    iid,
    projectId: pid,
    title,
    description: `Changes from ${source}.`,
    state,
    sourceBranch: source,
    targetBranch: fixture?.targetBranch ?? 'main',
    createdAt: created,
    updatedAt: updated,
    closedAt: state === 'closed' ? updated : null,
    closedById: state === 'closed' ? authorId : null,
    mergedAt: state === 'merged' ? updated : null,
    mergedById: state === 'merged' ? p.creatorId : null,
    mergeCommitSha: state === 'merged' ? sha1(`${w.seed}:${pid}:merge:${iid}`) : null,
    squashCommitSha: null,
    authorId,
    assigneeIds: (h >>> 18) % 2 ? [1 + ((h >>> 19) % w.seededUserCount)] : [],
    reviewerIds: (h >>> 23) % 2 ? [1 + ((h >>> 24) % w.seededUserCount)] : [],
    labels: (h >>> 28) % 2 ? ['bug'] : ['feature'],
    conflicts: fixture ? fixture.conflicts : !ended && (h >>> 8) % 4 === 0,
    approvalsRequired: fixture ? fixture.approvalsRequired : (h >>> 12) % 4 === 0 ? 1 : 0,
    approvals: [],
    squash: false,
    removeSourceBranch: null,
    autoMerge: false,
    upvotes: (h >>> 20) % 4,
    seededNotes: w.h(82, pid, iid) % 4,
    deletedNotes: [],
    createdNotes: [],
    editedNotes: [],
    ...SEEDED_CHECK,
  };
}

interface MergeRequestStore {
  mrs: ChildCollection<number, MergeRequestRec>;
  nextId: number;
  /** projects whose merge requests were created, changed or deleted */
  changed: Set<number>;
  /** bumped by every write, so cached listings are rebuilt */
  version: number;
  listings: Map<string, unknown>;
}

export const mergeRequestStore = storeFor<MergeRequestStore>((w) => ({
  mrs: new ChildCollection<number, MergeRequestRec>({
    seededKeys: (pid) => Array.from({ length: seededCount(w, pid) }, (_, i) => i + 1),
    derive: (pid, iid) => deriveMergeRequest(w, pid, iid),
  }),
  nextId: MR_ID_BASE + seededMergeRequestSlots(w) + 1,
  changed: new Set(),
  version: 0,
  listings: new Map(),
}));

/** Every write goes through here: its project's merge requests leave their seeded time window. */
export function markMergeRequestsChanged(w: World, pid: number): void {
  const store = mergeRequestStore(w);
  store.changed.add(pid);
  store.version++;
}

export function saveMergeRequest(w: World, mr: MergeRequestRec): void {
  markMergeRequestsChanged(w, mr.projectId);
  mergeRequestStore(w).mrs.update(mr.projectId, mr.iid, mr);
}

/** Where the seeded merge requests of an unchanged project fall in time, for the orders that have such a window. */
export function seededMergeRequestWindow(w: World, p: ProjectRec, orderBy: string): [number, number] | null {
  if (!p.seeded || mergeRequestStore(w).changed.has(p.id)) return null;
  const created: [number, number] = [p.createdAt + 2 * 86_400_000 + HOUR, p.createdAt + 2 * 86_400_000 + MR_SLOTS * HOUR + 999];
  if (orderBy === 'created_at') return created;
  return orderBy === 'updated_at' ? [created[0], created[1] + 48 * HOUR] : null;
}

/** The merge request of `:merge_request_iid`, with an auto-merge settled; a missing one is `.find`'s 404. */
export function findMergeRequest(ctx: Ctx, p: ProjectRec, notFound = E.findNotFound): MergeRequestRec {
  const mr = mergeRequestStore(ctx.world).mrs.get(p.id, intSeg(ctx, 'merge_request_iid'));
  if (!mr) throw notFound();
  return settleAutoMerge(ctx.world, mr);
}

/** A read that wants the status starts the check of an unchecked merge request (a merge runs it at once). */
export function rechecked(w: World, mr: MergeRequestRec, sync: boolean): MergeRequestRec {
  const next = recheck(mr, sync);
  if (next !== mr) saveMergeRequest(w, next);
  return next;
}

/** Every merge request of a project, auto-merges settled. */
export function projectMergeRequests(w: World, pid: number): MergeRequestRec[] {
  return mergeRequestStore(w)
    .mrs.list(pid)
    .map((mr) => settleAutoMerge(w, mr));
}

export function isDraft(title: string): boolean {
  return /^\s*(\[draft\]|\(draft\)|draft:)/i.test(title);
}

/** A seeded merge request's place among every seeded one (from 1), or null for one created through the API. */
export function seededOrdinal(w: World, mr: MergeRequestRec): number | null {
  const ordinal = mr.id - MR_ID_BASE;
  return ordinal >= 1 && ordinal <= seededMergeRequestSlots(w) ? ordinal : null;
}

/** How many merge request ids the seeded projects hold. */
export function seededMergeRequestSlots(w: World): number {
  return w.seededProjects * MR_SLOTS;
}

export function sourceHead(w: World, mr: MergeRequestRec): string {
  return w.repos.branchCommits(mr.projectId, mr.sourceBranch)?.[0]?.id ?? mr.mergedSourceSha!;
}

/** The newest pipeline of the source branch, if any. */
export function headPipeline(w: World, mr: MergeRequestRec): PipelineRec | null {
  return ask('newestPipelineOn')(w, mr.projectId, mr.sourceBranch);
}

/** The one blocker `detailed_merge_status` names, in the order the sandbox checks them. */
export function detailedMergeStatus(w: World, mr: MergeRequestRec): string {
  if (mr.state !== 'opened') return 'not_open';
  const checking = checkStatus(mr);
  if (checking) return checking;
  if (isDraft(mr.title)) return 'draft_status';
  if (mr.conflicts) return 'conflict';
  const pipeline = headPipeline(w, mr);
  if (pipeline) {
    const status = ask('pipelineStatus')(w, pipeline);
    if (status !== 'success' && status !== 'failed' && status !== 'canceled' && status !== 'skipped') return 'ci_still_running';
    if (status !== 'success') return 'ci_must_pass';
  }
  if (mr.approvals.length < mr.approvalsRequired) return 'not_approved';
  return 'mergeable';
}

export function mergeNow(w: World, mr: MergeRequestRec, userId: number, squash: boolean): MergeRequestRec {
  const now = Date.now();
  const merged: MergeRequestRec = {
    ...mr,
    state: 'merged',
    mergedAt: now,
    mergedById: userId,
    updatedAt: now,
    autoMerge: false,
    mergeUserId: null,
    squash: squash || mr.squash,
    mergeCommitSha: sha1(`${w.seed}:${mr.projectId}:merge:${mr.iid}:${now}`),
    squashCommitSha: squash || mr.squash ? sha1(`${w.seed}:${mr.projectId}:squash:${mr.iid}:${now}`) : null,
    mergedSourceSha: sourceHead(w, mr),
  };
  saveMergeRequest(w, merged);
  if (merged.removeSourceBranch) removeMergedSource(w, mr.projectId, mr.sourceBranch, userId);
  return merged;
}

/**
 * An auto-merge happens once the head pipeline has succeeded and nothing else blocks it; until
 * then it stays set, a failed pipeline included (a retried job that succeeds still merges it).
 */
function settleAutoMerge(w: World, mr: MergeRequestRec): MergeRequestRec {
  if (!mr.autoMerge || mr.state !== 'opened' || detailedMergeStatus(w, mr) !== 'mergeable') return mr;
  return mergeNow(w, mr, mr.mergeUserId ?? mr.authorId, mr.squash);
}

export function canMerge(ctx: Ctx, p: ProjectRec, mr: MergeRequestRec): boolean {
  return ask('mayMergeInto')(ctx.world, ctx.user, p, mr.targetBranch);
}

/** A hard user deletion: every merge request the user authored goes, in every project. */
export function removeMergeRequestsAuthoredBy(w: World, userId: number): void {
  const store = mergeRequestStore(w);
  for (const pid of w.allIds) {
    for (const mr of store.mrs.list(pid)) {
      if (mr.authorId !== userId) continue;
      markMergeRequestsChanged(w, pid);
      store.mrs.remove(pid, mr.iid);
    }
  }
}

/** Merge requests of the whole instance (`GET /application/statistics`). */
export function mergeRequestTotal(w: World): number {
  const store = mergeRequestStore(w);
  return w.allIds.reduce((n, pid) => n + store.mrs.count(pid), 0);
}
