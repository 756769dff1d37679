// What a single merge request read adds on request (reference endpoints §2: `render_html`,
// `include_diverged_commits_count`; lib/api/entities/merge_request.rb), and the EE approval state
// (`GET …/approval_state`, ee/lib/api/merge_request_approvals.rb, ee/lib/ee/api/entities/approval_state.rb).
import type { Ctx } from '../server/context.js';
import { boolParam } from '../server/params.js';
import type { World } from '../store/world.js';
import type { MergeRequestRec } from './merge-request-store.js';
import { sourceHead } from './merge-request-store.js';
import { userBasic } from '../entities/user.js';
import { escapeHtml } from '../util/html.js';

/** Commits of the target branch since the merge base: what the source branch lacks of it. */
function divergedCommitsCount(w: World, mr: MergeRequestRec): number {
  const source = new Set(
    (w.repos.branchCommits(mr.projectId, mr.sourceBranch) ?? w.repos.lineFrom(mr.projectId, sourceHead(w, mr))).map((c) => c.id),
  );
  return (w.repos.branchCommits(mr.projectId, mr.targetBranch) ?? []).filter((c) => !source.has(c.id)).length;
}

/** The fields `render_html=true` and `include_diverged_commits_count=true` add to a single read. */
export function singleReadExtras(ctx: Ctx, mr: MergeRequestRec): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (boolParam(ctx, 'render_html') === true) {
    // Titles render as one line of inline markdown; descriptions as paragraphs with their source positions.
    out.title_html = escapeHtml(mr.title);
    const text = mr.description ?? '';
    out.description_html = text === '' ? '' : `<p data-sourcepos="1:1-1:${text.length}" dir="auto">${escapeHtml(text)}</p>`;
  }
  if (boolParam(ctx, 'include_diverged_commits_count') === true) out.diverged_commits_count = divergedCommitsCount(ctx.world, mr);
  return out;
}

/**
 * The approval state: the sandbox's only rule is the one its approvals count against, an `any_approver`
 * rule ("All Members") requiring `approvals_required`, when that is above zero.
 */
export function approvalStateJson(w: World, mr: MergeRequestRec): Record<string, unknown> {
  const approvedBy = mr.approvals.map((a) => userBasic(w, w.users.get(a.userId)!));
  const rules =
    mr.approvalsRequired > 0
      ? [
          {
            id: mr.id,
            name: 'All Members',
            rule_type: 'any_approver',
            eligible_approvers: [],
            approvals_required: mr.approvalsRequired,
            users: [],
            groups: [],
            contains_hidden_groups: false,
            approved_by: approvedBy,
            source_rule: null,
            approved: mr.approvals.length >= mr.approvalsRequired,
            overridden: false,
            section: null,
            code_owner: false,
            report_type: null,
          },
        ]
      : [];
  return { approval_rules_overwritten: false, rules };
}
