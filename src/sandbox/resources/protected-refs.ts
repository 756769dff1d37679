// Protected branches and tags (lib/api/protected_branches.rb, protected_tags.rb,
// entities/protected_branch.rb, protected_tag.rb, protected_ref_access.rb): one store of rules per
// project that every other route asks (`protected` of a branch or tag, who may create a tag, whether a
// merged source branch may go). A rule's name may hold `*` wildcards (`release/*`). Every project
// starts with `main` and `release/*` protected and `v*` tags protected, maintainers only. Reads and
// writes need a maintainer; a name already protected → 409, an unknown one → `404 Not found`.
import { can, projectRole } from '../access.js';
import type { Ctx } from '../server/context.js';
import { ApiError, E } from '../server/errors.js';
import { boolParam, intParam, strParam } from '../server/params.js';
import { pageOf } from '../server/paging.js';
import { sendJson, sendList } from '../server/respond.js';
import { storeFor } from '../store/collection.js';
import type { ProjectRec, UserRec } from '../store/records.js';
import type { World } from '../store/world.js';
import { requireAbility } from './guards.js';
import { offer } from '../engine/ports.js';
import type { Mounts } from './mounts.js';

/** `ProtectedRefAccess` levels: no one, developers, maintainers, admins. */
const LEVELS: Readonly<Record<number, string>> = {
  0: 'No one',
  30: 'Developers + Maintainers',
  40: 'Maintainers',
  60: 'Admins',
};
const MAINTAINERS = 40;

interface Rule {
  id: number;
  name: string;
  /** tags: the create levels; branches: push, merge, unprotect */
  levels: Record<string, number[]>;
  allowForcePush: boolean;
  codeOwnerApproval: boolean;
}

type Kind = 'branch' | 'tag';

const SEED: Record<Kind, string[]> = { branch: ['main', 'release/*'], tag: ['v*'] };
const SLOTS: Record<Kind, string[]> = { branch: ['push', 'merge', 'unprotect'], tag: ['create'] };
/** Ids of rules made through the API start here, above every seeded one (a project's seeded rules are pid × 10 + k). */
const FIRST_CREATED_ID = 500_000;

const store = storeFor(() => ({ rules: new Map<string, Rule[]>(), nextId: FIRST_CREATED_ID }));

function seed(pid: number, kind: Kind): Rule[] {
  return SEED[kind].map((name, k) => ({
    id: pid * 10 + (kind === 'branch' ? k + 1 : 3),
    name,
    levels: Object.fromEntries(SLOTS[kind].map((slot) => [slot, slot === 'unprotect' ? [] : [MAINTAINERS]])),
    allowForcePush: false,
    codeOwnerApproval: false,
  }));
}

function rulesOf(w: World, pid: number, kind: Kind): Rule[] {
  const s = store(w);
  const key = `${kind}:${pid}`;
  let list = s.rules.get(key);
  if (!list) {
    list = seed(pid, kind);
    s.rules.set(key, list);
  }
  return list;
}

/** `RefMatcher`: `*` matches any run of characters, `/` included; otherwise the name itself. */
function matches(rule: string, name: string): boolean {
  if (!rule.includes('*')) return rule === name;
  const pattern = rule.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\/-]/g, '\\$&'));
  return new RegExp(`^${pattern.join('.*?')}$`).test(name);
}

function rulesFor(w: World, pid: number, kind: Kind, name: string): Rule[] {
  return rulesOf(w, pid, kind).filter((r) => matches(r.name, name));
}

/** A project's protected branch rules as the service renders them, for the approval rules that name them. */
function protectedBranchesOf(w: World, pid: number): Array<{ id: number; name: string; json: Record<string, unknown> }> {
  return rulesOf(w, pid, 'branch').map((r) => ({ id: r.id, name: r.name, json: ruleJson('branch', r) }));
}

/** Whether a protected branch rule (a name or a wildcard) covers a branch. */
function branchRuleCovers(rule: string, branch: string): boolean {
  return matches(rule, branch);
}

export function isProtectedBranch(w: World, pid: number, name: string): boolean {
  return rulesFor(w, pid, 'branch', name).length > 0;
}

export function isProtectedTag(w: World, pid: number, name: string): boolean {
  return rulesFor(w, pid, 'tag', name).length > 0;
}

function allowed(w: World, user: UserRec | null, p: ProjectRec, level: number): boolean {
  if (!user || level === 0) return false;
  return user.isAdmin || (level < 60 && projectRole(w, user, p) >= level);
}

/** `Gitlab::UserAccess#can_create_tag?`: a tag no rule protects, or one a rule lets the user create. */
export function mayCreateProtectedTag(w: World, user: UserRec | null, p: ProjectRec, name: string): boolean {
  const rules = rulesFor(w, p.id, 'tag', name);
  return rules.length === 0 || rules.some((r) => r.levels.create!.some((level) => allowed(w, user, p, level)));
}

/** Pushing or merging into a branch takes pushing, and, when rules protect it, a level one of them lets do that. */
function mayWriteBranch(w: World, user: UserRec | null, p: ProjectRec, branch: string, slot: 'push' | 'merge'): boolean {
  const rules = rulesFor(w, p.id, 'branch', branch);
  return (
    can(w, user, p, 'push_code') && (rules.length === 0 || rules.some((r) => r.levels[slot]!.some((level) => allowed(w, user, p, level))))
  );
}

export function mayMergeInto(w: World, user: UserRec | null, p: ProjectRec, branch: string): boolean {
  return mayWriteBranch(w, user, p, branch, 'merge');
}

