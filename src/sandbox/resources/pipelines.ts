// Pipelines: list with the service's filters, read, create (reference
// endpoints §3). Seeded projects have 3 finished pipelines on main (ids
// `(p-1)*3+k`); created ones move created → pending → running → success|failed.
import { E } from '../server/errors.js';
import { pageOf } from '../server/paging.js';
import { enumParam, SORTS, strParam, timeParam } from '../server/params.js';
import { sendJson, sendList } from '../server/respond.js';
import { offer } from '../engine/ports.js';
import type { Ctx } from '../server/context.js';
import { cmp, type Compare, ordered } from '../store/collection.js';
import type { PipelineRec, ProjectRec } from '../store/records.js';
import type { World } from '../store/world.js';
import { iso } from '../util/time.js';
import { requireAbility } from './guards.js';
import type { Mounts } from './mounts.js';
import { canReadProject } from '../access.js';
import { JOB_STEP_MS, jobEnd, pipelineState, STATUSES } from './job-states.js';
import { type JobTiming, pipelineSource, pipelineStore } from './pipeline-store.js';
import { userBasic } from '../entities/user.js';

export { STATUSES } from './job-states.js';
const SOURCES = [
  'push',
  'web',
  'trigger',
  'schedule',
  'api',
  'external',
  'pipeline',
  'chat',
  'webide',
  'merge_request_event',
  'external_pull_request_event',
  'parent_pipeline',
  'ondemand_dast_scan',
  'ondemand_dast_validation',
  'security_orchestration_policy',
] as const;
const SCOPES = ['running', 'pending', 'finished', 'branches', 'tags'] as const;
const FINISHED = new Set(['success', 'failed', 'canceled', 'skipped']);
const STATUS_LABEL: Record<string, string> = {
  success: 'passed',
  failed: 'failed',
  running: 'running',
  pending: 'pending',
  created: 'created',
  canceled: 'canceled',
};

function detailedStatus(status: string, path: string): Record<string, unknown> {
  const label = STATUS_LABEL[status] ?? status;
  return {
    icon: `status_${status}`,
    text: label,
    label,
    group: status,
    tooltip: label,
    has_details: true,
    details_path: path,
    illustration: null,
    favicon: `/assets/ci_favicons/favicon_status_${status}.png`,
  };
}

export function pipelineJson(w: World, pl: PipelineRec, full: boolean): Record<string, unknown> {
  const p = w.projects.get(pl.projectId)!;
  const st = pipelineState(w, pl);
  const out: Record<string, unknown> = {
    id: pl.id,
    iid: pl.iid,
    project_id: pl.projectId,
    sha: pl.sha,
    ref: pl.ref,
    status: st.status,
    source: pipelineSource(w, pl),
    created_at: iso(pl.createdAt),
    updated_at: iso(st.updatedAt),
    web_url: `${w.base()}/${p.fullPath}/-/pipelines/${pl.id}`,
  };
  if (!full) return out;
  const duration = st.startedAt && st.finishedAt ? Math.round((st.finishedAt - st.startedAt) / 1000) : null;
  Object.assign(out, {
    before_sha: '0000000000000000000000000000000000000000',
    tag: false,
    yaml_errors: null,
    user: userBasic(w, w.users.get(pl.userId) ?? w.users.get(1)!),
    started_at: st.startedAt ? iso(st.startedAt) : null,
    finished_at: st.finishedAt ? iso(st.finishedAt) : null,
    committed_at: null,
    duration,
    queued_duration: st.startedAt ? Math.round((st.startedAt - pl.createdAt) / 1000) : null,
    coverage: null,
    detailed_status: detailedStatus(st.status, `/${p.fullPath}/-/pipelines/${pl.id}`),
    name: pipelineStore(w).names.get(pl.id) ?? null,
  });
  return out;
}

/** The pipeline of `:pipeline_id` in this project; others are `.find`'s 404. */
export function findPipeline(ctx: Ctx, p: ProjectRec): PipelineRec {
  const v = ctx.p.pipeline_id!;
  if (!/^\d+$/.test(v)) throw E.invalid('pipeline_id');
  const pl = pipelineStore(ctx.world).pipelines.get(p.id, Number(v));
  if (!pl) throw E.findNotFound();
  return pl;
}

