// Branches: `GET …/repository/branches` (ordered by name; `search` with
// `^` prefix and `$` suffix; `regex`; offset or Gitaly keyset pages),
// `GET …/repository/branches/:branch`, create, delete, and delete the merged ones.
import { can } from '../access.js';
import type { Ctx } from '../server/context.js';
import { ApiError, E } from '../server/errors.js';
import { isKeyset, pageOf } from '../server/paging.js';
import { enumParam, strParam } from '../server/params.js';
import { sendJson, sendList } from '../server/respond.js';
import type { ProjectRec } from '../store/records.js';
import { commitJson } from '../entities/commit.js';
import { requireAbility, requireWritable } from './guards.js';
import type { Mounts } from './mounts.js';
import { gitalyKeysetPage, refSearch, validRefName } from './refs.js';
import { ask } from '../engine/ports.js';

/** `merged_to_root_ref?`: a branch other than the default whose head the default branch's history holds. */
function mergedTest(ctx: Ctx, p: ProjectRec): (name: string) => boolean {
  const repos = ctx.world.repos;
  const root = repos.branchCommits(p.id, 'main');
  const onRoot = new Set(root ? repos.lineFrom(p.id, root[0]!.id).map((c) => c.id) : []);
  return (name) => name !== 'main' && onRoot.has(repos.branchCommits(p.id, name)![0]!.id);
}

function branchJson(ctx: Ctx, p: ProjectRec, name: string, merged = mergedTest(ctx, p)): Record<string, unknown> {
  const w = ctx.world;
  const head = w.repos.branchCommits(p.id, name)![0]!;
  return {
    name,
    merged: merged(name),
    protected: ask('isProtectedBranch')(w, p.id, name),
    default: name === 'main',
    developers_can_push: false,
    developers_can_merge: false,
    can_push: can(w, ctx.user, p, 'push_code'),
    web_url: `${w.base()}/${p.fullPath}/-/tree/${name}`,
    commit: commitJson(w, p, head),
  };
}

// Kept for the resources of branches in flight that import them from here.
export { gitalyKeysetPage, refSearch, validRefName } from './refs.js';

function regexFilter(source: string | undefined): (name: string) => boolean {
  if (!source) return () => true;
  try {
    const re = new RegExp(source);
    return (name) => re.test(name);
  } catch {
    throw E.invalid('regex');
  }
}

export function mountBranches({ project }: Mounts): void {
  project.get('/repository/branches', { auth: 'public', job: true }, (ctx, p) => {
    requireAbility(ctx, p, 'read_code');
    const sort = enumParam(ctx, 'sort', ['name_asc', 'updated_asc', 'updated_desc'] as const, 'name_asc');
    const match = refSearch(strParam(ctx, 'search'));
    const matchRegex = regexFilter(strParam(ctx, 'regex'));
    const repos = ctx.world.repos;
    const updated = (b: string) => repos.branchCommits(p.id, b)![0]!.createdAt;
    const names = repos
      .branchNames(p.id)
      .filter((b) => match(b) && matchRegex(b))
      .sort((a, b) => {
        if (sort === 'updated_asc') return updated(a) - updated(b);
        if (sort === 'updated_desc') return updated(b) - updated(a);
        return a < b ? -1 : a > b ? 1 : 0;
      });
    const page = isKeyset(ctx) ? gitalyKeysetPage(ctx, names, (b) => b) : pageOf(ctx, names);
    const merged = mergedTest(ctx, p);
    sendList(
      ctx,
      page.map((b) => branchJson(ctx, p, b, merged)),
    );
  });
  project.get('/repository/branches/:branch', { auth: 'public' }, (ctx, p) => {
    requireAbility(ctx, p, 'read_code');
    const name = ctx.p.branch!;
    if (!validRefName(name)) throw E.badRequest('The branch refname is invalid');
    if (!ctx.world.repos.hasBranch(p.id, name)) throw E.notFound('Branch');
    sendJson(ctx, 200, branchJson(ctx, p, name));
  });
  project.post('/repository/branches', { auth: 'user' }, (ctx, p) => {
    requireAbility(ctx, p, 'push_code');
    const name = strParam(ctx, 'branch');
    const ref = strParam(ctx, 'ref');
    const missing = [name === undefined ? 'branch' : '', ref === undefined ? 'ref' : ''].filter(Boolean);
    if (missing.length > 0) throw E.missing(...missing);
    requireWritable(p);
    const repos = ctx.world.repos;
    if (!validRefName(name!)) throw E.badRequest('Branch name is invalid');
    if (repos.hasBranch(p.id, name!)) throw E.badRequest('Branch already exists');
    const sha = repos.resolveRef(p.id, ref!);
    if (!sha) throw E.badRequest(`Invalid reference name: ${ref}`);
    repos.addBranch(p.id, name!, sha);
    ask('startBranchFiles')(ctx.world, p.id, name!, repos.hasBranch(p.id, ref!) ? ref : undefined);
    sendJson(ctx, 201, branchJson(ctx, p, name!));
  });
  // `Branches::DeleteMergedService`, run at once here (the service queues it): every merged branch that is
  // neither the default one nor protected goes.
  project.delete('/repository/merged_branches', { auth: 'user' }, (ctx, p) => {
    requireAbility(ctx, p, 'push_code');
    requireWritable(p);
    const repos = ctx.world.repos;
    const merged = mergedTest(ctx, p);
    for (const name of repos.branchNames(p.id)) {
      if (merged(name) && !ask('isProtectedBranch')(ctx.world, p.id, name)) repos.removeBranch(p.id, name);
    }
    sendJson(ctx, 202, { message: '202 Accepted' });
  });
  project.delete('/repository/branches/:branch', { auth: 'user' }, (ctx, p) => {
    requireAbility(ctx, p, 'push_code');
    const name = ctx.p.branch!;
    const repos = ctx.world.repos;
    if (!repos.hasBranch(p.id, name)) throw E.notFound('Branch');
    if (name === 'main') throw new ApiError(405, { message: 'Cannot remove HEAD branch' });
    if (ask('isProtectedBranch')(ctx.world, p.id, name)) throw new ApiError(405, { message: 'Protected branch cant be removed' });
    requireWritable(p);
    repos.removeBranch(p.id, name);
    sendJson(ctx, 204, null);
  });
}
