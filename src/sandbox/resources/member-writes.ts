// Member writes (reference endpoints §10): add (201), change (200) and remove (204) a project's or a
// group's direct member. Maintainers manage members up to maintainer, owners (and admins) owners too; the
// last owner of a group can be neither demoted nor removed; a level below the one inherited from a parent
// group is refused as the model's validation does.
import { groupChain, groupDirectLevel, groupRole, LEVEL_NAMES, MAINTAINER, MEMBER_LEVELS, OWNER, projectRole } from '../access.js';
import type { Ctx } from '../server/context.js';
import { ApiError, E } from '../server/errors.js';
import { intParam, intSeg, strParam } from '../server/params.js';
import { sendJson } from '../server/respond.js';
import type { MembershipRec } from '../store/memberships.js';
import type { GroupRec, UserRec } from '../store/records.js';
import type { World } from '../store/world.js';
import { type MemberSource, memberJson, ofGroup, ofProject, sourceMembers } from './members.js';
import type { Mounts } from './mounts.js';

function callerRole(ctx: Ctx, source: MemberSource): number {
  const user = ctx.user!;
  if (user.isAdmin) return OWNER;
  return source.kind === 'group' ? groupRole(ctx.world, user.id, source.rec) : projectRole(ctx.world, user, source.rec);
}

function requireRole(ctx: Ctx, source: MemberSource, least: number): void {
  if (callerRole(ctx, source) < least) throw E.forbidden();
}

/** The groups a source inherits members from, nearest first. */
function parentGroups(w: World, source: MemberSource): GroupRec[] {
  if (source.kind === 'group') return groupChain(w, source.rec).slice(1);
  const p = source.rec;
  return p.nsKind === 'group' ? groupChain(w, w.groups.get(p.nsOwner)!) : [];
}

/** A direct level below an inherited one is invalid (`Member#validate_access_level…`): the model's 400. */
function checkInherited(w: World, source: MemberSource, userId: number, level: number): void {
  let from: { level: number; group: GroupRec } | undefined;
  for (const g of parentGroups(w, source)) {
    const inherited = groupDirectLevel(w, userId, g);
    if (inherited > (from?.level ?? 0)) from = { level: inherited, group: g };
  }
  if (from && level < from.level) {
    throw E.validation({
      access_level: [`should be greater than or equal to ${LEVEL_NAMES[from.level]} inherited membership from group ${from.group.name}`],
    });
  }
}

function accessLevelParam(ctx: Ctx): number {
  const level = intParam(ctx, 'access_level');
  if (level === undefined) throw E.missing('access_level');
  if (!MEMBER_LEVELS.includes(level)) throw E.notValid('access_level');
  return level;
}

/** `expires_at` as YYYY-MM-DD; empty clears it; a past day is the model's 400. */
function expiresParam(ctx: Ctx): string | null | undefined {
  const value = strParam(ctx, 'expires_at');
  if (value === undefined) return undefined;
  if (value === '') return null;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) throw E.invalid('expires_at');
  if (value < new Date().toISOString().slice(0, 10)) throw E.validation({ expires_at: ['cannot be a date in the past'] });
  return value;
}

/** The user named by `user_id` or `username` (one of them). */
function targetUser(ctx: Ctx): UserRec {
  const byId = ctx.params.user_id !== undefined;
  const byName = ctx.params.username !== undefined;
  if (byId && byName) throw new ApiError(400, { error: 'user_id, username are mutually exclusive' });
  if (!byId && !byName) throw E.atLeastOne('user_id', 'username');
  const w = ctx.world;
  const id = byId ? intParam(ctx, 'user_id') : w.usersByName.get(strParam(ctx, 'username')!.toLowerCase());
  const user = id === undefined ? null : w.users.own(id);
  if (!user) throw E.notFound('User');
  return user;
}

/** Whether the user is the only owner of a group (its own or inherited owners counted). */
function isLastOwner(w: World, source: MemberSource, userId: number): boolean {
  if (source.kind !== 'group' || groupRole(w, userId, source.rec) !== OWNER) return false;
  for (const u of w.users) if (u.id !== userId && groupRole(w, u.id, source.rec) === OWNER) return false;
  return true;
}

function write(ctx: Ctx, source: MemberSource, userId: number, level: number, expiresAt: string | null): MembershipRec {
  const w = ctx.world;
  const before = w.memberships.get(source.kind, source.rec.id, userId);
  const rec = { level, expiresAt, createdById: before?.createdById ?? ctx.user!.id, createdAt: before?.createdAt ?? w.now() };
  w.memberships.set(source.kind, source.rec.id, userId, rec);
  w.accessChanged();
  return rec;
}

function addMember(ctx: Ctx, source: MemberSource): void {
  const level = accessLevelParam(ctx);
  const expiresAt = expiresParam(ctx);
  requireRole(ctx, source, level === OWNER ? OWNER : MAINTAINER);
  const w = ctx.world;
  const user = targetUser(ctx);
  if (sourceMembers(w, source, false).get(user.id)) throw new ApiError(409, { message: 'Member already exists' });
  checkInherited(w, source, user.id, level);
  const rec = write(ctx, source, user.id, level, expiresAt ?? null);
  sendJson(ctx, 201, memberJson(w, user, { level, written: rec }));
}

function changeMember(ctx: Ctx, source: MemberSource): void {
  const userId = intSeg(ctx, 'user_id');
  const level = accessLevelParam(ctx);
  const expiresAt = expiresParam(ctx);
  requireRole(ctx, source, MAINTAINER);
  const w = ctx.world;
  const member = sourceMembers(w, source, false).get(userId);
  if (!member) throw E.findNotFound();
  if (member.level === OWNER || level === OWNER) requireRole(ctx, source, OWNER);
  if (level < OWNER && isLastOwner(w, source, userId)) throw E.forbidden();
  checkInherited(w, source, userId, level);
  const rec = write(ctx, source, userId, level, expiresAt === undefined ? (member.written?.expiresAt ?? null) : expiresAt);
  sendJson(ctx, 200, memberJson(w, w.users.get(userId)!, { level, written: rec }));
}

function removeMember(ctx: Ctx, source: MemberSource): void {
  const userId = intSeg(ctx, 'user_id');
  const w = ctx.world;
  const member = sourceMembers(w, source, false).get(userId);
  if (!member) throw E.findNotFound();
  // Anyone may leave; removing someone else takes a maintainer, or an owner for an owner.
  if (ctx.user!.id !== userId) requireRole(ctx, source, member.level === OWNER ? OWNER : MAINTAINER);
  // ProjectMemberPolicy: the owner of a personal project is never removed from it.
  if (isLastOwner(w, source, userId) || (source.kind === 'project' && source.rec.nsKind === 'user' && source.rec.nsOwner === userId))
    throw E.forbidden();
  write(ctx, source, userId, 0, null);
  sendJson(ctx, 204, null);
}

export function mountMemberWrites({ project, group }: Mounts): void {
  project.post('/members', { auth: 'user' }, (ctx, p) => addMember(ctx, ofProject(p)));
  project.put('/members/:user_id', { auth: 'user' }, (ctx, p) => changeMember(ctx, ofProject(p)));
  project.delete('/members/:user_id', { auth: 'user' }, (ctx, p) => removeMember(ctx, ofProject(p)));
  group.post('/members', { auth: 'user' }, (ctx, g) => addMember(ctx, ofGroup(g)));
  group.put('/members/:user_id', { auth: 'user' }, (ctx, g) => changeMember(ctx, ofGroup(g)));
  group.delete('/members/:user_id', { auth: 'user' }, (ctx, g) => removeMember(ctx, ofGroup(g)));
}