function orders(w: World): Record<string, Compare<PipelineRec>> {
  return {
    id: (a, b) => a.id - b.id,
    status: (a, b) => cmp(pipelineState(w, a).status, pipelineState(w, b).status) || a.id - b.id,
    ref: (a, b) => cmp(a.ref, b.ref) || a.id - b.id,
    updated_at: (a, b) => pipelineState(w, a).updatedAt - pipelineState(w, b).updatedAt || a.id - b.id,
    user_id: (a, b) => a.userId - b.userId || a.id - b.id,
  };
}

function listPipelines(ctx: Ctx, p: ProjectRec): PipelineRec[] {
  const w = ctx.world;
  const scope = enumParam(ctx, 'scope', SCOPES);
  const status = enumParam(ctx, 'status', STATUSES);
  const source = enumParam(ctx, 'source', SOURCES);
  const orderBy = enumParam(ctx, 'order_by', ['id', 'status', 'ref', 'updated_at', 'user_id'] as const, 'id');
  const sort = enumParam(ctx, 'sort', SORTS, 'desc');
  const ref = strParam(ctx, 'ref');
  const sha = strParam(ctx, 'sha');
  const username = strParam(ctx, 'username');
  const uid = username === undefined ? undefined : (w.usersByName.get(username.toLowerCase()) ?? 0);
  // PipelinesFinder#by_name: the name set by `workflow:name` or the metadata route, matched exactly.
  const name = strParam(ctx, 'name');
  const names = pipelineStore(w).names;
  const times: Array<[number | undefined, (pl: PipelineRec) => number, 1 | -1]> = [
    [timeParam(ctx, 'updated_after'), (pl) => pipelineState(w, pl).updatedAt, 1],
    [timeParam(ctx, 'updated_before'), (pl) => pipelineState(w, pl).updatedAt, -1],
    [timeParam(ctx, 'created_after'), (pl) => pl.createdAt, 1],
    [timeParam(ctx, 'created_before'), (pl) => pl.createdAt, -1],
  ];
  let list = listedPipelines(w, p, source).filter((pl) => {
    const st = pipelineState(w, pl).status;
    if (scope === 'running' && st !== 'running') return false;
    if (scope === 'pending' && st !== 'pending') return false;
    if (scope === 'finished' && !FINISHED.has(st)) return false;
    if (status !== undefined && st !== status) return false;
    if (source !== undefined && pipelineSource(w, pl) !== source) return false;
    if (ref !== undefined && pl.ref !== ref) return false;
    if (sha !== undefined && pl.sha !== sha) return false;
    if (uid !== undefined && pl.userId !== uid) return false;
    if (name !== undefined && names.get(pl.id) !== name) return false;
    return times.every(([t, value, dir]) => t === undefined || (dir === 1 ? value(pl) >= t : value(pl) <= t));
  });
  if (scope === 'branches' || scope === 'tags') {
    // The latest pipeline of each branch (or tag).
    const isBranch = (r: string) => w.repos.hasBranch(p.id, r);
    const latest = new Map<string, PipelineRec>();
    for (const pl of list) if (isBranch(pl.ref) === (scope === 'branches') && (latest.get(pl.ref)?.id ?? 0) < pl.id) latest.set(pl.ref, pl);
    list = [...latest.values()];
  }
  return ordered(list, orders(w), orderBy, sort);
}

function parseVariables(ctx: Ctx): PipelineRec['variables'] {
  const raw = ctx.params.variables;
  if (raw === undefined || raw === null || raw === '') return [];
  const list = Array.isArray(raw) ? raw : typeof raw === 'object' ? Object.values(raw as object) : null;
  if (!list) throw E.invalid('variables');
  const out: PipelineRec['variables'] = [];
  let badType = false;
  list.forEach((v, i) => {
    if (!v || typeof v !== 'object') throw E.invalid(`variables[${i}]`);
    const o = v as Record<string, unknown>;
    if (o.key === undefined || o.key === null || o.key === '') throw E.missing(`variables[${i}][key]`);
    const type = o.variable_type === undefined ? 'env_var' : String(o.variable_type);
    if (type !== 'env_var' && type !== 'file') badType = true;
    out.push({ key: String(o.key), value: o.value === undefined || o.value === null ? '' : String(o.value), variable_type: type });
  });
  if (badType) throw E.validation({ variables: { variable_type: ['is not included in the list'] } });
  return out;
}

