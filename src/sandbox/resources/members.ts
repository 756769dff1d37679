// Members (reference endpoints §10): `GET /projects/:id/members`, `/groups/:id/members` (direct) and
// `…/members/all` (with the levels inherited through parent groups and, for a project, the groups it is
// shared with), one member of each, the project's users (`/projects/:id/users`), and the writes (member-writes.ts). Seeded group members belong to root groups (access.ts); subgroups inherit them.
import { groupChain, groupDirectLevel, projectDirectLevel } from '../access.js';
import type { Ctx } from '../server/context.js';
import { E } from '../server/errors.js';
import { intSeg, listParam, strParam } from '../server/params.js';
import { offsetPage, pageOf } from '../server/paging.js';
import { sendJson, sendList } from '../server/respond.js';
import type { MembershipRec, MemberSourceKind } from '../store/memberships.js';
import type { GroupRec, ProjectRec, UserRec } from '../store/records.js';
import type { World } from '../store/world.js';
import { iso } from '../util/time.js';
import type { Mounts } from './mounts.js';
import { ask } from '../engine/ports.js';
import { userBasic } from '../entities/user.js';

/** A project or a group, as the members routes see it. */
export type MemberSource = { kind: 'group'; rec: GroupRec } | { kind: 'project'; rec: ProjectRec };

interface Membership {
  level: number;
  /** The written membership the level comes from; none for a seeded one. */
  written?: MembershipRec;
}

/** User id → membership, the higher level kept where a user is a member twice. */
export type Levels = Map<number, Membership>;

function addLevel(levels: Levels, userId: number, level: number, written?: MembershipRec): void {
  if (level > (levels.get(userId)?.level ?? 0)) levels.set(userId, { level, written });
}

/** Direct members of one source: the seeded ones unless written over, then the written ones. */
function directLevels(
  w: World,
  kind: MemberSourceKind,
  id: number,
  seeded: (userId: number) => number,
  seededIds: Iterable<number>,
): Levels {
  const levels: Levels = new Map();
  const written = w.memberships.of(kind, id);
  for (const userId of seededIds) if (!written.has(userId) && w.users.own(userId)) addLevel(levels, userId, seeded(userId));
  for (const [userId, rec] of written) addLevel(levels, userId, rec.level, rec);
  return levels;
}

function groupDirect(w: World, g: GroupRec): Levels {
  // Only root groups have seeded members; every user may be one.
  const seededIds = g.parentId === null ? [...w.users].map((u) => u.id) : [];
  return directLevels(w, 'group', g.id, (userId) => groupDirectLevel(w, userId, g), seededIds);
}

function projectDirect(w: World, p: ProjectRec): Levels {
  const seededIds = [p.nsKind === 'user' ? p.nsOwner : p.creatorId];
  return directLevels(w, 'project', p.id, (userId) => projectDirectLevel(w, userId, p), seededIds);
}

function merged(into: Levels, from: Levels): Levels {
  for (const [userId, m] of from) addLevel(into, userId, m.level, m.written);
  return into;
}

/** The group's members, with `inherited` those of its ancestors too. */
export function groupMembers(w: World, g: GroupRec, inherited: boolean): Levels {
  if (!inherited) return groupDirect(w, g);
  return groupChain(w, g).reduce((levels, at) => merged(levels, groupDirect(w, at)), new Map() as Levels);
}

export function sourceMembers(w: World, source: MemberSource, inherited: boolean): Levels {
  if (source.kind === 'group') return groupMembers(w, source.rec, inherited);
  const p = source.rec;
  const levels = projectDirect(w, p);
  if (!inherited) return levels;
  if (p.nsKind === 'group') merged(levels, groupMembers(w, w.groups.get(p.nsOwner)!, true));
  return invitedMembers(w, p, levels);
}

/** Members of the groups the project is shared with, each at most at the share's access level. */
function invitedMembers(w: World, p: ProjectRec, into: Levels): Levels {
  const today = new Date().toISOString().slice(0, 10);
  for (const share of ask('sharesOf')(w, p.id)) {
    const g = w.groups.get(share.groupId);
    if (!g || (share.expiresAt !== null && share.expiresAt < today)) continue;
    for (const [userId, m] of groupMembers(w, g, true)) addLevel(into, userId, Math.min(m.level, share.access), m.written);
  }
  return into;
}

