// Branches: `GET …/repository/branches` (ordered by name; `search` with
// `^` prefix and `$` suffix), `GET …/repository/branches/:branch`.
import { can } from '../access.js';
import type { Ctx } from '../server/context.js';
import { E } from '../server/errors.js';
import { pageOf } from '../server/paging.js';
import { enumParam, strParam } from '../server/params.js';
import { sendJson, sendList } from '../server/respond.js';
import type { ProjectRec } from '../store/records.js';
import { BRANCHES } from '../store/repository.js';
import { commitJson } from './commits.js';
import { requireAbility } from './guards.js';
import type { Mounts } from './mounts.js';

function branchJson(ctx: Ctx, p: ProjectRec, name: string): Record<string, unknown> {
  const w = ctx.world;
  const head = w.repos.branchCommits(p.id, name)![0]!;
  return {
    name,
    merged: false,
    protected: name === 'main',
    default: name === 'main',
    developers_can_push: false,
    developers_can_merge: false,
    can_push: can(w, ctx.user, p, 'push_code'),
    web_url: `${w.base()}/${p.fullPath}/-/tree/${name}`,
    commit: commitJson(w, p, head),
  };
}

/** Gitaly's ref search: `^x` prefix, `x$` suffix, `^x$` exact, else substring. */
export function refSearch(search: string | undefined): (name: string) => boolean {
  if (!search) return () => true;
  const prefix = search.startsWith('^');
  const suffix = search.endsWith('$') && search.length > (prefix ? 1 : 0);
  const core = search.slice(prefix ? 1 : 0, suffix ? -1 : undefined);
  return (name) => {
    if (prefix && suffix) return name === core;
    if (prefix) return name.startsWith(core);
    if (suffix) return name.endsWith(core);
    return name.includes(core);
  };
}

export function mountBranches({ project }: Mounts): void {
  project.get('/repository/branches', { auth: 'public', job: true }, (ctx, p) => {
    requireAbility(ctx, p, 'read_code');
    const sort = enumParam(ctx, 'sort', ['name_asc', 'updated_asc', 'updated_desc'] as const, 'name_asc');
    const match = refSearch(strParam(ctx, 'search'));
    const repos = ctx.world.repos;
    const updated = (b: string) => repos.branchCommits(p.id, b)![0]!.createdAt;
    const names = BRANCHES.filter(match).sort((a, b) => {
      if (sort === 'updated_asc') return updated(a) - updated(b);
      if (sort === 'updated_desc') return updated(b) - updated(a);
      return a < b ? -1 : a > b ? 1 : 0;
    });
    sendList(
      ctx,
      pageOf(ctx, names).map((b) => branchJson(ctx, p, b)),
    );
  });
  project.get('/repository/branches/:branch', { auth: 'public' }, (ctx, p) => {
    requireAbility(ctx, p, 'read_code');
    if (!BRANCHES.includes(ctx.p.branch!)) throw E.notFound('Branch');
    sendJson(ctx, 200, branchJson(ctx, p, ctx.p.branch!));
  });
}