/** A variable naming the pipelines this one starts: hops `child` or a project path or id, joined by `>`. */
export const DOWNSTREAM_VARIABLE = 'SANDBOX_DOWNSTREAM';
const RESULT_VARIABLE = 'SANDBOX_PIPELINE_RESULT';

export interface NewPipeline {
  ref: string;
  sha: string;
  userId: number;
  variables: PipelineRec['variables'];
  source?: string;
  createdAt?: number;
}

function downstreamProject(w: World, hop: string, from: ProjectRec, userId: number): ProjectRec | null {
  if (hop === 'child') return from;
  const target = /^\d+$/.test(hop) ? w.projects.get(Number(hop)) : w.findProjectByPath(hop)?.project;
  return target && canReadProject(w, w.users.get(userId) ?? null, target) ? target : null;
}

/**
 * A pipeline with `build` and `test` (and a manual `deploy` on a tag); with `SANDBOX_DOWNSTREAM`
 * also a bridge that starts the next hop once they ended. A failure asked for (a `fail/` ref or
 * `SANDBOX_PIPELINE_RESULT=failed`) is passed down the hops to the last pipeline, which fails.
 */
export function createPipeline(w: World, p: ProjectRec, input: NewPipeline): PipelineRec {
  const store = pipelineStore(w);
  const id = store.nextPipelineId++;
  const createdAt = input.createdAt ?? w.now();
  const hops = (input.variables.find((v) => v.key === DOWNSTREAM_VARIABLE)?.value ?? '').split('>').map((hop) => hop.trim());
  const [hop, ...rest] = hops[0] ? hops : [];
  const failing = input.ref.startsWith('fail/') || input.variables.some((v) => v.key === RESULT_VARIABLE && v.value === 'failed');
  const jobIds = [];
  const isTag = w.repos.tags(p.id).some((t) => t.name === input.ref);
  for (const name of isTag ? ['build', 'test', 'deploy'] : ['build', 'test']) {
    const jid = store.nextJobId++;
    store.jobs.set(jid, { id: jid, pipelineId: id, projectId: p.id, name, stage: name, hasArtifacts: name === 'build' });
    jobIds.push(jid);
  }
  const rec: PipelineRec = {
    id,
    iid: store.pipelines.count(p.id) + 1,
    projectId: p.id,
    ref: input.ref,
    sha: input.sha,
    createdAt,
    userId: input.userId,
    fixedStatus: null,
    willFail: failing && hop === undefined,
    variables: input.variables,
    jobIds,
  };
  store.pipelines.insert(p.id, id, rec);
  store.projectOf.set(id, p.id);
  if (input.source) store.sources.set(id, input.source);
  const timing = jobTimingOf(input.variables);
  if (timing) store.timing.set(id, timing);
  if (hop !== undefined) addBridge(w, p, rec, hop, rest, failing);
  return rec;
}

function addBridge(w: World, p: ProjectRec, parent: PipelineRec, hop: string, rest: string[], failing: boolean): void {
  const startsAt = jobEnd(w, parent.id, parent.createdAt);
  const target = downstreamProject(w, hop, p, parent.userId);
  const variables = [
    ...parent.variables.filter((v) => v.key.startsWith('SANDBOX_JOB_')),
    ...(rest.length ? [{ key: DOWNSTREAM_VARIABLE, value: rest.join('>'), variable_type: 'env_var' }] : []),
    ...(failing ? [{ key: RESULT_VARIABLE, value: 'failed', variable_type: 'env_var' }] : []),
  ];
  const child = hop === 'child';
  const downstream = target
    ? createPipeline(w, target, {
        ref: child ? parent.ref : 'main',
        sha: child ? parent.sha : w.repos.resolveRef(target.id, 'main')!,
        userId: parent.userId,
        variables,
        source: child ? 'parent_pipeline' : 'pipeline',
        createdAt: startsAt,
      })
    : null;
  const store = pipelineStore(w);
  const name = child ? 'trigger:child' : `trigger:${target?.fullPath ?? hop}`;
  const bridge = {
    id: store.nextJobId++,
    pipelineId: parent.id,
    projectId: p.id,
    name,
    stage: 'downstream',
    downstreamId: downstream?.id ?? null,
    startsAt,
  };
  store.bridges.set(parent.id, [...(store.bridges.get(parent.id) ?? []), bridge]);
}

