// Commits: `GET …/repository/commits` (never counted: no X-Total,
// X-Total-Pages or rel="last"; an unknown ref is an empty list),
// `GET …/repository/commits/:sha`, the refs holding a commit, and the branch commit list.
import { offer } from '../engine/ports.js';
import { commitAuthor, commitJson } from '../entities/commit.js';
import { E } from '../server/errors.js';
import { pageOf } from '../server/paging.js';
import { boolParam, enumParam, strParam, timeParam } from '../server/params.js';
import { sendJson, sendList } from '../server/respond.js';
import type { Ctx } from '../server/context.js';
import type { CommitRec, ProjectRec } from '../store/records.js';
import type { World } from '../store/world.js';
import { requireAbility } from './guards.js';
import type { Mounts } from './mounts.js';

// Kept for the resources of branches in flight that import it from here.
export { commitJson } from '../entities/commit.js';
import { touchedPaths } from '../entities/commit.js';

/** `Entities::CommitDetail`: a synthetic commit's stats are made up, one made through the API counts its lines. */
function commitDetailJson(w: World, p: ProjectRec, c: CommitRec): Record<string, unknown> {
  const { additions, deletions } = c.stats ?? { additions: 3, deletions: 1 };
  return {
    ...commitJson(w, p, c),
    stats: { additions, deletions, total: additions + deletions },
    status: null,
    project_id: p.id,
    last_pipeline: null,
  };
}

function touches(c: CommitRec, path: string): boolean {
  const paths = touchedPaths(c);
  const dir = path.replace(/\/+$/, '');
  return paths === null || paths.some((f) => f === dir || f.startsWith(`${dir}/`));
}

/** Commits reachable from `ref` (or from every branch with `all`), newest first. */
function history(w: World, p: ProjectRec, ref: string, all: boolean): CommitRec[] {
  const repos = w.repos;
  if (all) {
    const seen = new Map<string, CommitRec>();
    for (const b of repos.branchNames(p.id)) for (const c of repos.branchCommits(p.id, b)!) seen.set(c.id, c);
    return [...seen.values()].sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? -1 : 1));
  }
  const own = repos.branchCommits(p.id, ref === 'HEAD' ? 'main' : ref);
  if (own) return own;
  const sha = repos.resolveRef(p.id, ref);
  if (!sha) return [];
  const line = repos.branchCommits(p.id, repos.branchForSha(p.id, sha))!;
  return line.slice(line.findIndex((c) => c.id === sha));
}

/** An empty repository has no commits to read: the API's `not_found!('Repository')`. */
function requireRepository(w: World, p: ProjectRec): void {
  if (w.repos.isEmpty(p.id)) throw E.notFound('Repository');
}

/** The commit the route's `:sha` names (any ref), readable by the caller, or the service's 404. */
function routeCommit(ctx: Ctx, p: ProjectRec): CommitRec {
  requireAbility(ctx, p, 'read_code');
  requireRepository(ctx.world, p);
  const repos = ctx.world.repos;
  const sha = repos.resolveRef(p.id, ctx.p.sha!);
  const c = sha ? repos.findCommit(p.id, sha) : null;
  if (!c) throw E.notFound('Commit');
  return c;
}

export function mountCommits({ project }: Mounts): void {
  offer('commitDetailJson', commitDetailJson);
  project.get('/repository/commits', { auth: 'public' }, (ctx, p) => {
    requireAbility(ctx, p, 'read_code');
    requireRepository(ctx.world, p);
    const w = ctx.world;
    let list = history(w, p, strParam(ctx, 'ref_name') || 'main', boolParam(ctx, 'all') === true);
    const since = timeParam(ctx, 'since');
    const until = timeParam(ctx, 'until');
    const path = strParam(ctx, 'path');
    const author = strParam(ctx, 'author')?.toLowerCase();
    list = list.filter((c) => {
      if (since !== undefined && c.createdAt < since) return false;
      if (until !== undefined && c.createdAt > until) return false;
      if (path && !touches(c, path)) return false;
      const [name, email] = commitAuthor(c);
      return !author || name.toLowerCase().includes(author) || email.includes(author);
    });
    const withStats = boolParam(ctx, 'with_stats') === true;
    const page = pageOf(ctx, list, { uncounted: true });
    sendList(
      ctx,
      page.map((c) => ({ ...commitJson(w, p, c), ...(withStats ? { stats: { additions: 3, deletions: 1, total: 4 } } : {}) })),
    );
  });
  project.get('/repository/commits/:sha', { auth: 'public', job: true }, (ctx, p) => {
    sendJson(ctx, 200, commitDetailJson(ctx.world, p, routeCommit(ctx, p)));
  });
  // `GET …/commits/:sha/refs` (lib/api/commits.rb): the branches and tags whose history holds the commit,
  // `type` `branch|tag|all` (default `all`), branches first, each by name, paged.
  project.get('/repository/commits/:sha/refs', { auth: 'public' }, (ctx, p) => {
    const repos = ctx.world.repos;
    const c = routeCommit(ctx, p);
    const type = enumParam(ctx, 'type', ['branch', 'tag', 'all'] as const) ?? 'all';
    const holds = (head: string) => repos.lineFrom(p.id, head).some((x) => x.id === c.id);
    const branches = type === 'tag' ? [] : repos.branchNames(p.id).filter((b) => holds(repos.branchCommits(p.id, b)![0]!.id));
    const tags = type === 'branch' ? [] : repos.tags(p.id).filter((t) => holds(t.sha));
    const refs = [
      ...[...branches].sort().map((name) => ({ type: 'branch', name })),
      ...tags
        .map((t) => t.name)
        .sort()
        .map((name) => ({ type: 'tag', name })),
    ];
    sendList(ctx, pageOf(ctx, refs));
  });
  project.get('/branches/:branch/commits', { auth: 'public' }, (ctx, p) => {
    const commits = ctx.world.repos.branchCommits(p.id, ctx.p.branch!);
    if (!commits) throw E.notFound('Branch');
    sendList(
      ctx,
      pageOf(ctx, commits).map((c) => commitJson(ctx.world, p, c)),
    );
  });
}
