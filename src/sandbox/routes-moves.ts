// Repository storage-move endpoints for projects, snippets and groups
// (reference §1.1): list all, get one, bulk schedule, and per-container
// list/get/create. All admin only; group moves only on the premium tier.
import { ApiError, type Core, type Ctx, E, sendJson } from './core.js';
import type { MoveKind, MoveRec } from './moves.js';
import { findProject, intSeg, offsetPage, sendList, strParam } from './paging.js';
import { findGroup } from './routes-core.js';

function moveIdParam(ctx: Ctx): number {
  return intSeg(ctx, 'repository_storage_move_id');
}

function containerId(ctx: Ctx, kind: MoveKind): number {
  if (kind === 'project') return findProject(ctx).id;
  if (kind === 'snippet') {
    const v = ctx.p.id!;
    const s = /^\d+$/.test(v) ? ctx.world.snippets[Number(v)] : undefined;
    if (!s) throw E.notFound('Snippet');
    return s.id;
  }
  return findGroup(ctx, ctx.p.id!).id;
}

function listMoves(ctx: Ctx, moves: MoveRec[]): void {
  const n = moves.length;
  // newest first (created_at desc)
  const page = offsetPage(ctx, n, (off, lim) => {
    const out: MoveRec[] = [];
    for (let k = off; k < off + lim; k++) out.push(moves[n - 1 - k]!);
    return out;
  });
  sendList(ctx, page.map((m) => ctx.core.moves.moveJson(m)));
}

export function registerMoveRoutes(core: Core): void {
  const table: Array<[MoveKind, string, string, boolean]> = [
    ['project', '/project_repository_storage_moves', '/projects/:id/repository_storage_moves', false],
    ['snippet', '/snippet_repository_storage_moves', '/snippets/:id/repository_storage_moves', false],
    ['group', '/group_repository_storage_moves', '/groups/:id/repository_storage_moves', true],
  ];
  for (const [kind, all, per, premium] of table) {
    const o = { auth: 'admin' as const, premium };
    core.add('GET', all, o, (ctx) => listMoves(ctx, ctx.core.moves.moves[kind]));
    core.add('GET', `${all}/:repository_storage_move_id`, o, (ctx) => {
      const m = ctx.core.moves.get(kind, moveIdParam(ctx));
      if (!m) throw E.findNotFound();
      sendJson(ctx, 200, ctx.core.moves.moveJson(m));
    });
    core.add('POST', all, o, (ctx) => {
      const storages = ctx.world.storages;
      const source = strParam(ctx, 'source_storage_name');
      if (source === undefined) throw E.missing('source_storage_name');
      if (!storages.includes(source)) throw E.notValid('source_storage_name');
      const dest = strParam(ctx, 'destination_storage_name');
      if (dest !== undefined && !storages.includes(dest)) throw E.notValid('destination_storage_name');
      ctx.core.moves.bulk(kind, source, dest);
      sendJson(ctx, 202, { message: '202 Accepted' });
    });
    core.add('GET', per, o, (ctx) => {
      const id = containerId(ctx, kind);
      const ids = ctx.core.moves.byContainer[kind].get(id) ?? [];
      listMoves(ctx, ids.map((i) => ctx.core.moves.get(kind, i)!));
    });
    core.add('GET', `${per}/:repository_storage_move_id`, o, (ctx) => {
      const id = containerId(ctx, kind);
      const m = ctx.core.moves.get(kind, moveIdParam(ctx));
      if (!m || m.containerId !== id) throw E.findNotFound();
      sendJson(ctx, 200, ctx.core.moves.moveJson(m));
    });
    core.add('POST', per, o, (ctx) => {
      const id = containerId(ctx, kind);
      const dest = strParam(ctx, 'destination_storage_name');
      const res = ctx.core.moves.create(kind, id, dest === '' ? undefined : dest);
      if ('errors' in res) throw new ApiError(400, { message: res.errors });
      sendJson(ctx, 201, ctx.core.moves.moveJson(res));
    });
  }
}
