// Project approval rules (premium; ee/lib/api/project_approval_rules.rb, helpers/project_approval_rules_helpers.rb,
// services/approval_rules/create_service.rb, entities approval_rule.rb, project_approval_rule.rb): reading them
// needs the developer role (who may open a merge request) or more, writing them the maintainer role. `users`/
// `user_ids`, `usernames`, `groups`/`group_ids` and `protected_branch_ids` name who may approve and where the
// rule applies; ids of users and groups that do not exist are dropped, a protected branch id the project does
// not have is `400 {"message":{"protected_branches":["is invalid"]}}`. A rule with nobody named is an
// `any_approver` rule. A name taken → `{"message":{"name":["has already been taken"]}}`. The merge requests'
// approval state reads these rules through the `approvalRulesOf` port (README, "Approval rules").
import { can, DEVELOPER, groupRole } from '../access.js';
import { ask, offer } from '../engine/ports.js';
import type { Ctx } from '../server/context.js';
import { E } from '../server/errors.js';
import { intParam, intSeg, listParam, strParam } from '../server/params.js';
import { pageOf } from '../server/paging.js';
import { sendJson, sendList } from '../server/respond.js';
import { storeFor } from '../store/collection.js';
import type { ProjectRec, UserRec } from '../store/records.js';
import type { World } from '../store/world.js';
import type { Mounts } from './mounts.js';
import { userBasic } from '../entities/user.js';

interface RuleRec {
  id: number;
  projectId: number;
  name: string;
  approvalsRequired: number;
  userIds: number[];
  groupIds: number[];
  protectedBranchIds: number[];
}

const store = storeFor(() => ({ byProject: new Map<number, RuleRec[]>(), nextId: 1 }));

function rulesOf(w: World, pid: number): RuleRec[] {
  const s = store(w);
  let list = s.byProject.get(pid);
  if (!list) {
    list = [];
    s.byProject.set(pid, list);
  }
  return list;
}

/** Who may approve under a rule: its users, and the developers and up of its groups. */
function eligibleUsers(w: World, r: { userIds: readonly number[]; groupIds: readonly number[] }): UserRec[] {
  const ids = new Set(r.userIds);
  const groups = r.groupIds.map((id) => w.groups.get(id)).filter((g) => g !== null);
  if (groups.length > 0) for (const u of w.users) if (groups.some((g) => groupRole(w, u.id, g) >= DEVELOPER)) ids.add(u.id);
  return [...ids].map((id) => w.users.get(id)).filter((u): u is UserRec => u !== null);
}

function ruleJson(ctx: Ctx, p: ProjectRec, r: RuleRec): Record<string, unknown> {
  const w = ctx.world;
  const branches = ask('protectedBranchesOf')(w, p.id);
  return {
    id: r.id,
    name: r.name,
    rule_type: r.userIds.length + r.groupIds.length === 0 ? 'any_approver' : 'regular',
    report_type: null,
    eligible_approvers: eligibleUsers(w, r).map((u) => userBasic(w, u)),
    approvals_required: r.approvalsRequired,
    users: r.userIds.map((id) => userBasic(w, w.users.get(id)!)),
    groups: r.groupIds.map((id) => ask('groupJson')(w, w.groups.get(id)!, ctx.user)),
    contains_hidden_groups: false,
    protected_branches: branches.filter((b) => r.protectedBranchIds.includes(b.id)).map((b) => b.json),
    applies_to_all_protected_branches: false,
  };
}

/** Reads the parameters given; `undefined` where a list was not given at all. */
function readLists(ctx: Ctx, p: ProjectRec): { userIds?: number[]; groupIds?: number[]; protectedBranchIds?: number[] } {
  const w = ctx.world;
  const ints = (...names: string[]) => {
    const given = names.map((n) => listParam(ctx, n)).find((v) => v !== undefined);
    if (given === undefined) return undefined;
    if (given.some((v) => !/^\d+$/.test(v.trim()))) throw E.invalid(names[0]!);
    return given.map((v) => Number(v));
  };
  const named = listParam(ctx, 'usernames')?.map((n) => w.findUser(n.trim().replace(/^@/, ''))?.id ?? 0);
  const listed = ints('user_ids', 'users');
  const userIds =
    listed === undefined && named === undefined
      ? undefined
      : [...new Set([...(listed ?? []), ...(named ?? [])])].filter((id) => w.users.get(id));
  const groupIds = ints('group_ids', 'groups')?.filter((id) => w.groups.get(id));
  const protectedBranchIds = ints('protected_branch_ids');
  const known = new Set(ask('protectedBranchesOf')(w, p.id).map((b) => b.id));
  if (protectedBranchIds?.some((id) => !known.has(id))) throw E.validation({ protected_branches: ['is invalid'] });
  return { userIds, groupIds, protectedBranchIds };
}

