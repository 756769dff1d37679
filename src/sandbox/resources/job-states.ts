// Where each job stands, and so each pipeline (reference endpoints §3, §4): a job of a created
// pipeline, or a retry, goes created → pending → running → success|failed at fixed steps; cancel
// stops the active ones (`canceled`); retry gives each failed or canceled job a new job (new id)
// and the old one is kept as retried. A pipeline's status is the composite of its latest jobs.
import type { JobRec, PipelineRec } from '../store/records.js';
import type { World } from '../store/world.js';
import { type BridgeRec, type JobTiming, pipelineBridges, pipelineById, pipelineStore, SEEDED_JOBS } from './pipeline-store.js';

/** The statuses of jobs and pipelines (reference endpoints §3). */
export const STATUSES = [
  'created',
  'waiting_for_resource',
  'preparing',
  'waiting_for_callback',
  'pending',
  'running',
  'success',
  'failed',
  'canceling',
  'canceled',
  'skipped',
  'manual',
  'scheduled',
] as const;

/** Each step of a created job takes this long, unless the pipeline's variables set the pending and running steps. */
export const JOB_STEP_MS = 100;

export function jobTiming(w: World, pipelineId: number): JobTiming {
  return pipelineStore(w).timing.get(pipelineId) ?? { queuedMs: JOB_STEP_MS, runningMs: JOB_STEP_MS };
}

/** A job's own timing where a scenario gave it one, else its pipeline's. */
export function timingOfJob(w: World, job: JobRec): JobTiming {
  return pipelineStore(w).scripts.get(job.id) ?? jobTiming(w, job.pipelineId);
}

/** When a job of the pipeline that started at `start` ends. */
export function jobEnd(w: World, pipelineId: number, start: number): number {
  const { queuedMs, runningMs } = jobTiming(w, pipelineId);
  return start + JOB_STEP_MS + queuedMs + runningMs;
}
const ACTIVE = ['running', 'pending', 'created'] as const;
const CANCELABLE = new Set<string>(ACTIVE);
const ACTIVE_PIPELINE = new Set<string>([...ACTIVE, 'canceling']);

export interface JobState {
  status: string;
  startedAt: number | null;
  finishedAt: number | null;
  updatedAt: number;
  /** Share of the running step done (0–1): how much of the log exists. */
  progress: number;
}

/** A job's run: when it was queued and how it ends; absent for the jobs of seeded pipelines. A skipped job (a scenario's job after a failed stage) is skipped at `start`. */
export interface JobRun {
  start: number;
  outcome: 'success' | 'failed' | 'skipped';
}

export function jobById(w: World, id: number): JobRec | null {
  if (!Number.isInteger(id) || id < 1) return null;
  const own = pipelineStore(w).jobs.get(id);
  if (own) return own;
  const pipelineId = Math.ceil(id / SEEDED_JOBS);
  const pl = pipelineById(w, pipelineId);
  if (!pl || pl.fixedStatus === null) return null;
  const build = id - (pipelineId - 1) * SEEDED_JOBS === 1;
  return { id, pipelineId, projectId: pl.projectId, name: build ? 'build' : 'test', stage: build ? 'build' : 'test', hasArtifacts: build };
}

function runOf(w: World, job: JobRec, pl: PipelineRec): JobRun | null {
  const retried = pipelineStore(w).runs.get(job.id);
  if (retried) return retried;
  if (pl.fixedStatus !== null || isManual(job)) return null;
  return { start: pl.createdAt, outcome: job.name === 'test' && pl.willFail ? 'failed' : 'success' };
}

/** A pipeline of a tag has a manual `deploy` job, which waits (and does not hold the pipeline) until played. */
export function isManual(job: JobRec): boolean {
  return job.name === 'deploy';
}

export function jobState(w: World, job: JobRec, now = w.now()): JobState {
  const pl = pipelineById(w, job.pipelineId)!;
  const run = runOf(w, job, pl);
  if (!run && isManual(job)) return { status: 'manual', startedAt: null, finishedAt: null, updatedAt: pl.createdAt, progress: 0 };
  if (!run) {
    const status = job.name === 'build' ? 'success' : (pl.fixedStatus as string);
    return { status, startedAt: pl.createdAt + 20_000, finishedAt: pl.createdAt + 320_000, updatedAt: pl.createdAt + 320_000, progress: 1 };
  }
  const canceledAt = pipelineStore(w).canceledAt.get(job.id);
  const at = canceledAt === undefined ? now : Math.min(now, canceledAt);
  if (run.outcome === 'skipped') {
    if (at >= run.start) return { status: 'skipped', startedAt: null, finishedAt: null, updatedAt: run.start, progress: 0 };
    if (canceledAt === undefined) return { status: 'created', startedAt: null, finishedAt: null, updatedAt: pl.createdAt, progress: 0 };
    return { status: 'canceled', startedAt: null, finishedAt: canceledAt, updatedAt: canceledAt, progress: 0 };
  }
  const s = JOB_STEP_MS;
  const { queuedMs, runningMs } = timingOfJob(w, job);
  const t = at - run.start;
  const runningFrom = run.start + s + queuedMs;
  const end = runningFrom + runningMs;
  let state: JobState;
  if (t < s) state = { status: 'created', startedAt: null, finishedAt: null, updatedAt: run.start, progress: 0 };
  else if (t < s + queuedMs) state = { status: 'pending', startedAt: null, finishedAt: null, updatedAt: run.start + s, progress: 0 };
  else if (at < end)
    state = {
      status: 'running',
      startedAt: runningFrom,
      finishedAt: null,
      updatedAt: runningFrom,
      progress: (at - runningFrom) / runningMs,
    };
  else return { status: run.outcome, startedAt: runningFrom, finishedAt: end, updatedAt: end, progress: 1 };
  if (canceledAt === undefined) return state;
  return { ...state, status: 'canceled', finishedAt: canceledAt, updatedAt: canceledAt };
}

