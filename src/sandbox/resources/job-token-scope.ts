// The CI/CD job token's inbound scope (lib/api/project_job_token_scope.rb, entities
// project_job_token_scope.rb, project_scope_link.rb, group_scope_link.rb, and the services
// ci/job_token_scope/{add,remove}_{project,group}_service.rb with edit_scope_validations.rb):
// maintainers read it and add to it; a removal checks the role in the service (403 with its text).
// The project allowlist always holds the project itself. Writes take the numeric project id only
// (`requires :id, type: Integer`).
import { can, canReadGroup, canReadProject } from '../access.js';
import type { Ctx } from '../server/context.js';
import { E } from '../server/errors.js';
import { pageOf } from '../server/paging.js';
import { intParam, intSeg } from '../server/params.js';
import { sendJson, sendList } from '../server/respond.js';
import { storeFor } from '../store/collection.js';
import type { GroupRec, ProjectRec } from '../store/records.js';
import type { World } from '../store/world.js';
import { offer } from '../engine/ports.js';
import { requireAbility } from './guards.js';
import type { Mounts } from './mounts.js';
import { projectJsonText } from '../entities/project.js';

interface Scope {
  inbound: boolean;
  projects: number[];
  groups: number[];
}

const INSUFFICIENT = 'Insufficient permissions to modify the job token scope';
const PROJECT_UNREACHABLE =
  "The target_project that you are attempting to access does not exist or you don't have permission to perform this action";
const GROUP_UNREACHABLE =
  "The target_group that you are attempting to access does not exist or you don't have permission to perform this action";

const scopes = storeFor(() => new Map<number, Scope>());

/** Seeded projects with an even id restrict inbound job tokens, odd ones do not; created projects do (the newer default). */
function scopeOf(w: World, p: ProjectRec): Scope {
  const all = scopes(w);
  let s = all.get(p.id);
  if (!s) {
    s = { inbound: !p.seeded || p.id % 2 === 0, projects: [], groups: [] };
    all.set(p.id, s);
  }
  return s;
}

const bad = (message: string) => E.badRequest(`400 Bad request - ${message}`);

/** `requires :id, type: Integer` on the writes: a path is not taken there. */
function numericId(ctx: Ctx): void {
  if (!/^\d+$/.test(ctx.p.id!)) throw E.invalid('id');
}

function target<T>(ctx: Ctx, name: string, find: (id: number) => T | null | undefined): T {
  const raw = ctx.params[name];
  if (raw === undefined || raw === null || raw === '') throw E.missing(name);
  const found = find(intParam(ctx, name)!);
  if (!found) throw E.notFound(`${name} not found`);
  return found;
}

function groupJson(w: World, g: GroupRec): Record<string, unknown> {
  return { id: g.id, web_url: `${w.base()}/groups/${g.fullPath}`, name: g.name };
}

/**
 * A job token reaches another project when that project does not limit inbound access, or lists the
 * job's project, or a group holding it at any depth (Ci::JobToken::Allowlist).
 */
function jobTokenReaches(w: World, target: ProjectRec, source: ProjectRec): boolean {
  if (target.id === source.id) return true;
  const scope = scopeOf(w, target);
  if (!scope.inbound || scope.projects.includes(source.id)) return true;
  return source.nsKind === 'group' && scope.groups.some((id) => w.groupSubtree(id).has(source.nsOwner));
}

export function mountJobTokenScope({ project }: Mounts): void {
  offer('jobTokenReaches', jobTokenReaches);
  const o = { auth: 'user' as const };
  project.get('/job_token_scope', o, (ctx, p) => {
    requireAbility(ctx, p, 'admin_project');
    sendJson(ctx, 200, { inbound_enabled: scopeOf(ctx.world, p).inbound, outbound_enabled: false });
  });
  project.get('/job_token_scope/allowlist', o, (ctx, p) => {
    requireAbility(ctx, p, 'admin_project');
    const w = ctx.world;
    const ids = [p.id, ...scopeOf(w, p).projects];
    const page = pageOf(ctx, ids).map((id) => {
      const text = projectJsonText(w, w.projects.get(id)!, { viewer: ctx.user, basic: true, statistics: false });
      return JSON.parse(text) as unknown;
    });
    sendList(ctx, page);
  });
  project.get('/job_token_scope/groups_allowlist', o, (ctx, p) => {
    requireAbility(ctx, p, 'admin_project');
    const w = ctx.world;
    sendList(
      ctx,
      pageOf(ctx, scopeOf(w, p).groups).map((id) => groupJson(w, w.groups.get(id)!)),
    );
  });
  project.post('/job_token_scope/allowlist', o, (ctx, p) => {
    numericId(ctx);
    requireAbility(ctx, p, 'admin_project');
    const w = ctx.world;
    const t = target(ctx, 'target_project_id', (id) => w.projects.get(id));
    if (!canReadProject(w, ctx.user, t)) throw bad(PROJECT_UNREACHABLE);
    if (t.id === p.id) throw bad("Validation failed: Target project can't be the same as the source project");
    const s = scopeOf(w, p);
    if (s.projects.includes(t.id)) throw bad('Target project is already in the job token scope');
    s.projects.push(t.id);
    sendJson(ctx, 201, { source_project_id: p.id, target_project_id: t.id });
  });
  project.post('/job_token_scope/groups_allowlist', o, (ctx, p) => {
    numericId(ctx);
    requireAbility(ctx, p, 'admin_project');
    const w = ctx.world;
    const g = target(ctx, 'target_group_id', (id) => w.groups.get(id));
    if (!canReadGroup(w, ctx.user, g)) throw bad(GROUP_UNREACHABLE);
    const s = scopeOf(w, p);
    if (s.groups.includes(g.id)) throw bad('Target group is already in the job token scope');
    s.groups.push(g.id);
    sendJson(ctx, 201, { source_project_id: p.id, target_group_id: g.id });
  });
  project.delete('/job_token_scope/allowlist/:target_project_id', o, (ctx, p) => {
    numericId(ctx);
    const w = ctx.world;
    const t = w.projects.get(intSeg(ctx, 'target_project_id'));
    if (!t) throw E.notFound('Project');
    if (!can(w, ctx.user, p, 'admin_project')) throw E.forbidden(INSUFFICIENT);
    if (!canReadProject(w, ctx.user, t)) throw E.forbidden(PROJECT_UNREACHABLE);
    if (t.id === p.id) throw bad('Source project cannot be removed from the job token scope');
    const s = scopeOf(w, p);
    if (!s.projects.includes(t.id)) throw bad('Target project is not in the job token scope');
    s.projects.splice(s.projects.indexOf(t.id), 1);
    sendJson(ctx, 204, null);
  });
  project.delete('/job_token_scope/groups_allowlist/:target_group_id', o, (ctx, p) => {
    numericId(ctx);
    const w = ctx.world;
    const g = w.groups.get(intSeg(ctx, 'target_group_id'));
    if (!g) throw E.notFound('target_group_id not found');
    if (!can(w, ctx.user, p, 'admin_project')) throw E.forbidden(INSUFFICIENT);
    const s = scopeOf(w, p);
    if (!s.groups.includes(g.id)) throw bad('Target group is not in the job token scope');
    s.groups.splice(s.groups.indexOf(g.id), 1);
    sendJson(ctx, 204, null);
  });
}
