// What a single merge request read adds on request (reference endpoints §2: `render_html`,
// `include_diverged_commits_count`; lib/api/entities/merge_request.rb), and the EE approval state
// (`GET …/approval_state`, ee/lib/api/merge_request_approvals.rb, ee/lib/ee/api/entities/approval_state.rb).
import type { Ctx } from '../server/context.js';
import { ask } from '../engine/ports.js';
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
 * The approval state: the project's approval rules that apply to the merge request's target branch (a
 * rule naming nobody is `any_approver`: every approval counts), and, when the merge request itself
 * requires approvals, the `any_approver` rule ("All Members") its approvals count against.
 */
export function approvalStateJson(w: World, mr: MergeRequestRec): Record<string, unknown> {
  const approvedBy = (ids: readonly number[] | null) =>
    mr.approvals.filter((a) => ids === null || ids.includes(a.userId)).map((a) => userBasic(w, w.users.get(a.userId)!));
  const users = (ids: readonly number[]) => ids.map((id) => userBasic(w, w.users.get(id)!));
  const rule = (
    id: number,
    name: string,
    required: number,
    r: { userIds: readonly number[]; groupIds: readonly number[]; eligibleIds: readonly number[] },
  ) => {
    const named = r.userIds.length + r.groupIds.length > 0;
    const approved = approvedBy(named ? r.eligibleIds : null);
    return {
      id,
      name,
      rule_type: named ? 'regular' : 'any_approver',
      eligible_approvers: users(r.eligibleIds),
      approvals_required: required,
      users: users(r.userIds),
      groups: r.groupIds.map((g) => ask('groupJson')(w, w.groups.get(g)!, null)),
      contains_hidden_groups: false,
      approved_by: approved,
      source_rule: null,
      approved: approved.length >= required,
      overridden: false,
      section: null,
      code_owner: false,
      report_type: null,
    };
  };
  const rules = ask('approvalRulesOf')(w, mr.projectId, mr.targetBranch).map((r) => rule(r.id, r.name, r.approvalsRequired, r));
  const nobody = { userIds: [], groupIds: [], eligibleIds: [] };
  if (mr.approvalsRequired > 0) rules.push(rule(mr.id, 'All Members', mr.approvalsRequired, nobody));
  return { approval_rules_overwritten: false, rules };
}
