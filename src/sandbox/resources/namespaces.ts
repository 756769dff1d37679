// Namespaces: `GET /namespaces` and `GET /namespaces/:id`.
import { groupRole } from '../access.js';
import type { Ctx } from '../server/context.js';
import { E } from '../server/errors.js';
import { offsetPage } from '../server/paging.js';
import { strParam } from '../server/params.js';
import { sendJson, sendList } from '../server/respond.js';
import type { World } from '../store/world.js';
import { namespaceBasic, type NamespaceRef } from '../entities/namespace.js';
import { offer } from '../engine/ports.js';
import type { Mounts } from './mounts.js';

// Kept for the resources of branches in flight that import them from here.
export { namespaceBasic, type NamespaceRef } from '../entities/namespace.js';

function namespaceJson(w: World, ns: NamespaceRef): Record<string, unknown> {
  if (ns.kind === 'group')
    return {
      ...namespaceBasic(w, 'group', ns.owner),
      members_count_with_descendants: 2,
      billable_members_count: 2,
      root_repository_size: 0,
      projects_count: 0,
    };
  return { ...namespaceBasic(w, 'user', ns.owner), billable_members_count: 1, root_repository_size: 0, projects_count: 0 };
}

/** A namespace by integer id or full path. */
export function findNamespace(w: World, v: string): NamespaceRef | null {
  if (v === '') return null;
  if (/^\d+$/.test(v)) return w.namespaceById(Number(v));
  const gid = w.groupsByPath.get(v.toLowerCase());
  if (gid) return { kind: 'group', owner: gid };
  const uid = w.usersByName.get(v.toLowerCase());
  return uid ? { kind: 'user', owner: uid } : null;
}

/** May `ctx.user` use the namespace (own namespace, or a group where they are developer or above)? */
export function canUseNamespace(ctx: Ctx, ns: NamespaceRef): boolean {
  const user = ctx.user!;
  if (user.isAdmin) return true;
  if (ns.kind === 'user') return ns.owner === user.id;
  return groupRole(ctx.world, user.id, ctx.world.groups.get(ns.owner)!) > 0;
}

export function mountNamespaces({ root }: Mounts): void {
  offer('findNamespace', findNamespace);
  offer('canUseNamespace', canUseNamespace);
  root.get('/namespaces', { auth: 'user' }, (ctx) => {
    const w = ctx.world;
    const user = ctx.user!;
    let ids: number[] | null = user.isAdmin ? null : w.userNamespaceIds(user);
    const search = strParam(ctx, 'search')?.toLowerCase();
    if (search) {
      const all = ids ?? Array.from({ length: w.namespaceCount() }, (_, i) => i + 1);
      ids = all.filter((id) =>
        String(namespaceBasic(w, w.namespaceById(id)!.kind, w.namespaceById(id)!.owner).full_path)
          .toLowerCase()
          .includes(search),
      );
    }
    const total = ids ? ids.length : w.namespaceCount();
    const page = offsetPage(ctx, total, (off, lim) => {
      const out = [];
      for (let k = off; k < off + lim; k++) out.push(namespaceJson(w, w.namespaceById(ids ? ids[k]! : k + 1)!));
      return out;
    });
    sendList(ctx, page);
  });

  root.get('/namespaces/:id', { auth: 'user' }, (ctx) => {
    const ns = findNamespace(ctx.world, ctx.p.id!);
    if (!ns || !canUseNamespace(ctx, ns)) throw E.notFound('Namespace');
    sendJson(ctx, 200, namespaceJson(ctx.world, ns));
  });
}
