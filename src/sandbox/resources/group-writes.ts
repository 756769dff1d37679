// Group writes (reference endpoints §9): create (201; the creator becomes its owner), update (200, owner),
// delayed deletion (202: renamed `<path>-deletion_scheduled-<id>`, `marked_for_deletion_on` in 7 days) and
// transfer under another group or to the top level (201, the TransferService's checks and texts).
import { canReadGroup, groupDirectLevel, groupRole, OWNER } from '../access.js';
import type { Ctx } from '../server/context.js';
import { ApiError, E } from '../server/errors.js';
import { enumParam, intParam, strParam } from '../server/params.js';
import { sendJson } from '../server/respond.js';
import type { GroupRec, Visibility } from '../store/records.js';
import type { World } from '../store/world.js';
import { descendantGroups, groupDetailJson, groupJson } from './groups.js';
import { instanceSettings } from './instance-settings.js';
import type { Mounts } from './mounts.js';
import { pathFormatError } from './paths.js';

const VISIBILITIES: readonly Visibility[] = ['private', 'internal', 'public'];
const DELETION_DELAY_DAYS = 7;

function requireOwner(ctx: Ctx, g: GroupRec): void {
  if (!ctx.user!.isAdmin && groupRole(ctx.world, ctx.user!.id, g) < OWNER) throw E.forbidden();
}

/** Whether a group or a project already has this path right under `parentId` (null: the top level). */
function pathTaken(w: World, parentId: number | null, path: string): boolean {
  const parent = parentId === null ? null : w.groups.get(parentId)!;
  const full = (parent ? `${parent.fullPath}/${path}` : path).toLowerCase();
  return w.groupsByPath.has(full) || (parent !== null && w.projectsByPath.has(full));
}

/** Recomputes the full path and name of a group and everything under it, projects included. */
function repath(w: World, g: GroupRec): void {
  const moved = new Set<number>();
  const walk = (at: GroupRec) => {
    const parent = at.parentId === null ? null : w.groups.get(at.parentId)!;
    w.groupsByPath.delete(at.fullPath.toLowerCase());
    at.fullPath = parent ? `${parent.fullPath}/${at.path}` : at.path;
    at.fullName = parent ? `${parent.fullName} / ${at.name}` : at.name;
    at.rootId = parent ? parent.rootId : at.id;
    w.groupsByPath.set(at.fullPath.toLowerCase(), at.id);
    moved.add(at.id);
    for (const child of w.groupChildren.get(at.id) ?? []) walk(w.groups.get(child)!);
  };
  walk(g);
  for (const id of [...w.allIds]) {
    const p = w.projects.get(id)!;
    if (p.nsKind === 'group' && moved.has(p.nsOwner)) w.changeProject(p, {});
  }
  w.accessChanged();
}

function createGroup(ctx: Ctx): void {
  const w = ctx.world;
  const name = strParam(ctx, 'name');
  const path = strParam(ctx, 'path');
  if (name === undefined || path === undefined)
    throw E.missing(...(name === undefined ? ['name'] : []), ...(path === undefined ? ['path'] : []));
  const visibility = enumParam(ctx, 'visibility', VISIBILITIES, instanceSettings(ctx.world).default_group_visibility);
  const parentId = intParam(ctx, 'parent_id') ?? null;
  const parent = parentId === null ? null : w.groups.get(parentId);
  if (parentId !== null && (!parent || !canReadGroup(w, ctx.user, parent))) throw E.notFound('Group');
  if (parent) requireOwner(ctx, parent);
  const badPath = pathFormatError(path);
  if (badPath) throw E.badRequest(`Failed to save group {:path=>["${badPath}"]}`);
  if (pathTaken(w, parentId, path)) throw E.badRequest('Failed to save group {:path=>["has already been taken"]}');
  const g = w.addGroup({
    name,
    path,
    fullPath: parent ? `${parent.fullPath}/${path}` : path,
    fullName: parent ? `${parent.fullName} / ${name}` : name,
    parentId,
    rootId: parent ? parent.rootId : 0,
    visibility,
    description: strParam(ctx, 'description') ?? '',
    createdAt: w.now(),
    storage: w.storages[0]!,
    readOnly: false,
  });
  if (!parent) g.rootId = g.id;
  w.memberships.set('group', g.id, ctx.user!.id, { level: OWNER, expiresAt: null, createdById: ctx.user!.id, createdAt: g.createdAt });
  w.accessChanged();
  sendJson(ctx, 201, groupJson(w, g, ctx.user));
}

function updateGroup(ctx: Ctx, g: GroupRec): void {
  const w = ctx.world;
  requireOwner(ctx, g);
  const name = strParam(ctx, 'name');
  const path = strParam(ctx, 'path');
  const visibility = enumParam(ctx, 'visibility', VISIBILITIES);
  const description = strParam(ctx, 'description');
  const badPath = path === undefined ? null : pathFormatError(path);
  if (badPath) throw E.validation({ path: [badPath] });
  if (path !== undefined && path.toLowerCase() !== g.path.toLowerCase() && pathTaken(w, g.parentId, path)) {
    throw E.validation({ path: ['has already been taken'] });
  }
  const refusals = visibility === undefined ? [] : visibilityRefusals(w, g, visibility);
  if (refusals.length > 0) throw E.validation({ visibility_level: refusals });
  if (description !== undefined) g.description = description;
  if (visibility !== undefined) g.visibility = visibility;
  if (name !== undefined) g.name = name;
  if (path !== undefined) g.path = path;
  repath(w, g);
  sendJson(ctx, 200, groupDetailJson(ctx, g));
}

