// Environments (lib/api/environments.rb, app/models/environment.rb, app/policies/environment_policy.rb,
// app/services/environments/stop_stale_service.rb): reporters read; developers create, update and
// stop; a stop the caller may not make is no error, the environment is answered unchanged
// (`StopService` returns early); only a stopped environment may be deleted (403 otherwise);
// `stop_stale` stops every available environment not updated and not deployed to since
// `before`, protected ones aside (EE `without_protected`), at once where the service queues workers.
// `DELETE …/review_apps` schedules stopped review apps for deletion.
// `GET /projects/:id/protected_environments` (EE) lists the protected ones.
import { can } from '../access.js';
import type { Ctx } from '../server/context.js';
import { ApiError, E } from '../server/errors.js';
import { pageOf } from '../server/paging.js';
import { boolParam, enumParam, intParam, intSeg, strParam, timeParam } from '../server/params.js';
import { sendJson, sendList } from '../server/respond.js';
import type { ProjectRec } from '../store/records.js';
import type { World } from '../store/world.js';
import {
  deploymentJson,
  ENV_STATES,
  envBasicJson,
  environmentSlug,
  environmentStore,
  type EnvRec,
  guessTier,
  lastDeployment,
  projectEnvs,
  protectedEnv,
  TIERS,
} from './environment-store.js';
import { requireAbility } from './guards.js';
import type { Mounts } from './mounts.js';
import { projectJsonText } from '../entities/project.js';

const MIN_SEARCH_LENGTH = 3;
const NAME_FORMAT = /^[a-zA-Z0-9 \-_/${}.]+$/;
const NAME_MESSAGE = "can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', and spaces, but it cannot start or end with '/'";
const YEAR = 365.25 * 86_400_000;
const WEEK = 7 * 86_400_000;

/** `project` is BasicProjectDetails; a single read carries `last_deployment` (without its environment) and no project. */
function environmentJson(ctx: Ctx, p: ProjectRec, e: EnvRec, single = false): Record<string, unknown> {
  const w = ctx.world;
  const last = single ? lastDeployment(w, e) : undefined;
  return {
    ...envBasicJson(e),
    tier: e.tier,
    ...(single ? {} : { project: JSON.parse(projectJsonText(w, p, { viewer: ctx.user, basic: true, statistics: false })) as unknown }),
    ...(single ? { last_deployment: last ? deploymentJson(w, last, false) : null } : {}),
    state: e.state,
    auto_stop_at: null,
  };
}

function findEnv(ctx: Ctx, p: ProjectRec): EnvRec {
  const id = intSeg(ctx, 'environment_id');
  const e = projectEnvs(ctx.world, p.id).envs.find((x) => x.id === id);
  if (!e) throw E.findNotFound();
  return e;
}

/** The model's validations of a name, a URL and a tier, in one `render_validation_error!` body. */
function validate(w: World, p: ProjectRec, e: EnvRec): void {
  const errors: Record<string, string[]> = {};
  const name: string[] = [];
  if (e.name.trim() === '') name.push("can't be blank");
  else if (projectEnvs(w, p.id).envs.some((x) => x.id !== e.id && x.name === e.name)) name.push('has already been taken');
  if (e.name.length > 255) name.push('is too long (maximum is 255 characters)');
  if (e.name !== '' && (!NAME_FORMAT.test(e.name) || e.name.startsWith('/') || e.name.endsWith('/'))) name.push(NAME_MESSAGE);
  if (name.length) errors.name = name;
  if (e.externalUrl !== null && !/^https?:\/\/[^\s/]+/.test(e.externalUrl)) {
    errors.external_url = ['is blocked: Only allowed schemes are http, https'];
  }
  if (Object.keys(errors).length) throw E.validation(errors);
}

/** `slug` may not be given: Grape's `absence` check. */
function refuseSlug(ctx: Ctx): void {
  if (ctx.params.slug !== undefined) throw new ApiError(400, { error: 'slug is automatically generated and cannot be changed' });
}

