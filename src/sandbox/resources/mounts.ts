// Where resources mount: at the API root, under a project (`/projects/:id`,
// resolved once per request) or under a group (`/groups/:id`).
import { canReadGroup, canReadProject } from '../access.js';
import { ask } from '../engine/ports.js';
import type { Ctx } from '../server/context.js';
import { ApiError, E } from '../server/errors.js';
import type { Router, Scope } from '../server/router.js';
import type { GroupRec, ProjectRec, SnippetRec } from '../store/records.js';

export interface Mounts {
  root: Scope<void>;
  project: Scope<ProjectRec>;
  group: Scope<GroupRec>;
  /** `/snippets/:id` by existence only: the routes under it are admin-only */
  snippet: Scope<SnippetRec>;
}

export function mounts(router: Router): Mounts {
  return {
    root: router.scope('', () => undefined),
    project: router.scope('/projects/:id', resolveProject),
    group: router.scope('/groups/:id', resolveGroup),
    snippet: router.scope('/snippets/:id', (ctx) => {
      const v = ctx.p.id!;
      const s = /^\d+$/.test(v) ? ctx.world.snippets.get(Number(v)) : null;
      if (!s) throw E.notFound('Snippet');
      return s;
    }),
  };
}

/**
 * The `:id` project (numeric id or URL-encoded full path), enforcing
 * visibility, job-token scope and the redirects of renamed projects (reference §7).
 */
function resolveProject(ctx: Ctx): ProjectRec {
  const w = ctx.world;
  const v = ctx.p.id!;
  let p: ProjectRec | null = null;
  let redirected = false;
  if (/^\d+$/.test(v)) p = w.projects.get(Number(v));
  else if (v.includes('/')) {
    const f = w.findProjectByPath(v);
    if (f) {
      p = f.project;
      redirected = f.redirected;
    }
  }
  if (!p || !canReadProject(w, ctx.user, p)) throw E.notFound('Project');
  if (redirected) {
    if (ctx.method === 'GET' || ctx.method === 'HEAD') {
      const seg = ctx.rawP.id!;
      const parts = ctx.rawPath.split('/');
      parts[seg.index] = String(p.id);
      const location = `http://${ctx.host}${parts.join('/')}${ctx.rawQuery ? `?${ctx.rawQuery}` : ''}`;
      throw new ApiError(301, `This resource has been moved permanently to ${location}`, { Location: location }, 'text/plain');
    }
    throw new ApiError(405, { message: 'Non GET methods are not allowed for moved projects' });
  }
  const t = ctx.token;
  if (t && t.kind === 'job' && t.projectId !== p.id) {
    const src = w.projects.get(t.projectId!)!;
    if (ask('jobTokenReaches')(w, p, src)) return p;
    throw E.forbidden(`Authentication by CI/CD job token not allowed from ${src.fullPath} to ${p.fullPath}.`);
  }
  return p;
}

function resolveGroup(ctx: Ctx): GroupRec {
  const g = ctx.world.findGroup(ctx.p.id!);
  if (!g || !canReadGroup(ctx.world, ctx.user, g)) throw E.notFound('Group');
  return g;
}
