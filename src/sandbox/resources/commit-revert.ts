// `POST …/repository/commits/:sha/revert` (lib/api/commits.rb `revert`, Commits::RevertService): a new
// commit on `branch` that puts back what the commit replaced, `Revert "<title>"` with `This reverts
// commit <sha>.`; 201 with the commit's detail, `{"dry_run":"success"}` with `dry_run`. The sandbox
// reverts the commits made through `POST …/repository/commits` (it keeps what their actions
// replaced); when the branch no longer holds what the commit wrote, or the commit's change is not
// known (seeded history, single-file writes), it answers the service's 400 with `error_code`
// `conflict`, and `empty` when the branch already holds what the commit replaced (README, "Revert").
// Cherry-picking applies the same kept change again, and a commit's diff reads it.
import { ask, offer } from '../engine/ports.js';
import { ApiError, E } from '../server/errors.js';
import { boolParam, strParam } from '../server/params.js';
import { sendJson, sendList } from '../server/respond.js';
import { pageOf } from '../server/paging.js';
import type { Ctx } from '../server/context.js';
import type { CommitRec, ProjectRec } from '../store/records.js';
import { commitJson, touchedPaths } from '../entities/commit.js';
import { fileChange } from './merge-request-changes.js';
import { storeFor } from '../store/collection.js';
import type { World } from '../store/world.js';
import { requireAbility, requireWritable } from './guards.js';
import type { Mounts } from './mounts.js';

/** What a commit's actions changed: path → the content before and after (null: no file). */
export type CommitChange = Map<string, { before: Buffer | null; after: Buffer | null }>;

const changes = storeFor(() => new Map<string, CommitChange>());

/** Keeps a commit's change so it can be reverted. */
function recordChange(w: World, commitId: string, change: CommitChange): void {
  changes(w).set(commitId, change);
}

const CANNOT =
  'Sorry, we cannot revert this commit automatically. This commit may already have been reverted, or a more recent commit may have updated some of its content.';
const same = (a: Buffer | null | undefined, b: Buffer | null) => ((a ?? null) === null ? b === null : b !== null && a!.equals(b));

const CANNOT_PICK =
  'Sorry, we cannot cherry-pick this commit automatically. This commit may already have been cherry-picked, or a more recent commit may have updated some of its content.';

/** `user_project.commit(params[:sha])`: a SHA, or a branch, tag or revision naming one. */
function pickedCommit(ctx: Ctx, p: ProjectRec): CommitRec | null {
  const repos = ctx.world.repos;
  const sha = repos.isEmpty(p.id) ? null : repos.resolveRef(p.id, ctx.p.sha!);
  return sha ? repos.findCommit(p.id, sha) : null;
}

/**
 * `GET …/commits/:sha/diff` (Entities::Diff, paged): what a commit made through `POST …/repository/commits`
 * changed, file by file; the sandbox keeps no older content for other commits, so theirs name the paths
 * they touched with an empty diff (README, "Revert").
 */
function commitDiff(ctx: Ctx, p: ProjectRec): void {
  requireAbility(ctx, p, 'read_code');
  const w = ctx.world;
  const commit = pickedCommit(ctx, p);
  if (!commit) throw E.notFound('Commit');
  const change = changes(w).get(commit.id);
  const known = [...(change ?? [])].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const entries = change
    ? known.map(([path, c]) => fileChange(path, c.before ?? undefined, c.after ?? undefined))
    : (touchedPaths(commit) ?? [...ask('branchFiles')(w, p.id, w.repos.branchForSha(p.id, commit.id)).keys()].sort()).map((path) => ({
        ...fileChange(path, undefined, undefined),
        a_mode: '100644',
        b_mode: '100644',
        new_file: commit.parentId === null,
        deleted_file: false,
      }));
  sendList(
    ctx,
    pageOf(ctx, entries).map((e) => ({ ...e, collapsed: false, too_large: false })),
  );
}

/**
 * What cherry-pick and revert check alike, in the service's order (the branch, the commit, the push
 * right), then whether the commit's change applies to the branch: 400 `empty` when the branch already
 * holds its result (`to`), `conflict` when it does not hold its starting point (`from`).
 */
function replayOnBranch(ctx: Ctx, p: ProjectRec, from: 'before' | 'after', refusal: string) {
  requireAbility(ctx, p, 'read_code');
  const branch = strParam(ctx, 'branch');
  if (branch === undefined) throw E.missing('branch');
  const w = ctx.world;
  const commit = pickedCommit(ctx, p);
  if (!commit) throw E.notFound('Commit');
  if (!w.repos.hasBranch(p.id, branch)) throw E.notFound('Branch');
  if (!ask('mayPushTo')(w, ctx.user, p, branch)) throw E.forbidden('You are not allowed to push into this branch');
  requireWritable(p);
  const change = changes(w).get(commit.id);
  const files = ask('branchFiles')(w, p.id, branch);
  const entries = [...(change ?? [])];
  const to = from === 'before' ? 'after' : 'before';
  if (change && entries.every(([path, c]) => same(files.get(path), c[to])))
    throw new ApiError(400, { message: refusal, error_code: 'empty' });
  if (!change || !entries.every(([path, c]) => same(files.get(path), c[from])))
    throw new ApiError(400, { message: refusal, error_code: 'conflict' });
  return { w, branch, commit, change, entries };
}

export function mountCommitRevert({ project }: Mounts): void {
  project.get('/repository/commits/:sha/diff', { auth: 'public' }, commitDiff);
  // `POST …/commits/:sha/cherry_pick` (Commits::CherryPickService): the commit's change again on `branch`,
  // its title kept and `(cherry picked from commit <sha>)` added; 201 with the Commit entity.
  project.post('/repository/commits/:sha/cherry_pick', { auth: 'user' }, (ctx, p) => {
    const { w, branch, commit, change, entries } = replayOnBranch(ctx, p, 'before', CANNOT_PICK);
    if (boolParam(ctx, 'dry_run')) return sendJson(ctx, 200, { dry_run: 'success' });
    const user = ctx.user!;
    const body = strParam(ctx, 'message') ?? (commit.message ?? `${commit.title}\n`).replace(/\n+$/, '');
    const message = `${body}\n\n(cherry picked from commit ${commit.id})\n`;
    const made = w.repos.commit(p.id, branch, commit.title, [user.name, user.email], [...change.keys()], { message });
    for (const [path, c] of entries) ask('writeFile')(w, p.id, branch, path, c.after);
    recordChange(w, made.id, new Map(entries));
    sendJson(ctx, 201, commitJson(w, p, made));
  });
  offer('recordCommitChange', recordChange);
  project.post('/repository/commits/:sha/revert', { auth: 'user' }, (ctx, p) => {
    const { w, branch, commit, change, entries } = replayOnBranch(ctx, p, 'after', CANNOT);
    if (boolParam(ctx, 'dry_run')) return sendJson(ctx, 200, { dry_run: 'success' });
    const user = ctx.user!;
    const title = `Revert "${commit.title}"`;
    const message = `${title}\n\nThis reverts commit ${commit.id}.\n`;
    const made = w.repos.commit(p.id, branch, title, [user.name, user.email], [...change.keys()], { message });
    for (const [path, c] of entries) ask('writeFile')(w, p.id, branch, path, c.before);
    recordChange(w, made.id, new Map(entries.map(([path, c]) => [path, { before: c.after, after: c.before }])));
    sendJson(ctx, 201, ask('commitDetailJson')(w, p, made));
  });
}