/** The job that replaced this one by retries, or itself. */
export function latestJob(w: World, id: number): number {
  const retriedBy = pipelineStore(w).retriedBy;
  let current = id;
  for (let next = retriedBy.get(current); next !== undefined; next = retriedBy.get(current)) current = next;
  return current;
}

/** Every job of the pipeline, retried ones with `include retried`, in id order. */
export function pipelineJobs(w: World, pl: PipelineRec, includeRetried: boolean): JobRec[] {
  const ids = new Set<number>();
  for (const first of pl.jobIds) {
    if (includeRetried) for (let id: number | undefined = first; id !== undefined; id = pipelineStore(w).retriedBy.get(id)) ids.add(id);
    else ids.add(latestJob(w, first));
  }
  return [...ids].sort((a, b) => a - b).map((id) => jobById(w, id)!);
}

/**
 * A bridge waits for the jobs before it, runs while the pipeline it started runs, and ends as it
 * ends (strategy `depend`); one whose downstream project was not found fails when it starts.
 */
export function bridgeState(w: World, bridge: BridgeRec, now = w.now()): Omit<JobState, 'progress'> {
  const canceledAt = pipelineStore(w).canceledAt.get(bridge.id);
  if (canceledAt !== undefined && canceledAt < bridge.startsAt)
    return { status: 'canceled', startedAt: null, finishedAt: canceledAt, updatedAt: canceledAt };
  const created = pipelineById(w, bridge.pipelineId)!.createdAt;
  if (now < bridge.startsAt) return { status: 'created', startedAt: null, finishedAt: null, updatedAt: created };
  const downstream = bridge.downstreamId === null ? null : pipelineById(w, bridge.downstreamId);
  if (!downstream) return { status: 'failed', startedAt: bridge.startsAt, finishedAt: bridge.startsAt, updatedAt: bridge.startsAt };
  const st = pipelineState(w, downstream);
  const status = ACTIVE_PIPELINE.has(st.status) ? 'running' : st.status;
  return { status, startedAt: bridge.startsAt, finishedAt: st.finishedAt, updatedAt: Math.max(bridge.startsAt, st.updatedAt) };
}

export function pipelineState(w: World, pl: PipelineRec): Omit<JobState, 'progress'> {
  const bridges = pipelineBridges(w, pl).map((bridge) => bridgeState(w, bridge));
  const states = [...pipelineJobs(w, pl, false).map((job) => jobState(w, job)), ...bridges].filter((st) => st.status !== 'manual');
  const all = [...pipelineJobs(w, pl, true).map((job) => jobState(w, job)), ...bridges];
  const has = (status: string) => states.some((st) => st.status === status);
  const active = ACTIVE.find(has);
  const status = active ?? (has('failed') ? 'failed' : has('canceled') ? 'canceled' : 'success');
  const started = states.map((st) => st.startedAt).filter((t): t is number => t !== null);
  return {
    status,
    startedAt: started.length ? Math.min(...started) : null,
    finishedAt: active ? null : Math.max(...states.map((st) => st.finishedAt ?? 0)),
    updatedAt: Math.max(pl.createdAt, ...all.map((st) => st.updatedAt)),
  };
}

/** Cancels the pipeline's active jobs and bridges, and through them the pipelines they started. */
export function cancelPipeline(w: World, pl: PipelineRec): void {
  for (const job of pipelineJobs(w, pl, false)) cancelJob(w, job);
  const now = w.now();
  for (const bridge of pipelineBridges(w, pl)) {
    if (now < bridge.startsAt) pipelineStore(w).canceledAt.set(bridge.id, now);
    const downstream = bridge.downstreamId === null ? null : pipelineById(w, bridge.downstreamId);
    if (downstream) cancelPipeline(w, downstream);
  }
}

/** Cancels the job if it is still active; true if it was. */
export function cancelJob(w: World, job: JobRec): boolean {
  if (!CANCELABLE.has(jobState(w, job).status)) return false;
  pipelineStore(w).canceledAt.set(job.id, w.now());
  return true;
}

export function isRetryable(w: World, job: JobRec): boolean {
  return ['success', 'failed', 'canceled'].includes(jobState(w, job).status);
}

/** A played manual job is queued at once (pending) and succeeds. */
export function playJob(w: World, job: JobRec): void {
  pipelineStore(w).runs.set(job.id, { start: w.now() - JOB_STEP_MS, outcome: 'success' });
}

/** A new job in the old one's place; a test job of a pipeline meant to fail fails again. */
export function retryJob(w: World, job: JobRec): JobRec {
  const store = pipelineStore(w);
  const pl = pipelineById(w, job.pipelineId)!;
  const copy: JobRec = { ...job, id: store.nextJobId++ };
  store.jobs.set(copy.id, copy);
  const script = store.scripts.get(job.id);
  if (script) store.scripts.set(copy.id, script);
  const scripted = script ? store.runs.get(job.id)?.outcome : undefined;
  const outcome = scripted === 'failed' || (job.name === 'test' && pl.willFail) ? 'failed' : 'success';
  store.runs.set(copy.id, { start: w.now() - (isManual(job) ? JOB_STEP_MS : 0), outcome });
  store.retriedBy.set(latestJob(w, job.id), copy.id);
  return copy;
}