function createEnvironment(ctx: Ctx, p: ProjectRec): void {
  requireAbility(ctx, p, 'create_environment');
  const name = strParam(ctx, 'name');
  if (name === undefined) throw E.missing('name');
  refuseSlug(ctx);
  const tier = enumParam(ctx, 'tier', TIERS);
  const externalUrl = strParam(ctx, 'external_url');
  const w = ctx.world;
  const store = environmentStore(w);
  const now = w.now();
  const id = store.nextEnvId;
  const e: EnvRec = {
    id,
    projectId: p.id,
    name,
    slug: environmentSlug(w, name, id),
    externalUrl: externalUrl ? externalUrl : null,
    tier: tier ?? guessTier(name),
    state: 'available',
    createdAt: now,
    updatedAt: now,
  };
  validate(w, p, e);
  store.nextEnvId++;
  projectEnvs(w, p.id).envs.push(e);
  sendJson(ctx, 201, environmentJson(ctx, p, e));
}

function updateEnvironment(ctx: Ctx, p: ProjectRec): void {
  requireAbility(ctx, p, 'update_environment');
  const e = findEnv(ctx, p);
  refuseSlug(ctx);
  const name = strParam(ctx, 'name');
  const externalUrl = strParam(ctx, 'external_url');
  const tier = enumParam(ctx, 'tier', TIERS);
  const next: EnvRec = {
    ...e,
    name: name ?? e.name,
    externalUrl: externalUrl === undefined ? e.externalUrl : externalUrl || null,
    tier: tier ?? e.tier,
  };
  validate(ctx.world, p, next);
  if (next.name !== e.name || next.externalUrl !== e.externalUrl || next.tier !== e.tier) {
    Object.assign(e, next, { updatedAt: ctx.world.now() });
  }
  sendJson(ctx, 200, environmentJson(ctx, p, e));
}

function stop(w: World, e: EnvRec): void {
  if (e.state !== 'available') return;
  e.state = 'stopped';
  e.updatedAt = w.now();
}

/** The environments `stop_stale` stops: available, not updated since `before`, no deployment updated since, not protected. */
function staleEnvironments(w: World, p: ProjectRec, before: number): EnvRec[] {
  const { envs, deployments } = projectEnvs(w, p.id);
  const deployedSince = new Set(deployments.filter((d) => d.updatedAt >= before).map((d) => d.envId));
  return envs.filter((e) => e.state === 'available' && e.updatedAt < before && !deployedSince.has(e.id) && !protectedEnv(w, e));
}

/**
 * `DELETE …/environments/review_apps` (Environments::ScheduleToDeleteReviewAppsService): the stopped
 * environments of the `review/` folder created before `before` (default 30 days ago), oldest first, up to
 * `limit`, answered as scheduled. The service deletes them a week after a run that is not a dry run; the
 * sandbox keeps them (README, "Environments").
 */
function deleteReviewApps(ctx: Ctx, p: ProjectRec): void {
  requireAbility(ctx, p, 'read_environment');
  const w = ctx.world;
  const before = timeParam(ctx, 'before') ?? w.now() - 30 * 86_400_000;
  const limit = intParam(ctx, 'limit') ?? 100;
  if (limit < 1 || limit > 1000) throw E.notValid('limit');
  // `dry_run` (default true) changes nothing here: the deletion the service schedules is a week away.
  boolParam(ctx, 'dry_run');
  if (!can(w, ctx.user, p, 'destroy_environment')) {
    const message = 'You do not have permission to destroy environments in this project';
    throw new ApiError(401, { message: { scheduled_entries: [], unprocessable_entries: [], message } });
  }
  const doomed = projectEnvs(w, p.id)
    .envs.filter((e) => e.state === 'stopped' && e.name.startsWith('review/') && e.createdAt < before)
    .sort((a, b) => a.createdAt - b.createdAt || a.id - b.id)
    .slice(0, limit);
  sendJson(ctx, 200, { scheduled_entries: doomed.map(envBasicJson), unprocessable_entries: [] });
}

