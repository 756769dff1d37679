// Project shares with groups: `POST /projects/:id/share`,
// `DELETE /projects/:id/share/:group_id`. A quarter of the seeded projects
// start shared with one group (developer access).
import { canReadGroup, MEMBER_LEVELS } from '../access.js';
import { ApiError, E } from '../server/errors.js';
import { intParam, intSeg, strParam } from '../server/params.js';
import { sendJson } from '../server/respond.js';
import { ChildCollection, storeFor } from '../store/collection.js';
import type { ShareRec } from '../store/records.js';
import type { World } from '../store/world.js';
import { requireAbility } from './guards.js';
import { offer } from '../engine/ports.js';
import type { Mounts } from './mounts.js';

const shares = storeFor(
  (w) =>
    new ChildCollection<number, ShareRec>({
      seededKeys(pid) {
        const gid = seededShareGroup(w, pid);
        return gid === null ? [] : [gid];
      },
      derive: (pid, gid) => (seededShareGroup(w, pid) === gid ? { groupId: gid, access: 30, expiresAt: null } : null),
    }),
);

function seededShareGroup(w: World, pid: number): number | null {
  const p = w.projects.get(pid);
  if (!p?.seeded || pid % 4 !== 1) return null;
  const gid = 1 + ((pid + 1) % w.seededGroupCount);
  return p.nsKind === 'group' && p.nsOwner === gid ? null : gid;
}

export function sharesOf(w: World, pid: number): ShareRec[] {
  return shares(w).list(pid);
}

export function mountSharing({ project }: Mounts): void {
  offer('sharesOf', sharesOf);
  project.post('/share', { auth: 'user' }, (ctx, p) => {
    requireAbility(ctx, p, 'admin_project');
    const gid = intParam(ctx, 'group_id');
    const access = intParam(ctx, 'group_access');
    const missing = [];
    if (gid === undefined) missing.push('group_id');
    if (access === undefined) missing.push('group_access');
    if (missing.length > 0) throw E.missing(...missing);
    if (!MEMBER_LEVELS.includes(access!)) throw E.notValid('group_access');
    const g = ctx.world.groups.get(gid!);
    if (!g || !canReadGroup(ctx.world, ctx.user, g)) throw E.notFound('Group');
    const store = shares(ctx.world);
    if (store.get(p.id, g.id)) throw new ApiError(409, { message: 'Group already shared with this group' });
    const expires = strParam(ctx, 'expires_at') ?? null;
    store.insert(p.id, g.id, { groupId: g.id, access: access!, expiresAt: expires });
    sendJson(ctx, 201, { id: p.id * 1000 + g.id, project_id: p.id, group_id: g.id, group_access: access, expires_at: expires });
  });
  project.delete('/share/:group_id', { auth: 'user' }, (ctx, p) => {
    const gid = intSeg(ctx, 'group_id');
    requireAbility(ctx, p, 'admin_project');
    if (!shares(ctx.world).remove(p.id, gid)) throw E.notFound('Group Link');
    sendJson(ctx, 204, null);
  });
}
