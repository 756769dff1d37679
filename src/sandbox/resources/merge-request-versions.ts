// The versions of a merge request's diff, as lib/api/merge_request_diffs.rb serves them (authenticated;
// `find_merge_request_with_access`, then `merge_request_diffs.order_id_desc` paged, or `.find(version_id)`
// whose miss is `404 Not found`) with the MergeRequestDiff and MergeRequestDiffFull entities. As the service
// makes a merge_request_diff when a merge request is opened and on each push to its source branch, a version
// is taken when one is created, and after each request that changes its open merge request's source branch
// (a commit, or a file written on a synthetic repository, which makes no commit), with the diff and commits
// of that moment; reading never makes one. A seeded merge request's first version is taken before anything
// changes either of its branches, under an id of its own, so no order of reads or writes renumbers them.
import type { Ctx } from '../server/context.js';
import { E } from '../server/errors.js';
import { pageOf } from '../server/paging.js';
import { intSeg } from '../server/params.js';
import { sendJson, sendList } from '../server/respond.js';
import { storeFor } from '../store/collection.js';
import type { CommitRec, ProjectRec } from '../store/records.js';
import type { World } from '../store/world.js';
import { type BranchWatcher, watchBranches } from '../store/repository.js';
import { offer } from '../engine/ports.js';
import { sha1 } from '../util/digest.js';
import { iso } from '../util/time.js';
import { commitJson } from '../entities/commit.js';
import { requireAbility } from './guards.js';
import { type FileChange, mergeRequestChanges } from './merge-request-changes.js';
import {
  findMergeRequest,
  type MergeRequestRec,
  projectMergeRequests,
  seededMergeRequestSlots,
  seededOrdinal,
  sourceHead,
} from './merge-request-store.js';
import type { Mounts } from './mounts.js';

interface VersionRec {
  id: number;
  mergeRequestId: number;
  headSha: string;
  baseSha: string;
  startSha: string;
  createdAt: number;
  commits: CommitRec[];
  diffs: FileChange[];
}

const FIRST_ID = 700_001;

const versionStore = storeFor((w) => ({
  next: FIRST_ID + seededMergeRequestSlots(w),
  byMergeRequest: new Map<number, VersionRec[]>(),
  /** merge requests whose source branch changed in the request now running */
  pushed: new Map<number, MergeRequestRec>(),
}));

/** The commits of the source branch the target lacks, newest first, and the merge base. */
function ownCommits(w: World, mr: MergeRequestRec): { commits: CommitRec[]; base: string; start: string } {
  const target = w.repos.branchCommits(mr.projectId, mr.targetBranch)!;
  const inTarget = new Set(target.map((c) => c.id));
  const source = w.repos.branchCommits(mr.projectId, mr.sourceBranch) ?? w.repos.lineFrom(mr.projectId, sourceHead(w, mr));
  const baseAt = source.findIndex((c) => inTarget.has(c.id));
  return { commits: source.slice(0, baseAt), base: source[baseAt]!.id, start: target[0]!.id };
}

function snapshot(w: World, mr: MergeRequestRec, id: number, createdAt: number, diffs = mergeRequestChanges(w, mr)): VersionRec {
  const { commits, base, start } = ownCommits(w, mr);
  return { id, mergeRequestId: mr.id, headSha: sourceHead(w, mr), baseSha: base, startSha: start, createdAt, commits, diffs };
}

/** The versions, oldest first; the first one is taken on first need (a seeded merge request's under its own id). */
function versionsOf(w: World, mr: MergeRequestRec): VersionRec[] {
  const store = versionStore(w);
  const known = store.byMergeRequest.get(mr.id);
  if (known) return known;
  const ordinal = seededOrdinal(w, mr);
  const first = [snapshot(w, mr, ordinal === null ? store.next++ : FIRST_ID - 1 + ordinal, mr.createdAt)];
  store.byMergeRequest.set(mr.id, first);
  return first;
}

/** A version for each merge request whose source branch the request changed, once its writes are all done. */
function takePushed(w: World): void {
  const store = versionStore(w);
  for (const mr of store.pushed.values()) {
    const known = versionsOf(w, mr);
    const last = known.at(-1)!;
    if (mr.state !== 'opened' || !w.repos.hasBranch(mr.projectId, mr.sourceBranch)) continue;
    const diffs = mergeRequestChanges(w, mr);
    if (last.headSha === sourceHead(w, mr) && JSON.stringify(last.diffs) === JSON.stringify(diffs)) continue;
    known.push(snapshot(w, mr, store.next++, w.now(), diffs));
  }
  store.pushed.clear();
}

const touching = (w: World, pid: number, branch: string) =>
  projectMergeRequests(w, pid).filter((mr) => mr.sourceBranch === branch || mr.targetBranch === branch);

const watcher: BranchWatcher = {
  before: (w, pid, branch) => {
    for (const mr of touching(w, pid, branch)) versionsOf(w, mr);
  },
  after: (w, pid, branch) => {
    const store = versionStore(w);
    const first = store.pushed.size === 0;
    for (const mr of touching(w, pid, branch)) if (mr.sourceBranch === branch && mr.state === 'opened') store.pushed.set(mr.id, mr);
    // Request handlers run to their end without yielding: the version sees every file the request writes.
    if (first && store.pushed.size > 0) queueMicrotask(() => takePushed(w));
  },
};

function versionJson(v: VersionRec): Record<string, unknown> {
  return {
    id: v.id,
    head_commit_sha: v.headSha,
    base_commit_sha: v.baseSha,
    start_commit_sha: v.startSha,
    created_at: iso(v.createdAt),
    merge_request_id: v.mergeRequestId,
    state: 'collected',
    real_size: String(v.diffs.length),
    patch_id_sha: sha1(v.diffs.map((d) => d.diff).join('')),
  };
}

function readable(ctx: Ctx, p: ProjectRec): MergeRequestRec {
  const mr = findMergeRequest(ctx, p);
  requireAbility(ctx, p, 'read_merge_request');
  return mr;
}

export function mountMergeRequestVersions({ project }: Mounts): void {
  offer('mergeRequestOpened', (w, mr) => void versionsOf(w, mr));
  watchBranches('merge request versions', watcher);
  project.get('/merge_requests/:merge_request_iid/versions', { auth: 'user' }, (ctx, p) => {
    const versions = [...versionsOf(ctx.world, readable(ctx, p))].reverse();
    sendList(ctx, pageOf(ctx, versions).map(versionJson));
  });
  project.get('/merge_requests/:merge_request_iid/versions/:version_id', { auth: 'user' }, (ctx, p) => {
    const id = intSeg(ctx, 'version_id');
    const version = versionsOf(ctx.world, readable(ctx, p)).find((v) => v.id === id);
    if (!version) throw E.findNotFound();
    sendJson(ctx, 200, {
      ...versionJson(version),
      commits: version.commits.map((c) => commitJson(ctx.world, p, c)),
      diffs: version.diffs,
    });
  });
}
