// Repository storage moves of projects, snippets and groups (reference
// §1.1): list all, get one, bulk schedule, and per container list/get/create.
// All admin only; group moves only on the premium tier.
import type { Ctx } from '../server/context.js';
import { ApiError, E } from '../server/errors.js';
import { pageOf } from '../server/paging.js';
import { intSeg, strParam } from '../server/params.js';
import { sendJson, sendList } from '../server/respond.js';
import type { Scope } from '../server/router.js';
import type { MoveKind, MoveRec } from '../moves.js';
import type { World } from '../store/world.js';
import { iso } from '../util/time.js';
import type { Mounts } from './mounts.js';
import { projectIdentity } from '../entities/project.js';
import { ask } from '../engine/ports.js';

function moveJson(w: World, m: MoveRec): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: m.id,
    created_at: iso(m.createdAt),
    state: m.state,
    source_storage_name: m.source,
    destination_storage_name: m.dest,
    error_message: m.errorMessage,
  };
  if (m.kind === 'project') out.project = projectIdentity(w, w.projects.get(m.containerId)!);
  else if (m.kind === 'snippet') {
    const s = ask('snippetJson')(w, w.snippets.get(m.containerId)!);
    out.snippet = {
      id: s.id,
      title: s.title,
      description: s.description,
      visibility: s.visibility,
      updated_at: s.updated_at,
      created_at: s.created_at,
      project_id: s.project_id,
      web_url: s.web_url,
      raw_url: s.raw_url,
      ssh_url_to_repo: s.ssh_url_to_repo,
      http_url_to_repo: s.http_url_to_repo,
    };
  } else {
    const g = w.groups.get(m.containerId)!;
    out.group = { id: g.id, web_url: `${w.base()}/groups/${g.fullPath}`, name: g.name };
  }
  return out;
}

function listMoves(ctx: Ctx, moves: MoveRec[]): void {
  // newest first (created_at desc)
  sendList(
    ctx,
    pageOf(ctx, [...moves].reverse()).map((m) => moveJson(ctx.world, m)),
  );
}

function mountContainer(scope: Scope<number>, kind: MoveKind, premium: boolean): void {
  const o = { auth: 'admin' as const, premium };
  scope.get('/repository_storage_moves', o, (ctx, id) => {
    const ids = ctx.core.moves.byContainer[kind].get(id) ?? [];
    listMoves(
      ctx,
      ids.map((i) => ctx.core.moves.get(kind, i)!),
    );
  });
  scope.get('/repository_storage_moves/:repository_storage_move_id', o, (ctx, id) => {
    const m = ctx.core.moves.get(kind, intSeg(ctx, 'repository_storage_move_id'));
    if (!m || m.containerId !== id) throw E.findNotFound();
    sendJson(ctx, 200, moveJson(ctx.world, m));
  });
  scope.post('/repository_storage_moves', o, (ctx, id) => {
    const dest = strParam(ctx, 'destination_storage_name');
    const res = ctx.core.moves.create(kind, id, dest === '' ? undefined : dest);
    if ('errors' in res) throw new ApiError(400, { message: res.errors });
    sendJson(ctx, 201, moveJson(ctx.world, res));
  });
}

export function mountStorageMoves({ root, project, group, snippet }: Mounts): void {
  const all: Array<[MoveKind, string, boolean]> = [
    ['project', '/project_repository_storage_moves', false],
    ['snippet', '/snippet_repository_storage_moves', false],
    ['group', '/group_repository_storage_moves', true],
  ];
  for (const [kind, path, premium] of all) {
    const o = { auth: 'admin' as const, premium };
    root.get(path, o, (ctx) => listMoves(ctx, ctx.core.moves.moves[kind]));
    root.get(`${path}/:repository_storage_move_id`, o, (ctx) => {
      const m = ctx.core.moves.get(kind, intSeg(ctx, 'repository_storage_move_id'));
      if (!m) throw E.findNotFound();
      sendJson(ctx, 200, moveJson(ctx.world, m));
    });
    root.post(path, o, (ctx) => {
      const storages = ctx.world.storages;
      const source = strParam(ctx, 'source_storage_name');
      if (source === undefined) throw E.missing('source_storage_name');
      if (!storages.includes(source)) throw E.notValid('source_storage_name');
      const dest = strParam(ctx, 'destination_storage_name');
      if (dest !== undefined && !storages.includes(dest)) throw E.notValid('destination_storage_name');
      ctx.core.moves.bulk(kind, source, dest);
      sendJson(ctx, 202, { message: '202 Accepted' });
    });
  }
  mountContainer(
    project.map((p) => p.id),
    'project',
    false,
  );
  mountContainer(
    snippet.map((s) => s.id),
    'snippet',
    false,
  );
  mountContainer(
    group.map((g) => g.id),
    'group',
    true,
  );
}