export function memberJson(w: World, u: UserRec, m: Membership): Record<string, unknown> {
  return {
    ...userBasic(w, u),
    access_level: m.level,
    created_at: iso(m.written?.createdAt ?? u.createdAt),
    created_by: userBasic(w, w.users.get(m.written?.createdById ?? 1)!),
    expires_at: m.written?.expiresAt ?? null,
    membership_state: 'active',
  };
}

/** Members by user id, filtered by `query` (username or name) and `user_ids[]`, one page. */
function sendMembers(ctx: Ctx, levels: Levels): void {
  const w = ctx.world;
  const query = strParam(ctx, 'query')?.toLowerCase();
  const raw = ctx.params.user_ids;
  const only = raw === undefined ? undefined : new Set((Array.isArray(raw) ? raw : String(raw).split(',')).map(Number));
  const members = [...levels.entries()]
    .filter(([id, m]) => m.level > 0 && (!only || only.has(id)))
    .map(([id, m]) => ({ user: w.users.get(id)!, m }))
    .filter(({ user }) => !query || user.username.toLowerCase().includes(query) || user.name.toLowerCase().includes(query))
    .sort((a, b) => a.user.id - b.user.id);
  const page = offsetPage(ctx, members.length, (off, lim) => members.slice(off, off + lim));
  sendList(
    ctx,
    page.map(({ user, m }) => memberJson(w, user, m)),
  );
}

/** `…/members/:user_id`: one member, or `find_by!`'s 404 (reference §0). */
function sendMember(ctx: Ctx, levels: Levels): void {
  const userId = intSeg(ctx, 'user_id');
  const m = levels.get(userId);
  if (!m || m.level === 0) throw E.findNotFound();
  sendJson(ctx, 200, memberJson(ctx.world, ctx.world.users.get(userId)!, m));
}

export const ofProject = (p: ProjectRec): MemberSource => ({ kind: 'project', rec: p });
export const ofGroup = (g: GroupRec): MemberSource => ({ kind: 'group', rec: g });

/**
 * `GET /projects/:id/users` (lib/api/projects.rb): the users of the project's team (its members, inherited
 * and invited ones too) as UserBasic by id; `search` in name, username or email; `skip_users[]`.
 */
function projectUsers(ctx: Ctx, p: ProjectRec): void {
  const w = ctx.world;
  const search = strParam(ctx, 'search')?.toLowerCase();
  const skip = new Set((listParam(ctx, 'skip_users') ?? []).map(Number));
  const users = [...sourceMembers(w, ofProject(p), true)]
    .filter(([id, m]) => m.level > 0 && !skip.has(id))
    .map(([id]) => w.users.get(id)!)
    .filter((u) => !search || [u.name, u.username, u.email].some((x) => x.toLowerCase().includes(search)))
    .sort((a, b) => a.id - b.id);
  sendList(
    ctx,
    pageOf(ctx, users).map((u) => userBasic(w, u)),
  );
}

export function mountMembers({ project, group }: Mounts): void {
  project.get('/users', { auth: 'public' }, projectUsers);
  project.get('/members', { auth: 'public' }, (ctx, p) => sendMembers(ctx, sourceMembers(ctx.world, ofProject(p), false)));
  project.get('/members/all', { auth: 'public' }, (ctx, p) => sendMembers(ctx, sourceMembers(ctx.world, ofProject(p), true)));
  project.get('/members/:user_id', { auth: 'public' }, (ctx, p) => sendMember(ctx, sourceMembers(ctx.world, ofProject(p), false)));
  project.get('/members/all/:user_id', { auth: 'public' }, (ctx, p) => sendMember(ctx, sourceMembers(ctx.world, ofProject(p), true)));
  group.get('/members', { auth: 'public' }, (ctx, g) => sendMembers(ctx, sourceMembers(ctx.world, ofGroup(g), false)));
  group.get('/members/all', { auth: 'public' }, (ctx, g) => sendMembers(ctx, sourceMembers(ctx.world, ofGroup(g), true)));
  group.get('/members/:user_id', { auth: 'public' }, (ctx, g) => sendMember(ctx, sourceMembers(ctx.world, ofGroup(g), false)));
  group.get('/members/all/:user_id', { auth: 'public' }, (ctx, g) => sendMember(ctx, sourceMembers(ctx.world, ofGroup(g), true)));
}
