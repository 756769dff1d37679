// Basic search (lib/api/search.rb, helpers/search_helpers.rb, SearchService): `search` and `scope` are
// required (Grape's texts), the scope one of the level's: everywhere `projects issues merge_requests
// milestones snippet_titles users`, in a group the same without `snippet_titles`, in a project `issues
// merge_requests milestones wiki_blobs commits blobs users`. A term matches case-insensitively in titles,
// names, paths and descriptions (blobs: file contents, commits: messages, at `ref` or the default branch);
// only what the caller can see is found; results are paged with each scope's entity (README, "Search").
import { canReadProject, canReadSnippet } from '../access.js';
import { ask } from '../engine/ports.js';
import type { Ctx } from '../server/context.js';
import { ApiError, E } from '../server/errors.js';
import { pageOf } from '../server/paging.js';
import { strParam } from '../server/params.js';
import { sendList } from '../server/respond.js';
import type { GroupRec, ProjectRec } from '../store/records.js';
import { commitJson } from '../entities/commit.js';
import { defaultBranch } from '../store/default-branches.js';
import type { Mounts } from './mounts.js';
import { projectJsonText } from '../entities/project.js';
import { userBasic } from '../entities/user.js';

const GLOBAL = ['projects', 'issues', 'merge_requests', 'milestones', 'snippet_titles', 'users'];
const GROUP = ['projects', 'issues', 'merge_requests', 'milestones', 'users'];
const PROJECT = ['issues', 'merge_requests', 'milestones', 'wiki_blobs', 'commits', 'blobs', 'users'];

/** A match, rendered only when the page answered holds it. */
type Found = () => unknown;

function readParams(ctx: Ctx, scopes: readonly string[]): { term: string; scope: string } {
  const term = strParam(ctx, 'search');
  const scope = strParam(ctx, 'scope');
  const missing = [term === undefined && 'search', scope === undefined && 'scope'].filter(Boolean) as string[];
  if (missing.length) throw E.missing(...missing);
  if (!scopes.includes(scope!)) throw E.notValid('scope');
  return { term: term!.toLowerCase(), scope: scope! };
}

const has = (term: string, ...texts: Array<string | null | undefined>) => texts.some((t) => t?.toLowerCase().includes(term));

/**
 * The issues or merge requests of the projects that match and that the caller may see (their resource's
 * 404 otherwise), each rendered as its resource renders it only if it falls on the page answered.
 */
function issuables(ctx: Ctx, projects: ProjectRec[], term: string, kind: 'issues' | 'merge_requests'): Found[] {
  const list = kind === 'issues' ? ask('issuesOf') : ask('mergeRequestsOf');
  const find = kind === 'issues' ? ask('issueOf') : ask('mergeRequestOf');
  return projects.flatMap((p) =>
    list(ctx.world, p.id)
      .filter((i) => has(term, i.title, i.description))
      .flatMap((i) => {
        try {
          const visible = find(ctx, p, i.iid);
          return [() => visible.json()];
        } catch (error) {
          if (error instanceof ApiError && error.status === 404) return [];
          throw error;
        }
      }),
  );
}

function blobs(ctx: Ctx, p: ProjectRec, term: string, ref: string): Found[] {
  const w = ctx.world;
  if (w.repos.isEmpty(p.id)) return [];
  return [...ask('branchFiles')(w, p.id, ref)].flatMap(([path, content]) => {
    if (content.includes(0)) return [];
    const lines = content.toString('utf8').split('\n');
    const at = lines.findIndex((l) => l.toLowerCase().includes(term));
    if (at < 0) return [];
    const first = Math.max(0, at - 1);
    const data = `${lines.slice(first, at + 2).join('\n')}\n`;
    const basename = path.replace(/\.[^./]*$/, '');
    return [() => ({ basename, data, path, filename: path, id: null, ref, startline: first + 1, project_id: p.id })];
  });
}

function commits(ctx: Ctx, p: ProjectRec, term: string, ref: string): Found[] {
  const w = ctx.world;
  const sha = w.repos.isEmpty(p.id) ? null : w.repos.resolveRef(p.id, ref);
  if (!sha) return [];
  return w.repos
    .lineFrom(p.id, sha)
    .filter((c) => has(term, c.title))
    .map((c) => () => ({ ...commitJson(w, p, c), project_id: p.id }));
}

function common(ctx: Ctx, scope: string, term: string, projects: ProjectRec[]): Found[] {
  const w = ctx.world;
  switch (scope) {
    case 'projects':
      return projects
        .filter((p) => has(term, p.name, p.path, p.description))
        .map((p) => () => JSON.parse(projectJsonText(w, p, { viewer: ctx.user, basic: false, statistics: false })));
    case 'issues':
    case 'merge_requests':
      return issuables(ctx, projects, term, scope);
    case 'milestones':
      return projects.flatMap((p) =>
        ask('projectMilestones')(w, p.id)
          .filter((m) => has(term, m.title, m.description))
          .map((m) => () => ask('milestoneJson')(ctx, m)),
      );
    case 'users':
      return [...w.users].filter((u) => u.state === 'active' && has(term, u.username, u.name)).map((u) => () => userBasic(w, u));
    default:
      return [];
  }
}

function send(ctx: Ctx, found: Found[]): void {
  sendList(
    ctx,
    pageOf(ctx, found).map((f) => f()),
  );
}

function visibleIn(ctx: Ctx, g: GroupRec | null): ProjectRec[] {
  const w = ctx.world;
  const groups = g ? w.groupSubtree(g.id) : null;
  return w
    .visibleIds(ctx.user)
    .map((id) => w.projects.get(id)!)
    .filter((p) => !groups || (p.nsKind === 'group' && groups.has(p.nsOwner)));
}

export function mountSearch({ root, group, project }: Mounts): void {
  root.get('/search', { auth: 'user' }, (ctx) => {
    const { term, scope } = readParams(ctx, GLOBAL);
    if (scope === 'snippet_titles') {
      const snippets = [...ctx.world.snippets].filter((s) => canReadSnippet(ctx.user, s) && has(term, s.title, s.fileName));
      return send(
        ctx,
        snippets.map((s) => () => ask('snippetJson')(ctx.world, s)),
      );
    }
    send(ctx, common(ctx, scope, term, visibleIn(ctx, null)));
  });
  group.get('/search', { auth: 'user' }, (ctx, g) => {
    const { term, scope } = readParams(ctx, GROUP);
    send(ctx, common(ctx, scope, term, visibleIn(ctx, g)));
  });
  project.get('/search', { auth: 'user' }, (ctx, p) => {
    const { term, scope } = readParams(ctx, PROJECT);
    if (!canReadProject(ctx.world, ctx.user, p)) throw E.notFound('Project');
    const ref = strParam(ctx, 'ref') ?? defaultBranch(ctx.world, p.id);
    if (scope === 'blobs') return send(ctx, blobs(ctx, p, term, ref));
    if (scope === 'commits') return send(ctx, commits(ctx, p, term, ref));
    send(ctx, common(ctx, scope, term, [p]));
  });
}
