// A merge request's commits and the issues it closes (lib/api/merge_requests.rb `commits`,
// `closes_issues`; Gitlab::ClosingIssueExtractor): the commits on the source that the target lacks,
// newest first, as the Commit entity (paged); the issues of the project named by `Closes #N`,
// `Fixes #N` or `Resolves #N` (any tense, several numbers separated by commas) in its description,
// that the caller can see, in the order named, paged (README, "Merge request commits"); and the merge
// requests a commit belongs to, and those that close or name an issue.
import { can } from '../access.js';
import { ask } from '../engine/ports.js';
import type { Ctx } from '../server/context.js';
import { pageOf } from '../server/paging.js';
import { ApiError, E } from '../server/errors.js';
import { sendList } from '../server/respond.js';
import type { CommitRec, ProjectRec } from '../store/records.js';
import { commitJson } from '../entities/commit.js';
import { requireAbility } from './guards.js';
import { mergeRequestJson } from './merge-request-json.js';
import { type MergeRequestRec, projectMergeRequests, sourceHead } from './merge-request-store.js';
import type { Mounts } from './mounts.js';

const CLOSING =
  /\b(?:clos(?:e[sd]?|ing)|fix(?:e[sd]|ing)?|resolv(?:e[sd]?|ing)|implement(?:s|ed|ing)?)\b:?\s+((?:#\d+(?:\s*(?:,|and)\s*)?)+)/gi;

function mergeRequestCommits(ctx: Ctx, p: ProjectRec): CommitRec[] {
  const mr = ask('mergeRequestOf')(ctx, p);
  const w = ctx.world;
  const targetSha = w.repos.resolveRef(p.id, mr.refs!.target);
  const onTarget = new Set(targetSha ? w.repos.lineFrom(p.id, targetSha).map((c) => c.id) : []);
  const out: CommitRec[] = [];
  for (const c of w.repos.lineFrom(p.id, mr.refs!.sourceSha)) {
    if (onTarget.has(c.id)) break;
    out.push(c);
  }
  return out;
}

export function closingIids(text: string): number[] {
  const iids: number[] = [];
  for (const m of text.matchAll(CLOSING)) for (const n of m[1]!.matchAll(/#(\d+)/g)) iids.push(Number(n[1]));
  return [...new Set(iids)];
}

/**
 * `GET …/repository/commits/:sha/merge_requests` (lib/api/commits.rb, `by_related_commit_sha`): the
 * project's merge requests whose commits hold the SHA, or that merged or squashed into it, newest first,
 * as MergeRequestBasic, paged.
 */
function commitMergeRequests(ctx: Ctx, p: ProjectRec): void {
  requireAbility(ctx, p, 'read_merge_request');
  const w = ctx.world;
  const sha = w.repos.resolveRef(p.id, ctx.p.sha!);
  const c = sha ? w.repos.findCommit(p.id, sha) : null;
  if (!c) throw E.notFound('Commit');
  const related = (mr: MergeRequestRec) => {
    if (mr.mergeCommitSha === c.id || mr.squashCommitSha === c.id) return true;
    const targetSha = w.repos.resolveRef(p.id, mr.targetBranch);
    const onTarget = new Set(targetSha ? w.repos.lineFrom(p.id, targetSha).map((x) => x.id) : []);
    for (const x of w.repos.lineFrom(p.id, sourceHead(w, mr))) {
      if (onTarget.has(x.id)) return false;
      if (x.id === c.id) return true;
    }
    return false;
  };
  const list = projectMergeRequests(w, p.id)
    .filter(related)
    .sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
  sendList(
    ctx,
    pageOf(ctx, list).map((mr) => mergeRequestJson(ctx, p, mr, false)),
  );
}

/**
 * An issue's merge requests (lib/api/issues.rb): `closed_by` those whose description closes it
 * (MergeRequestBasic), `related_merge_requests` those whose title or description names `#<iid>` at all
 * (the MergeRequest entity); oldest first, paged, the ones the caller can read.
 */
function issueMergeRequests(ctx: Ctx, p: ProjectRec, closing: boolean): void {
  const issue = ask('issueOf')(ctx, p);
  const names = (mr: MergeRequestRec) =>
    closing
      ? closingIids(mr.description).includes(issue.iid)
      : new RegExp(`(^|[^\\w&])#${issue.iid}(?!\\d)`).test(`${mr.title}\n${mr.description}`);
  const readable = can(ctx.world, ctx.user, p, 'read_merge_request');
  const list = readable ? projectMergeRequests(ctx.world, p.id).filter(names) : [];
  sendList(
    ctx,
    pageOf(ctx, list).map((mr) => mergeRequestJson(ctx, p, mr, !closing)),
  );
}

export function mountMergeRequestCommits({ project }: Mounts): void {
  project.get('/issues/:issue_iid/closed_by', { auth: 'public' }, (ctx, p) => issueMergeRequests(ctx, p, true));
  project.get('/issues/:issue_iid/related_merge_requests', { auth: 'public' }, (ctx, p) => issueMergeRequests(ctx, p, false));
  project.get('/repository/commits/:sha/merge_requests', { auth: 'public', job: true }, commitMergeRequests);
  project.get('/merge_requests/:merge_request_iid/commits', { auth: 'public' }, (ctx, p) => {
    sendList(
      ctx,
      pageOf(ctx, mergeRequestCommits(ctx, p)).map((c) => commitJson(ctx.world, p, c)),
    );
  });
  project.get('/merge_requests/:merge_request_iid/closes_issues', { auth: 'public' }, (ctx, p) => {
    const mr = ask('mergeRequestOf')(ctx, p);
    const issues = closingIids(mr.description).flatMap((iid) => {
      try {
        return [ask('issueOf')(ctx, p, iid).json()];
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return [];
        throw error;
      }
    });
    sendList(ctx, pageOf(ctx, issues));
  });
}