/** `Gitlab::UserAccess#can_push_to_branch?` */
function mayPushTo(w: World, user: UserRec | null, p: ProjectRec, branch: string): boolean {
  return mayWriteBranch(w, user, p, branch, 'push');
}

function levelsJson(rule: Rule, slot: string): Record<string, unknown>[] {
  const k = SLOTS.branch.includes(slot) ? SLOTS.branch.indexOf(slot) + 1 : 1;
  return rule.levels[slot]!.map((level, i) => ({
    id: rule.id * 100 + k * 10 + i,
    access_level: level,
    access_level_description: LEVELS[level],
    user_id: null,
    group_id: null,
  }));
}

function ruleJson(kind: Kind, r: Rule): Record<string, unknown> {
  if (kind === 'tag') return { name: r.name, create_access_levels: levelsJson(r, 'create') };
  return {
    id: r.id,
    name: r.name,
    push_access_levels: levelsJson(r, 'push'),
    merge_access_levels: levelsJson(r, 'merge'),
    unprotect_access_levels: levelsJson(r, 'unprotect'),
    allow_force_push: r.allowForcePush,
    code_owner_approval_required: r.codeOwnerApproval,
  };
}

/** An access level parameter: one of the levels a protected ref takes (Grape's `values:`). */
function levelParam(ctx: Ctx, name: string): number | undefined {
  const raw = ctx.params[name];
  if (raw === undefined || raw === null) return undefined;
  const level = intParam(ctx, name);
  if (level === undefined || !(level in LEVELS)) throw E.notValid(name);
  return level;
}

function boolField(ctx: Ctx, name: string): boolean | undefined {
  const raw = ctx.params[name];
  if (raw === undefined || raw === null) return undefined;
  const value = boolParam(ctx, name);
  if (value === undefined) throw E.invalid(name);
  return value;
}

function find(ctx: Ctx, p: ProjectRec, kind: Kind): Rule {
  const rule = rulesOf(ctx.world, p.id, kind).find((r) => r.name === ctx.p.name);
  if (!rule) throw E.findNotFound();
  return rule;
}

function create(ctx: Ctx, p: ProjectRec, kind: Kind): Rule {
  const name = strParam(ctx, 'name');
  if (name === undefined) throw E.missing('name');
  const levels = Object.fromEntries(
    SLOTS[kind].map((slot) => {
      const level = levelParam(ctx, `${slot}_access_level`);
      return [slot, level === undefined ? (slot === 'unprotect' ? [] : [MAINTAINERS]) : [level]];
    }),
  );
  const force = boolField(ctx, 'allow_force_push');
  const codeOwner = boolField(ctx, 'code_owner_approval_required');
  const list = rulesOf(ctx.world, p.id, kind);
  if (list.some((r) => r.name === name)) {
    throw new ApiError(409, { message: `Protected ${kind} '${name}' already exists` });
  }
  if (name.trim() === '') throw E.validation({ name: ["can't be blank"] });
  const rule: Rule = {
    id: store(ctx.world).nextId++,
    name,
    levels,
    allowForcePush: kind === 'branch' && force === true,
    codeOwnerApproval: kind === 'branch' && codeOwner === true,
  };
  list.push(rule);
  return rule;
}

function mountKind({ project }: Mounts, kind: Kind, path: string): void {
  const maintainer = (ctx: Ctx, p: ProjectRec) => requireAbility(ctx, p, 'admin_project');
  project.get(path, { auth: 'user' }, (ctx, p) => {
    maintainer(ctx, p);
    sendList(
      ctx,
      pageOf(ctx, rulesOf(ctx.world, p.id, kind)).map((r) => ruleJson(kind, r)),
    );
  });
  project.get(`${path}/:name`, { auth: 'user' }, (ctx, p) => {
    maintainer(ctx, p);
    sendJson(ctx, 200, ruleJson(kind, find(ctx, p, kind)));
  });
  project.post(path, { auth: 'user' }, (ctx, p) => {
    maintainer(ctx, p);
    sendJson(ctx, 201, ruleJson(kind, create(ctx, p, kind)));
  });
  project.delete(`${path}/:name`, { auth: 'user' }, (ctx, p) => {
    maintainer(ctx, p);
    const list = rulesOf(ctx.world, p.id, kind);
    list.splice(list.indexOf(find(ctx, p, kind)), 1);
    sendJson(ctx, 204, null);
  });
}

export function mountProtectedRefs(m: Mounts): void {
  offer('protectedBranchesOf', protectedBranchesOf);
  offer('branchRuleCovers', branchRuleCovers);
  offer('mayPushTo', mayPushTo);
  offer('isProtectedBranch', isProtectedBranch);
  offer('isProtectedTag', isProtectedTag);
  offer('mayCreateProtectedTag', mayCreateProtectedTag);
  offer('mayMergeInto', mayMergeInto);
  mountKind(m, 'branch', '/protected_branches');
  mountKind(m, 'tag', '/protected_tags');
  m.project.add('PATCH', '/protected_branches/:name', { auth: 'user' }, (ctx, p) => {
    requireAbility(ctx, p, 'admin_project');
    const rule = find(ctx, p, 'branch');
    const force = boolField(ctx, 'allow_force_push');
    const codeOwner = boolField(ctx, 'code_owner_approval_required');
    if (force !== undefined) rule.allowForcePush = force;
    if (codeOwner !== undefined) rule.codeOwnerApproval = codeOwner;
    sendJson(ctx, 200, ruleJson('branch', rule));
  });
}