function validate(w: World, p: ProjectRec, r: RuleRec): void {
  const errors: Record<string, string[]> = {};
  if (!r.name.trim()) errors.name = ["can't be blank"];
  else if (rulesOf(w, p.id).some((x) => x.id !== r.id && x.name === r.name)) errors.name = ['has already been taken'];
  if (r.approvalsRequired < 0) errors.approvals_required = ['must be greater than or equal to 0'];
  if (r.approvalsRequired > 100) errors.approvals_required = ['must be less than or equal to 100'];
  if (Object.keys(errors).length > 0) throw E.validation(errors);
}

function findRule(ctx: Ctx, p: ProjectRec): RuleRec {
  const id = intSeg(ctx, 'approval_rule_id');
  const rule = rulesOf(ctx.world, p.id).find((r) => r.id === id);
  if (!rule) throw E.findNotFound();
  return rule;
}

const mayRead = (ctx: Ctx, p: ProjectRec) => can(ctx.world, ctx.user, p, 'create_merge_request');
const mayWrite = (ctx: Ctx, p: ProjectRec) => can(ctx.world, ctx.user, p, 'admin_project');

export function mountApprovalRules({ project }: Mounts): void {
  offer('approvalRulesOf', (w, pid, targetBranch) => {
    const branches = ask('protectedBranchesOf')(w, pid);
    const covers = ask('branchRuleCovers');
    return rulesOf(w, pid)
      .filter(
        (r) =>
          r.protectedBranchIds.length === 0 || branches.some((b) => r.protectedBranchIds.includes(b.id) && covers(b.name, targetBranch)),
      )
      .map((r) => ({ ...r, eligibleIds: eligibleUsers(w, r).map((u) => u.id) }));
  });
  const opts = { auth: 'user' as const, premium: true };
  const guard = (ok: boolean) => {
    if (!ok) throw E.forbidden();
  };
  project.get('/approval_rules', opts, (ctx, p) => {
    guard(mayRead(ctx, p) || mayWrite(ctx, p));
    sendList(
      ctx,
      pageOf(ctx, rulesOf(ctx.world, p.id)).map((r) => ruleJson(ctx, p, r)),
    );
  });
  project.get('/approval_rules/:approval_rule_id', opts, (ctx, p) => {
    guard(mayRead(ctx, p) || mayWrite(ctx, p));
    sendJson(ctx, 200, ruleJson(ctx, p, findRule(ctx, p)));
  });
  project.post('/approval_rules', opts, (ctx, p) => {
    const name = strParam(ctx, 'name');
    const required = intParam(ctx, 'approvals_required');
    const missing = [name === undefined ? 'name' : null, required === undefined ? 'approvals_required' : null].filter(
      (n): n is string => n !== null,
    );
    if (missing.length > 0) throw E.missing(...missing);
    guard(mayWrite(ctx, p));
    const lists = readLists(ctx, p);
    const rule: RuleRec = {
      id: 0,
      projectId: p.id,
      name: name!,
      approvalsRequired: required!,
      userIds: lists.userIds ?? [],
      groupIds: lists.groupIds ?? [],
      protectedBranchIds: lists.protectedBranchIds ?? [],
    };
    validate(ctx.world, p, rule);
    rule.id = store(ctx.world).nextId++;
    rulesOf(ctx.world, p.id).push(rule);
    sendJson(ctx, 201, ruleJson(ctx, p, rule));
  });
  project.put('/approval_rules/:approval_rule_id', opts, (ctx, p) => {
    guard(mayWrite(ctx, p));
    const rule = findRule(ctx, p);
    const lists = readLists(ctx, p);
    const next: RuleRec = {
      ...rule,
      name: strParam(ctx, 'name') ?? rule.name,
      approvalsRequired: intParam(ctx, 'approvals_required') ?? rule.approvalsRequired,
      userIds: lists.userIds ?? rule.userIds,
      groupIds: lists.groupIds ?? rule.groupIds,
      protectedBranchIds: lists.protectedBranchIds ?? rule.protectedBranchIds,
    };
    validate(ctx.world, p, next);
    Object.assign(rule, next);
    sendJson(ctx, 200, ruleJson(ctx, p, rule));
  });
  project.delete('/approval_rules/:approval_rule_id', opts, (ctx, p) => {
    guard(mayWrite(ctx, p));
    const list = rulesOf(ctx.world, p.id);
    list.splice(list.indexOf(findRule(ctx, p)), 1);
    sendJson(ctx, 204, null);
  });
}
