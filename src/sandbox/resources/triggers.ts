// Pipeline trigger tokens (`GET/POST /projects/:id/triggers`, maintainers) and the trigger API
// (reference endpoints §3 Trigger): `token` and `ref` required and no credentials needed;
// `variables` a hash of strings; an unknown project or a token that cannot be used → 404
// `404 Not Found`; a request carrying the pipeline webhook's event header → 403. A trigger token
// makes a pipeline with source `trigger`, a CI job token one with source `pipeline`.
import { randomBytes } from 'node:crypto';
import { can } from '../access.js';
import { ask } from '../engine/ports.js';
import type { Ctx } from '../server/context.js';
import { ApiError, E } from '../server/errors.js';
import { strParam } from '../server/params.js';
import { sendJson, sendList } from '../server/respond.js';
import { storeFor } from '../store/collection.js';
import type { PipelineRec, ProjectRec } from '../store/records.js';
import type { World } from '../store/world.js';
import { iso } from '../util/time.js';
import { requireAbility } from './guards.js';
import type { Mounts } from './mounts.js';
import { userBasic } from '../entities/user.js';

interface TriggerRec {
  id: number;
  projectId: number;
  ownerId: number;
  description: string;
  token: string;
  createdAt: number;
  lastUsed: number | null;
}

const triggers = storeFor(() => ({ list: [] as TriggerRec[], nextId: 1 }));

/** The webhook header of a pipeline event: a hook must not trigger pipelines in a loop. */
const WEBHOOK_EVENT = 'x-gitlab-event';

function triggerJson(w: World, t: TriggerRec, viewerId: number | undefined): Record<string, unknown> {
  return {
    id: t.id,
    token: viewerId === t.ownerId ? t.token : t.token.slice(0, 4),
    description: t.description,
    created_at: iso(t.createdAt),
    updated_at: iso(t.createdAt),
    last_used: t.lastUsed === null ? null : iso(t.lastUsed),
    owner: userBasic(w, w.users.get(t.ownerId)!),
  };
}

/** `variables` must be a hash whose keys and values are all strings. */
function triggerVariables(ctx: Ctx): PipelineRec['variables'] {
  const raw = ctx.params.variables;
  if (raw === undefined || raw === null || raw === '') return [];
  if (typeof raw !== 'object' || Array.isArray(raw)) throw E.invalid('variables');
  const entries = Object.entries(raw as Record<string, unknown>);
  if (entries.some(([, value]) => typeof value !== 'string')) throw E.badRequest('variables needs to be a map of key-valued strings');
  return entries.map(([key, value]) => ({ key, value: value as string, variable_type: 'env_var' }));
}

function findProject(w: World, id: string): ProjectRec | null {
  return /^\d+$/.test(id) ? w.projects.get(Number(id)) : (w.findProjectByPath(id)?.project ?? null);
}

/** Who the pipeline runs as, and how it started; null when the token cannot be used on this project. */
function tokenUser(ctx: Ctx, p: ProjectRec, token: string): { userId: number; source: string } | null {
  const w = ctx.world;
  const trigger = triggers(w).list.find((t) => t.token === token && t.projectId === p.id);
  if (trigger) {
    trigger.lastUsed = Date.now();
    return { userId: trigger.ownerId, source: 'trigger' };
  }
  const job = ctx.core.tokens.get(token);
  if (job?.kind !== 'job') return null;
  return can(w, w.users.get(job.userId) ?? null, p, 'create_pipeline') ? { userId: job.userId, source: 'pipeline' } : null;
}

function trigger(ctx: Ctx, refFromPath?: string): void {
  const token = strParam(ctx, 'token');
  const ref = refFromPath ?? strParam(ctx, 'ref');
  const missing = [token === undefined && 'token', ref === undefined && 'ref'].filter((n): n is string => Boolean(n));
  if (missing.length) throw E.missing(...missing);
  if (ref === '') throw new ApiError(400, { error: 'ref is empty' });
  const variables = triggerVariables(ctx);
  if (String(ctx.req.headers[WEBHOOK_EVENT] ?? '') === 'Pipeline Hook') throw E.forbidden();
  const w = ctx.world;
  const p = findProject(w, ctx.p.id!);
  const as = p && tokenUser(ctx, p, token!);
  if (!p || !as) throw E.notFound();
  const sha = w.repos.isBranchOrTag(p.id, ref!) ? w.repos.resolveRef(p.id, ref!) : null;
  if (!sha) throw E.validation({ base: ['Reference not found'] });
  sendJson(ctx, 201, ask('startPipeline')(w, p, { ref: ref!, sha, userId: as.userId, variables, source: as.source }));
}

export function mountTriggers({ root, project }: Mounts): void {
  project.get('/triggers', { auth: 'user' }, (ctx, p) => {
    requireAbility(ctx, p, 'admin_project');
    sendList(
      ctx,
      triggers(ctx.world)
        .list.filter((t) => t.projectId === p.id)
        .map((t) => triggerJson(ctx.world, t, ctx.user?.id)),
    );
  });
  project.post('/triggers', { auth: 'user' }, (ctx, p) => {
    requireAbility(ctx, p, 'admin_project');
    const description = strParam(ctx, 'description');
    if (description === undefined) throw E.missing('description');
    const store = triggers(ctx.world);
    const rec: TriggerRec = {
      id: store.nextId++,
      projectId: p.id,
      ownerId: ctx.user!.id,
      description,
      token: `glptt-${randomBytes(20).toString('hex')}`,
      createdAt: Date.now(),
      lastUsed: null,
    };
    store.list.push(rec);
    sendJson(ctx, 201, triggerJson(ctx.world, rec, ctx.user!.id));
  });
  // One trigger (lib/api/ci/triggers.rb): `find`'s 404; `PUT` changes the description; `DELETE` answers 204.
  const findTrigger = (ctx: Ctx, p: ProjectRec): TriggerRec => {
    requireAbility(ctx, p, 'admin_project');
    const t = triggers(ctx.world).list.find((x) => x.projectId === p.id && String(x.id) === ctx.p.trigger_id);
    if (!t) throw E.findNotFound();
    return t;
  };
  project.get('/triggers/:trigger_id', { auth: 'user' }, (ctx, p) =>
    sendJson(ctx, 200, triggerJson(ctx.world, findTrigger(ctx, p), ctx.user?.id)),
  );
  project.put('/triggers/:trigger_id', { auth: 'user' }, (ctx, p) => {
    const t = findTrigger(ctx, p);
    t.description = strParam(ctx, 'description') ?? t.description;
    sendJson(ctx, 200, triggerJson(ctx.world, t, ctx.user?.id));
  });
  project.delete('/triggers/:trigger_id', { auth: 'user' }, (ctx, p) => {
    const store = triggers(ctx.world);
    store.list.splice(store.list.indexOf(findTrigger(ctx, p)), 1);
    sendJson(ctx, 204, null);
  });
  // Outside the project scope: the token, not the caller, decides who may see the project.
  root.post('/projects/:id/trigger/pipeline', { auth: 'public', job: true }, (ctx) => trigger(ctx));
  root.post('/projects/:id/ref/:ref/trigger/pipeline', { auth: 'public', job: true }, (ctx) => trigger(ctx, ctx.p.ref));
}