function listEnvironments(ctx: Ctx, p: ProjectRec): void {
  requireAbility(ctx, p, 'read_environment');
  const name = strParam(ctx, 'name');
  const search = strParam(ctx, 'search');
  const states = enumParam(ctx, 'states', ENV_STATES);
  if (name !== undefined && search !== undefined) throw new ApiError(400, { error: 'name, search cannot be used together' });
  if (search && search.length < MIN_SEARCH_LENGTH) {
    throw E.badRequest(`400 Bad request - Search query is less than ${MIN_SEARCH_LENGTH} characters`);
  }
  const term = search?.toLowerCase();
  const list = projectEnvs(ctx.world, p.id).envs.filter(
    (e) =>
      (name === undefined || e.name === name) &&
      (!term || e.name.toLowerCase().startsWith(term) || e.name.toLowerCase().split('/').slice(1).join('/').startsWith(term)) &&
      (!states || e.state === states),
  );
  sendList(
    ctx,
    pageOf(ctx, list).map((e) => environmentJson(ctx, p, e)),
  );
}

export function mountEnvironments({ project }: Mounts): void {
  const o = { auth: 'user' as const, job: true };
  project.get('/environments', o, listEnvironments);
  project.post('/environments', o, createEnvironment);
  project.get('/environments/:environment_id', o, (ctx, p) => {
    requireAbility(ctx, p, 'read_environment');
    sendJson(ctx, 200, environmentJson(ctx, p, findEnv(ctx, p), true));
  });
  project.put('/environments/:environment_id', o, updateEnvironment);
  project.delete('/environments/:environment_id', o, (ctx, p) => {
    requireAbility(ctx, p, 'read_environment');
    const e = findEnv(ctx, p);
    // The environment policy prevents `destroy_environment` on one that is not stopped.
    if (e.state !== 'stopped' || !can(ctx.world, ctx.user, p, 'destroy_environment')) throw E.forbidden();
    const { envs } = projectEnvs(ctx.world, p.id);
    envs.splice(envs.indexOf(e), 1);
    sendJson(ctx, 204, null);
  });
  project.post('/environments/:environment_id/stop', o, (ctx, p) => {
    requireAbility(ctx, p, 'read_environment');
    const e = findEnv(ctx, p);
    boolParam(ctx, 'force');
    if (can(ctx.world, ctx.user, p, 'update_environment')) stop(ctx.world, e);
    sendJson(ctx, 200, environmentJson(ctx, p, e));
  });
  project.post('/environments/stop_stale', o, (ctx, p) => {
    requireAbility(ctx, p, 'update_environment');
    const before = timeParam(ctx, 'before');
    if (before === undefined) throw E.missing('before');
    const now = ctx.world.now();
    if (before < now - 10 * YEAR || before > now - WEEK) throw E.badRequest('400 Bad request - Invalid Date');
    for (const e of staleEnvironments(ctx.world, p, before)) stop(ctx.world, e);
    sendJson(ctx, 200, { message: 'Successfully scheduled stale environments to stop' });
  });
  project.delete('/environments/review_apps', o, deleteReviewApps);
  project.get('/protected_environments', { auth: 'user', premium: true }, (ctx, p) => {
    requireAbility(ctx, p, 'admin_project');
    const list = projectEnvs(ctx.world, p.id).protectedEnvs.map((pe) => ({
      name: pe.name,
      deploy_access_levels: [
        { id: p.id, access_level: pe.deployLevel, access_level_description: 'Maintainers', user_id: null, group_id: null },
      ],
      required_approval_count: pe.requiredApprovals,
      approval_rules: [],
    }));
    sendList(ctx, pageOf(ctx, list));
  });
}
