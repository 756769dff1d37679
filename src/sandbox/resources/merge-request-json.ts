// The MergeRequest entity as the service renders it, in a list and as a single read (reference endpoints §2).
import { can } from '../access.js';
import type { Ctx } from '../server/context.js';
import type { ProjectRec } from '../store/records.js';
import { iso } from '../util/time.js';
import { mergeRequestChanges } from './merge-request-changes.js';
import { mergeStatusOf } from './merge-request-checks.js';
import { canMerge, detailedMergeStatus, headPipeline, isDraft, type MergeRequestRec, sourceHead } from './merge-request-store.js';
import { ask } from '../engine/ports.js';
import { userBasic } from '../entities/user.js';
import { timeStatsJson } from '../util/duration.js';

export function mergeRequestJson(ctx: Ctx, p: ProjectRec, mr: MergeRequestRec, single: boolean): Record<string, unknown> {
  const w = ctx.world;
  const user = (id: number | null) => (id === null ? null : userBasic(w, w.users.get(id)!));
  const detailed = detailedMergeStatus(w, mr);
  const draft = isDraft(mr.title);
  const ref = `!${mr.iid}`;
  const out: Record<string, unknown> = {
    id: mr.id,
    iid: mr.iid,
    project_id: p.id,
    title: mr.title,
    description: mr.description,
    state: mr.state,
    created_at: iso(mr.createdAt),
    updated_at: iso(mr.updatedAt),
    merged_by: user(mr.mergedById),
    merge_user: user(mr.mergedById ?? mr.mergeUserId ?? null),
    merged_at: mr.mergedAt === null ? null : iso(mr.mergedAt),
    closed_by: user(mr.closedById),
    closed_at: mr.closedAt === null ? null : iso(mr.closedAt),
    target_branch: mr.targetBranch,
    source_branch: mr.sourceBranch,
    user_notes_count: mr.seededNotes - mr.deletedNotes.length + mr.createdNotes.filter((n) => !n.system).length,
    upvotes: mr.upvotes,
    downvotes: 0,
    author: user(mr.authorId),
    assignees: mr.assigneeIds.map(user),
    assignee: user(mr.assigneeIds[0] ?? null),
    reviewers: mr.reviewerIds.map(user),
    source_project_id: p.id,
    target_project_id: p.id,
    labels: mr.labels,
    draft,
    imported: false,
    imported_from: 'none',
    work_in_progress: draft,
    milestone: null,
    merge_when_pipeline_succeeds: mr.autoMerge,
    merge_status: mergeStatusOf(detailed, mr.conflicts),
    detailed_merge_status: detailed,
    merge_after: null,
    sha: sourceHead(w, mr),
    merge_commit_sha: mr.mergeCommitSha,
    squash_commit_sha: mr.squashCommitSha,
    discussion_locked: null,
    should_remove_source_branch: mr.removeSourceBranch,
    force_remove_source_branch: mr.removeSourceBranch ?? false,
    prepared_at: mr.preparedAt > Date.now() ? null : iso(Math.max(mr.createdAt, mr.preparedAt)),
    reference: ref,
    references: { short: ref, relative: ref, full: `${p.fullPath}${ref}` },
    web_url: `${w.base()}/${p.fullPath}/-/merge_requests/${mr.iid}`,
    time_stats: timeStatsJson(ask('trackedTime')(w, 'MergeRequest', mr.id)),
    squash: mr.squash,
    squash_on_merge: mr.squash,
    task_completion_status: { count: 0, completed_count: 0 },
    has_conflicts: mr.conflicts,
    blocking_discussions_resolved: true,
  };
  if (!single) return out;
  const pipeline = headPipeline(w, mr);
  const shown = pipeline && can(w, ctx.user, p, 'read_pipeline') ? ask('pipelineJson')(w, pipeline, true) : null;
  const target = w.repos.branchCommits(p.id, mr.targetBranch)!;
  const targetShas = new Set(target.map((c) => c.id));
  const source = w.repos.branchCommits(p.id, mr.sourceBranch) ?? w.repos.lineFrom(p.id, sourceHead(w, mr));
  const base = source.find((c) => targetShas.has(c.id))!.id;
  Object.assign(out, {
    subscribed: ask('isSubscribed')(ctx, { type: 'MergeRequest', id: mr.id, authorId: mr.authorId, assigneeIds: mr.assigneeIds }),
    changes_count: String(mergeRequestChanges(w, mr).length),
    latest_build_started_at: null,
    latest_build_finished_at: null,
    first_deployed_to_production_at: null,
    pipeline: shown && { ...shown },
    head_pipeline: shown,
    diff_refs: { base_sha: base, head_sha: sourceHead(w, mr), start_sha: target[0]!.id },
    merge_error: null,
    first_contribution: false,
    user: { can_merge: ctx.user !== null && canMerge(ctx, p, mr) },
  });
  return out;
}

/** Merging into `main` (protected) needs a maintainer; other targets a developer. */
