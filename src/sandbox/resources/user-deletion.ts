// Deleting a user and listing a user's memberships (lib/api/users.rb `delete ":id"`, `get ":user_id/memberships"`;
// app/services/users/destroy_service.rb, migrate_records_to_ghost_user_service.rb). Admin only. A deleted user's id
// resolves to the ghost user from then on, which is how the service's records end up once it has moved them; a hard
// delete removes the issues and merge requests the user authored instead, and the groups they alone own.
import { ask } from '../engine/ports.js';
import { groupDirectLevel, OWNER, projectDirectLevel } from '../access.js';
import type { Ctx } from '../server/context.js';
import { ApiError, E } from '../server/errors.js';
import { boolParam, strParam } from '../server/params.js';
import { pageOf } from '../server/paging.js';
import { sendJson, sendList } from '../server/respond.js';
import type { GroupRec, UserRec } from '../store/records.js';
import type { World } from '../store/world.js';
import { GHOST_BIO, isGhost } from '../entities/user.js';
import { instanceSettings } from './instance-settings.js';
import type { Mounts } from './mounts.js';

/** The ghost user (`Users::Internal.ghost`), created by the first deletion. */
function ghostUser(w: World): UserRec {
  const found = w.findUser('ghost');
  if (found && isGhost(found)) return found;
  let username = 'ghost';
  for (let n = 1; w.usersByName.has(username); n++) username = `ghost${n}`;
  const now = Date.now();
  const ghost = w.addUser({
    username,
    name: 'Ghost User',
    email: `${username}@example.com`,
    state: 'active',
    isAdmin: false,
    createdAt: now,
    updatedAt: now,
  });
  ghost.profile = { bio: GHOST_BIO, projects_limit: instanceSettings(w).default_projects_limit };
  return ghost;
}

/** Groups the user owns with no other direct owner (`User#solo_owned_groups`). */
export function soloOwnedGroups(w: World, userId: number): GroupRec[] {
  return w.groups.filter(
    (g) => groupDirectLevel(w, userId, g) === OWNER && ![...w.users].some((u) => u.id !== userId && groupDirectLevel(w, u.id, g) === OWNER),
  );
}

/** Direct memberships: groups (as `Namespace`) by id, then projects by id. */
function directMemberships(w: World, userId: number): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const g of w.groups) {
    const level = groupDirectLevel(w, userId, g);
    if (level > 0) out.push({ source_id: g.id, source_name: g.name, source_type: 'Namespace', access_level: level });
  }
  for (const id of w.allIds) {
    const p = w.projects.get(id)!;
    const level = projectDirectLevel(w, userId, p);
    if (level > 0) out.push({ source_id: p.id, source_name: p.name, source_type: 'Project', access_level: level });
  }
  return out;
}

/** `Groups::DestroyService` at once: the group, its subgroups and every project in them. */
function destroyGroup(w: World, g: GroupRec): void {
  const ids = w.groupSubtree(g.id);
  for (const id of [...w.allIds]) {
    const p = w.projects.get(id)!;
    if (p.nsKind === 'group' && ids.has(p.nsOwner)) w.removeProject(p);
  }
  for (const id of ids) {
    const sub = w.groups.get(id)!;
    w.groupsByPath.delete(sub.fullPath.toLowerCase());
    w.groups.remove(id);
  }
  if (g.parentId !== null)
    w.groupChildren.set(
      g.parentId,
      (w.groupChildren.get(g.parentId) ?? []).filter((id) => id !== g.id),
    );
}

function deleteUser(ctx: Ctx): void {
  const w = ctx.world;
  const user = ask('targetUser')(ctx);
  const hard = boolParam(ctx, 'hard_delete') === true;
  const solo = soloOwnedGroups(w, user.id);
  if (!hard && solo.length > 0) throw new ApiError(409, { message: 'User cannot be removed while is the sole-owner of a group' });
  // A hard delete takes the groups the user alone owns with it (`delete_solo_owned_groups`); a subgroup may go with its parent.
  for (const g of solo) if (w.groups.get(g.id)) destroyGroup(w, g);
  for (const g of w.groups) if (groupDirectLevel(w, user.id, g) > 0) w.memberships.set('group', g.id, user.id, removed(ctx));
  for (const id of [...w.allIds]) {
    const p = w.projects.get(id)!;
    if (p.nsKind === 'user' && p.nsOwner === user.id) w.removeProject(p);
    else if (w.memberships.get('project', id, user.id)) w.memberships.set('project', id, user.id, removed(ctx));
  }
  if (hard) {
    ask('removeIssuesAuthoredBy')(w, user.id);
    ask('removeMergeRequestsAuthoredBy')(w, user.id);
  }
  w.usersByName.delete(user.username.toLowerCase());
  w.users.mergeInto(user.id, ghostUser(w));
  ask('userChanged')(ctx, user);
  w.accessChanged();
  sendJson(ctx, 204, null);
}

const removed = (ctx: Ctx) => ({ level: 0, expiresAt: null, createdById: ctx.user!.id, createdAt: Date.now() });

function listMemberships(ctx: Ctx): void {
  const type = strParam(ctx, 'type');
  if (type !== undefined && type !== 'Project' && type !== 'Namespace') throw E.notValid('type');
  const user = ask('targetUser')(ctx);
  const all = directMemberships(ctx.world, user.id);
  sendList(ctx, pageOf(ctx, type === undefined ? all : all.filter((m) => m.source_type === type)));
}

export function mountUserDeletion({ root }: Mounts): void {
  root.delete('/users/:id', { auth: 'admin' }, deleteUser);
  root.get('/users/:id/memberships', { auth: 'admin' }, listMemberships);
}
