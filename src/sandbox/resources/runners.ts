// Runners (reference endpoints §12): the caller's runners, every runner (administrators), one
// runner, its update (pause), deletion and jobs. Statuses follow `contacted_at` (runner-store.ts).
import type { Ctx } from '../server/context.js';
import { ApiError, E } from '../server/errors.js';
import { pageOf } from '../server/paging.js';
import { boolParam, enumParam, intParam, intSeg, listParam, SORTS, strParam } from '../server/params.js';
import { sendJson, sendList } from '../server/respond.js';
import type { RunnerRec, RunnerType } from '../store/admin-records.js';
import type { World } from '../store/world.js';
import { iso } from '../util/time.js';
import { jobById, jobState } from './job-states.js';
import { requireAbility } from './guards.js';
import type { Mounts } from './mounts.js';
import { SEEDED_JOBS, SEEDED_PIPELINES } from './pipeline-store.js';
import { STATUSES as JOB_STATUSES } from './job-states.js';
import { isOnline, isStale, maintainsGroup, managesRunner, runnerStatus, runnerStore } from './runner-store.js';

const TYPES: readonly RunnerType[] = ['instance_type', 'group_type', 'project_type'];
const STATUS_FILTERS = ['online', 'offline', 'stale', 'never_contacted', 'active', 'paused'] as const;
const ACCESS_LEVELS = ['not_protected', 'ref_protected'] as const;
const UPDATABLE = [
  'description',
  'active',
  'paused',
  'tag_list',
  'run_untagged',
  'locked',
  'access_level',
  'maximum_timeout',
  'maintenance_note',
];
const NO_ACCESS = 'No access granted';

function runnerJson(r: RunnerRec, now: number): Record<string, unknown> {
  return {
    id: r.id,
    description: r.description,
    ip_address: null,
    active: !r.paused,
    paused: r.paused,
    is_shared: r.runnerType === 'instance_type',
    runner_type: r.runnerType,
    name: 'gitlab-runner',
    online: isOnline(r, now),
    status: runnerStatus(r, now),
  };
}

function runnerDetails(w: World, r: RunnerRec, now: number): Record<string, unknown> {
  return {
    ...runnerJson(r, now),
    tag_list: r.tagList,
    run_untagged: r.runUntagged,
    locked: r.locked,
    maximum_timeout: r.maximumTimeout,
    access_level: r.accessLevel,
    version: r.version,
    revision: 'a1b2c3d4',
    platform: 'linux',
    architecture: 'amd64',
    contacted_at: r.contactedAt === null ? null : iso(r.contactedAt),
    maintenance_note: r.maintenanceNote,
    projects: r.projectIds.flatMap((id) => {
      const p = w.projects.get(id);
      if (!p) return [];
      return [{ id, name: p.name, name_with_namespace: `${w.nsName(p)} / ${p.name}`, path: p.path, path_with_namespace: p.fullPath }];
    }),
    groups:
      r.groupId === null
        ? []
        : [{ id: r.groupId, name: w.groups.get(r.groupId)?.name, web_url: `${w.base()}/groups/${w.groups.get(r.groupId)?.fullPath}` }],
  };
}

/** The `status` filter works on the service's scopes: `offline` includes stale runners, `never_contacted` stale ones never seen. */
function statusFilter(status: (typeof STATUS_FILTERS)[number], now: number): (r: RunnerRec) => boolean {
  switch (status) {
    case 'online':
      return (r) => isOnline(r, now);
    case 'offline':
      return (r) => r.contactedAt !== null && !isOnline(r, now);
    case 'stale':
      return (r) => isStale(r, now);
    case 'never_contacted':
      return (r) => r.contactedAt === null;
    case 'active':
      return (r) => !r.paused;
    case 'paused':
      return (r) => r.paused;
  }
}

function filters(ctx: Ctx, now: number): Array<(r: RunnerRec) => boolean> {
  const out: Array<(r: RunnerRec) => boolean> = [];
  const scope = strParam(ctx, 'scope');
  if (scope !== undefined && !(STATUS_FILTERS as readonly string[]).includes(scope)) throw E.badRequest('Scope contains invalid value');
  const type = enumParam(ctx, 'type', TYPES);
  if (type) out.push((r) => r.runnerType === type);
  const status = enumParam(ctx, 'status', STATUS_FILTERS) ?? (scope as (typeof STATUS_FILTERS)[number] | undefined);
  if (status) out.push(statusFilter(status, now));
  const paused = boolParam(ctx, 'paused');
  if (paused !== undefined) out.push((r) => r.paused === paused);
  const tags = listParam(ctx, 'tag_list')?.map((t) => t.trim());
  if (tags) out.push((r) => tags.every((t) => r.tagList.includes(t)));
  const version = strParam(ctx, 'version_prefix');
  if (version !== undefined) out.push((r) => r.version.startsWith(version));
  return out;
}

function listRunners(ctx: Ctx, visible: (r: RunnerRec) => boolean): void {
  const store = runnerStore(ctx);
  const checks = [visible, ...filters(ctx, store.now)];
  const list = [...store.byId.values()].filter((r) => checks.every((c) => c(r)));
  sendList(
    ctx,
    pageOf(ctx, list).map((r) => runnerJson(r, store.now)),
  );
}

function findRunner(ctx: Ctx, forWrite: boolean): RunnerRec {
  const r = runnerStore(ctx).byId.get(intSeg(ctx, 'runner_id'));
  if (!r) throw E.notFound('Runner');
  const user = ctx.user!;
  const readable = r.runnerType === 'instance_type' && !forWrite;
  if (!readable && !managesRunner(ctx.world, user, r)) throw E.forbidden(NO_ACCESS);
  return r;
}

