// Members (reference endpoints §10): `GET /projects/:id/members`, `/groups/:id/members` (direct) and
// `…/members/all` (with the levels inherited through parent groups), `query` and `user_ids[]`.
// Seeded group members belong to the root group (access.ts `groupRole`); subgroups inherit them.
import { groupRole, OWNER } from '../access.js';
import type { Ctx } from '../server/context.js';
import { strParam } from '../server/params.js';
import { offsetPage } from '../server/paging.js';
import { sendList } from '../server/respond.js';
import type { GroupRec, ProjectRec, UserRec } from '../store/records.js';
import type { World } from '../store/world.js';
import { iso } from '../util.js';
import type { Mounts } from './mounts.js';
import { userBasic } from './users.js';

const MAINTAINER = 40;

/** User id → access level, the higher level kept where a user is a member twice. */
type Levels = Map<number, number>;

function addLevel(levels: Levels, userId: number, level: number): void {
  if (level > (levels.get(userId) ?? 0)) levels.set(userId, level);
}

function groupMembers(w: World, g: GroupRec, inherited: boolean): Levels {
  const levels: Levels = new Map();
  if (g.parentId !== null && !inherited) return levels;
  for (const u of w.users) addLevel(levels, u.id, groupRole(u.id, g));
  return levels;
}

function projectMembers(w: World, p: ProjectRec, inherited: boolean): Levels {
  const levels: Levels = new Map();
  if (p.nsKind === 'user') levels.set(p.nsOwner, OWNER);
  else {
    addLevel(levels, p.creatorId, MAINTAINER);
    if (inherited) for (const [id, level] of groupMembers(w, w.groups.get(p.nsOwner)!, true)) addLevel(levels, id, level);
  }
  return levels;
}

function memberJson(w: World, u: UserRec, level: number): Record<string, unknown> {
  const admin = w.users.get(1)!;
  return {
    ...userBasic(w, u),
    access_level: level,
    created_at: iso(u.createdAt),
    created_by: userBasic(w, admin),
    expires_at: null,
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
    .filter(([id, level]) => level > 0 && (!only || only.has(id)))
    .map(([id, level]) => ({ user: w.users.get(id)!, level }))
    .filter(({ user }) => !query || user.username.toLowerCase().includes(query) || user.name.toLowerCase().includes(query))
    .sort((a, b) => a.user.id - b.user.id);
  const page = offsetPage(ctx, members.length, (off, lim) => members.slice(off, off + lim));
  sendList(
    ctx,
    page.map(({ user, level }) => memberJson(w, user, level)),
  );
}

export function mountMembers({ project, group }: Mounts): void {
  project.get('/members', { auth: 'public' }, (ctx, p) => sendMembers(ctx, projectMembers(ctx.world, p, false)));
  project.get('/members/all', { auth: 'public' }, (ctx, p) => sendMembers(ctx, projectMembers(ctx.world, p, true)));
  group.get('/members', { auth: 'public' }, (ctx, g) => sendMembers(ctx, groupMembers(ctx.world, g, false)));
  group.get('/members/all', { auth: 'public' }, (ctx, g) => sendMembers(ctx, groupMembers(ctx.world, g, true)));
}