/** `SANDBOX_JOB_QUEUED_SECONDS` and `SANDBOX_JOB_RUNNING_SECONDS`: how long each job stays pending and runs. */
function jobTimingOf(variables: PipelineRec['variables']): JobTiming | undefined {
  const seconds = (key: string) => {
    const value = variables.find((v) => v.key === key)?.value;
    return value !== undefined && /^\d+(\.\d+)?$/.test(value) && Number(value) <= 3600 ? Number(value) * 1000 : undefined;
  };
  const queuedMs = seconds('SANDBOX_JOB_QUEUED_SECONDS');
  const runningMs = seconds('SANDBOX_JOB_RUNNING_SECONDS');
  if (queuedMs === undefined && runningMs === undefined) return undefined;
  return { queuedMs: queuedMs ?? JOB_STEP_MS, runningMs: runningMs || JOB_STEP_MS };
}

/** Pipelines a list shows: started ones, and child pipelines only when asked for by source. */
export function listedPipelines(w: World, p: ProjectRec, source: string | undefined): PipelineRec[] {
  const now = w.now();
  return pipelineStore(w)
    .pipelines.list(p.id)
    .filter((pl) => pl.createdAt <= now && (source === 'parent_pipeline') === (pipelineSource(w, pl) === 'parent_pipeline'));
}

export function mountPipelines(mounts: Mounts): void {
  const { project } = mounts;
  offer('startPipeline', (w, p, input) => pipelineJson(w, createPipeline(w, p, input), true));
  offer('pipelineJson', pipelineJson);
  offer('findPipeline', findPipeline);
  offer('listedPipelines', listedPipelines);
  offer('newestPipelineOn', (w, pid, ref) => {
    const list = pipelineStore(w)
      .pipelines.list(pid)
      .filter((pl) => pl.ref === ref);
    return list.length === 0 ? null : list.reduce((a, b) => (b.id > a.id ? b : a));
  });
  offer('pipelineStatus', (w, pl) => pipelineState(w, pl).status);
  project.get('/pipelines/:pipeline_id/variables', { auth: 'user' }, (ctx, p) => {
    requireAbility(ctx, p, 'update_pipeline');
    sendJson(
      ctx,
      200,
      findPipeline(ctx, p).variables.map((v) => ({ variable_type: v.variable_type, key: v.key, value: v.value })),
    );
  });
  project.get('/pipelines', { auth: 'public', job: true }, (ctx, p) => {
    requireAbility(ctx, p, 'read_pipeline');
    sendList(
      ctx,
      // The list is PipelineBasic plus `name` (reference §3); elsewhere (a job's pipeline, a bridge's downstream) it is PipelineBasic.
      pageOf(ctx, listPipelines(ctx, p)).map((pl) => ({
        ...pipelineJson(ctx.world, pl, false),
        name: pipelineStore(ctx.world).names.get(pl.id) ?? null,
      })),
    );
  });
  project.get('/pipelines/:pipeline_id', { auth: 'public', job: true }, (ctx, p) => {
    requireAbility(ctx, p, 'read_pipeline');
    sendJson(ctx, 200, pipelineJson(ctx.world, findPipeline(ctx, p), true));
  });
  project.post('/pipeline', { auth: 'user' }, (ctx, p) => {
    requireAbility(ctx, p, 'create_pipeline');
    const ref = strParam(ctx, 'ref');
    if (!ref) throw E.missing('ref');
    const variables = parseVariables(ctx);
    const repos = ctx.world.repos;
    const sha = repos.isBranchOrTag(p.id, ref) ? repos.resolveRef(p.id, ref) : null;
    if (!sha) throw E.validation({ base: ['Reference not found'] });
    const pl = createPipeline(ctx.world, p, { ref, sha, userId: ctx.user!.id, variables });
    sendJson(ctx, 201, pipelineJson(ctx.world, pl, true));
  });
}