function updateRunner(ctx: Ctx): void {
  const r = findRunner(ctx, true);
  if (!UPDATABLE.some((k) => ctx.params[k] !== undefined)) throw E.atLeastOne(...UPDATABLE);
  if (ctx.params.paused !== undefined && ctx.params.active !== undefined) {
    throw new ApiError(400, { error: 'paused, active are mutually exclusive' });
  }
  const paused = boolParam(ctx, 'paused');
  const active = boolParam(ctx, 'active');
  const accessLevel = enumParam(ctx, 'access_level', ACCESS_LEVELS);
  const timeout = intParam(ctx, 'maximum_timeout');
  if (timeout !== undefined && timeout < 600) throw E.notValid('maximum_timeout');
  const runUntagged = boolParam(ctx, 'run_untagged');
  const locked = boolParam(ctx, 'locked');
  const tags = listParam(ctx, 'tag_list');
  if (paused !== undefined) r.paused = paused;
  if (active !== undefined) r.paused = !active;
  r.description = strParam(ctx, 'description') ?? r.description;
  if (tags) r.tagList = tags.map((t) => t.trim()).filter(Boolean);
  if (runUntagged !== undefined) r.runUntagged = runUntagged;
  if (locked !== undefined) r.locked = locked;
  if (accessLevel) r.accessLevel = accessLevel;
  if (timeout !== undefined) r.maximumTimeout = timeout;
  r.maintenanceNote = strParam(ctx, 'maintenance_note') ?? r.maintenanceNote;
  sendJson(ctx, 200, runnerDetails(ctx.world, r, runnerStore(ctx).now));
}

function deleteRunner(ctx: Ctx): void {
  const r = findRunner(ctx, true);
  if (!ctx.user!.isAdmin && r.projectIds.length > 1) throw E.forbidden('Runner associated with more than one project');
  runnerStore(ctx).byId.delete(r.id);
  sendJson(ctx, 204, '');
}

/** The jobs a runner ran: those of its first project, or for group and instance runners of one project picked by id. */
function runnerJobs(ctx: Ctx): void {
  const r = findRunner(ctx, false);
  const w = ctx.world;
  const status = enumParam(ctx, 'status', JOB_STATUSES);
  enumParam(ctx, 'order_by', ['id'] as const);
  const sort = enumParam(ctx, 'sort', SORTS, 'desc');
  const projectId = r.projectIds[0] ?? ((r.id - 1) % Math.max(1, w.seededProjects)) + 1;
  const p = w.projects.get(projectId);
  const ids: number[] = [];
  if (p?.seeded) {
    const first = (projectId - 1) * SEEDED_PIPELINES * SEEDED_JOBS + 1;
    for (let id = first; id < first + SEEDED_PIPELINES * SEEDED_JOBS; id++) ids.push(id);
  }
  if (sort === 'desc') ids.reverse();
  const jobs = ids.flatMap((id) => {
    const job = jobById(w, id);
    if (!job || !p) return [];
    const state = jobState(w, job);
    if (status && state.status !== status) return [];
    return [
      {
        id: job.id,
        status: state.status,
        stage: job.stage,
        name: job.name,
        ref: 'main',
        started_at: state.startedAt === null ? null : iso(state.startedAt),
        finished_at: state.finishedAt === null ? null : iso(state.finishedAt),
        pipeline: { id: job.pipelineId, project_id: projectId, ref: 'main', status: state.status },
        project: { id: p.id, name: p.name, path: p.path, path_with_namespace: p.fullPath },
        web_url: `${w.base()}/${p.fullPath}/-/jobs/${job.id}`,
      },
    ];
  });
  sendList(ctx, pageOf(ctx, jobs));
}

/** The groups a project or group sits in, itself included, up to its root. */
function ancestry(w: World, groupId: number): Set<number> {
  const ids = new Set<number>();
  for (let g = w.groups.get(groupId); g; g = g.parentId === null ? null : w.groups.get(g.parentId)) ids.add(g.id);
  return ids;
}

export function mountRunners({ root, project, group }: Mounts): void {
  // The runners available to a project or group: the instance's, its ancestor groups', and (for a project) its own.
  project.get('/runners', { auth: 'user' }, (ctx, p) => {
    requireAbility(ctx, p, 'admin_project');
    const groups = p.nsKind === 'group' ? ancestry(ctx.world, p.nsOwner) : new Set<number>();
    listRunners(
      ctx,
      (r) => r.runnerType === 'instance_type' || (r.groupId !== null && groups.has(r.groupId)) || r.projectIds.includes(p.id),
    );
  });
  group.get('/runners', { auth: 'user' }, (ctx, g) => {
    if (!maintainsGroup(ctx.world, ctx.user!, g)) throw E.forbidden();
    const groups = ancestry(ctx.world, g.id);
    listRunners(ctx, (r) => r.runnerType === 'instance_type' || (r.groupId !== null && groups.has(r.groupId)));
  });

  root.get('/runners', { auth: 'user' }, (ctx) => {
    const user = ctx.user!;
    listRunners(ctx, (r) => r.runnerType !== 'instance_type' && managesRunner(ctx.world, user, r));
  });
  root.get('/runners/all', { auth: 'user' }, (ctx) => {
    if (!ctx.user!.isAdmin) throw E.forbidden();
    listRunners(ctx, () => true);
  });
  root.get('/runners/:runner_id', { auth: 'user' }, (ctx) => {
    sendJson(ctx, 200, runnerDetails(ctx.world, findRunner(ctx, false), runnerStore(ctx).now));
  });
  root.put('/runners/:runner_id', { auth: 'user' }, updateRunner);
  root.delete('/runners/:runner_id', { auth: 'user' }, deleteRunner);
  root.get('/runners/:runner_id/jobs', { auth: 'user' }, runnerJobs);
}