const RANK: Readonly<Record<Visibility, number>> = { private: 0, internal: 10, public: 20 };

/** The model's reasons to refuse a visibility below that of a project in the group's tree or of a subgroup. */
function visibilityRefusals(w: World, g: GroupRec, level: Visibility): string[] {
  const above = (v: Visibility) => RANK[v] > RANK[level];
  const tree = new Set([g.id, ...descendantGroups(w, g.id)]);
  const reasons: string[] = [];
  if (
    w.allIds.some((id) => {
      const p = w.projects.get(id)!;
      return p.nsKind === 'group' && tree.has(p.nsOwner) && above(p.visibility);
    })
  )
    reasons.push(`${level} is not allowed since this group contains projects with higher visibility.`);
  if ((w.groupChildren.get(g.id) ?? []).some((id) => above(w.groups.get(id)!.visibility)))
    reasons.push(`${level} is not allowed since there are sub-groups with higher visibility.`);
  return reasons;
}

function deleteGroup(ctx: Ctx, g: GroupRec): void {
  requireOwner(ctx, g);
  if (g.markedForDeletionOn) throw E.badRequest('Group has been already marked for deletion');
  const suffix = `-deletion_scheduled-${g.id}`;
  g.name += suffix;
  g.path += suffix;
  g.markedForDeletionOn = new Date(Date.now() + DELETION_DELAY_DAYS * 86_400_000).toISOString().slice(0, 10);
  repath(ctx.world, g);
  sendJson(ctx, 202, { message: '202 Accepted' });
}

function transferFailed(reason: string): ApiError {
  return E.badRequest(`Transfer failed: ${reason}`);
}

function transferGroup(ctx: Ctx, g: GroupRec): void {
  const w = ctx.world;
  requireOwner(ctx, g);
  const targetId = intParam(ctx, 'group_id');
  const target = targetId === undefined ? null : w.groups.get(targetId);
  if (targetId !== undefined && (!target || !canReadGroup(w, ctx.user, target))) throw E.notFound('Group');
  if (!target && g.parentId === null) throw transferFailed('Group is already a root group.');
  if (target && target.id === g.parentId) throw transferFailed('Group is already associated to the parent group.');
  if (target && !ctx.user!.isAdmin && groupRole(w, ctx.user!.id, target) < OWNER)
    throw transferFailed("You don't have enough permissions.");
  if (pathTaken(w, target?.id ?? null, g.path))
    throw transferFailed('The parent group already has a subgroup or a project with the same path.');
  if (target && isWithin(w, target, g)) throw transferFailed('Cannot transfer group to one of its subgroup.');
  // Seeded members belong to root groups: kept as written memberships when the group stops or starts being one.
  const before = [...w.users].map((u) => [u, groupDirectLevel(w, u.id, g)] as const);
  if (g.parentId !== null) {
    const siblings = w.groupChildren.get(g.parentId)!;
    siblings.splice(siblings.indexOf(g.id), 1);
  }
  g.parentId = target?.id ?? null;
  if (target) w.groupChildren.set(target.id, [...(w.groupChildren.get(target.id) ?? []), g.id]);
  for (const [u, level] of before) {
    if (groupDirectLevel(w, u.id, g) !== level)
      w.memberships.set('group', g.id, u.id, { level, expiresAt: null, createdById: 1, createdAt: u.createdAt });
  }
  if (target && VISIBILITIES.indexOf(target.visibility) < VISIBILITIES.indexOf(g.visibility)) narrowVisibility(w, g, target.visibility);
  repath(w, g);
  sendJson(ctx, 201, groupDetailJson(ctx, g));
}

/** Whether `g` is `ancestor` or lies under it. */
function isWithin(w: World, g: GroupRec, ancestor: GroupRec): boolean {
  for (let at: GroupRec | null = g; at; at = at.parentId === null ? null : w.groups.get(at.parentId))
    if (at.id === ancestor.id) return true;
  return false;
}

/** A group moved under a less visible parent takes its visibility, with everything under it. */
function narrowVisibility(w: World, g: GroupRec, visibility: Visibility): void {
  const limit = VISIBILITIES.indexOf(visibility);
  for (const at of w.groups) if (isWithin(w, at, g) && VISIBILITIES.indexOf(at.visibility) > limit) at.visibility = visibility;
  for (const id of [...w.allIds]) {
    const p = w.projects.get(id)!;
    if (p.nsKind === 'group' && isWithin(w, w.groups.get(p.nsOwner)!, g) && VISIBILITIES.indexOf(p.visibility) > limit)
      w.changeProject(p, { visibility });
  }
}

export function mountGroupWrites({ root, group }: Mounts): void {
  root.post('/groups', { auth: 'user' }, createGroup);
  group.put('', { auth: 'user' }, updateGroup);
  group.delete('', { auth: 'user' }, deleteGroup);
  group.post('/transfer', { auth: 'user' }, transferGroup);
}
