// The versions of a merge request's diff, as lib/api/merge_request_diffs.rb serves them (authenticated;
// `find_merge_request_with_access`, then `merge_request_diffs.order_id_desc` paged, or `.find(version_id)`
// whose miss is `404 Not found`) with the MergeRequestDiff and MergeRequestDiffFull entities. The first
// version is taken when the merge request is first read this way; another one each time its source branch
// has a new head, or new content (a write to a synthetic repository makes no commit), while it is open
// (the service makes one per push), with the diff and commits of that moment.
import type { Ctx } from '../server/context.js';
import { E } from '../server/errors.js';
import { pageOf } from '../server/paging.js';
import { intSeg } from '../server/params.js';
import { sendJson, sendList } from '../server/respond.js';
import { storeFor } from '../store/collection.js';
import type { CommitRec, ProjectRec } from '../store/records.js';
import type { World } from '../store/world.js';
import { sha1 } from '../util/digest.js';
import { iso } from '../util/time.js';
import { commitJson } from '../entities/commit.js';
import { requireAbility } from './guards.js';
import { type FileChange, mergeRequestChanges } from './merge-request-changes.js';
import { findMergeRequest, type MergeRequestRec, sourceHead } from './merge-request-store.js';
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

const versionStore = storeFor(() => ({ next: 700_001, byMergeRequest: new Map<number, VersionRec[]>() }));

/** The commits of the source branch the target lacks, newest first, and the merge base. */
function ownCommits(w: World, mr: MergeRequestRec): { commits: CommitRec[]; base: string; start: string } {
  const target = w.repos.branchCommits(mr.projectId, mr.targetBranch)!;
  const inTarget = new Set(target.map((c) => c.id));
  const source = w.repos.branchCommits(mr.projectId, mr.sourceBranch) ?? w.repos.lineFrom(mr.projectId, sourceHead(w, mr));
  const baseAt = source.findIndex((c) => inTarget.has(c.id));
  return { commits: source.slice(0, baseAt), base: source[baseAt]!.id, start: target[0]!.id };
}

/** The versions, oldest first, with a new one when the source head moved since the last. */
function versionsOf(w: World, mr: MergeRequestRec): VersionRec[] {
  const store = versionStore(w);
  const known = store.byMergeRequest.get(mr.id) ?? [];
  const head = sourceHead(w, mr);
  const last = known.at(-1);
  if (last && mr.state !== 'opened') return known;
  const diffs = mergeRequestChanges(w, mr);
  if (last && last.headSha === head && JSON.stringify(last.diffs) === JSON.stringify(diffs)) return known;
  const { commits, base, start } = ownCommits(w, mr);
  const createdAt = last ? Date.now() : mr.createdAt;
  const version = { id: store.next++, mergeRequestId: mr.id, headSha: head, baseSha: base, startSha: start, createdAt, commits, diffs };
  const all = [...known, version];
  store.byMergeRequest.set(mr.id, all);
  return all;
}

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
