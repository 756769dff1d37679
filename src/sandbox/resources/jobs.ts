// Jobs: project and pipeline job lists (`scope[]`, `include_retried`), one
// job, its log, cancel and retry, its artifacts (302 to the object listener), and
// `GET /job` for job tokens (reference endpoints §4). Every pipeline has `build`
// (artifacts) and `test`.
import type { Ctx } from '../server/context.js';
import { E } from '../server/errors.js';
import { offsetPage, pageOf } from '../server/paging.js';
import { boolParam, intSeg, listParam } from '../server/params.js';
import { sendJson, sendList, sendText } from '../server/respond.js';
import type { JobRec, ProjectRec } from '../store/records.js';
import type { World } from '../store/world.js';
import { iso } from '../util/time.js';
import { commitJson } from '../entities/commit.js';
import { requireAbility } from './guards.js';
import type { Mounts } from './mounts.js';
import { artifactSize } from './artifact-archive.js';
import { jobLog } from './job-logs.js';
import { cancelJob, isRetryable, jobById, jobState, pipelineJobs, playJob, retryJob } from './job-states.js';
import { pipelineById, pipelineStore } from './pipeline-store.js';
import { STATUSES } from './job-states.js';
import { ask, offer } from '../engine/ports.js';
import { userBasic } from '../entities/user.js';

// Kept for the resources of branches in flight that import it from here.
export { artifactArchive } from './artifact-archive.js';

function jobJson(w: World, job: JobRec): Record<string, unknown> {
  const pl = pipelineById(w, job.pipelineId)!;
  const p = w.projects.get(job.projectId)!;
  const st = jobState(w, job);
  const status = st.status;
  const commit = w.repos.findCommit(job.projectId, pl.sha);
  const finished = st.finishedAt !== null;
  const size = artifactSize(job.id);
  const archive = job.hasArtifacts && status === 'success';
  return {
    id: job.id,
    status,
    stage: job.stage,
    name: job.name,
    ref: pl.ref,
    tag: false,
    coverage: null,
    allow_failure: false,
    created_at: iso(pipelineStore(w).runs.get(job.id)?.start ?? pl.createdAt),
    started_at: st.startedAt ? iso(st.startedAt) : null,
    finished_at: finished && st.finishedAt ? iso(st.finishedAt) : null,
    erased_at: job.erasedAt === undefined ? null : iso(job.erasedAt),
    duration: finished && st.startedAt && st.finishedAt ? (st.finishedAt - st.startedAt) / 1000 : null,
    queued_duration: st.startedAt ? (st.startedAt - (pipelineStore(w).runs.get(job.id)?.start ?? pl.createdAt)) / 1000 : null,
    user: userBasic(w, w.users.get(pl.userId) ?? w.users.get(1)!),
    commit: commit ? commitJson(w, p, commit) : null,
    pipeline: ask('pipelineJson')(w, pl, false),
    failure_reason: status === 'failed' ? 'script_failure' : undefined,
    web_url: `${w.base()}/${p.fullPath}/-/jobs/${job.id}`,
    project: { ci_job_token_scope_enabled: false },
    artifacts: archive ? [{ file_type: 'archive', size, filename: 'artifacts.zip', file_format: 'zip' }] : [],
    artifacts_file: archive ? { filename: 'artifacts.zip', size } : undefined,
    runner: null,
    artifacts_expire_at: null,
    archived: false,
    tag_list: [],
  };
}

/** `scope` / `scope[]`: job statuses. */
function scopeFilter(ctx: Ctx): (job: JobRec) => boolean {
  const scopes = listParam(ctx, 'scope');
  if (!scopes) return () => true;
  if (scopes.some((s) => !(STATUSES as readonly string[]).includes(s))) throw E.notValid('scope');
  return (job) => scopes.includes(jobState(ctx.world, job).status);
}

/** `job_variables_attributes`: an array of `{key, value}`, both required. */
function checkJobVariables(raw: unknown): void {
  if (raw === undefined || raw === null || raw === '') return;
  const list = Array.isArray(raw) ? raw : typeof raw === 'object' ? Object.values(raw as object) : null;
  if (!list) throw E.invalid('job_variables_attributes');
  list.forEach((v, i) => {
    const o = (v && typeof v === 'object' ? v : {}) as Record<string, unknown>;
    const missing = ['key', 'value'].filter((k) => o[k] === undefined || o[k] === null);
    if (missing.length) throw E.missing(...missing.map((k) => `job_variables_attributes[${i}][${k}]`));
  });
}

function findJob(ctx: Ctx, p: ProjectRec): JobRec {
  const job = jobById(ctx.world, intSeg(ctx, 'job_id'));
  if (!job || job.projectId !== p.id) throw E.findNotFound();
  return job;
}

export function mountJobs({ root, project }: Mounts): void {
  offer('jobJson', (w, id) => {
    const job = jobById(w, id);
    return job ? jobJson(w, job) : null;
  });
  project.get('/jobs', { auth: 'user' }, (ctx, p) => {
    requireAbility(ctx, p, 'read_build');
    const w = ctx.world;
    const keep = scopeFilter(ctx);
    const retried = boolParam(ctx, 'include_retried') ?? false;
    const now = w.now();
    // A downstream pipeline exists before its bridge starts it; its jobs do not show until then.
    const jobs = pipelineStore(w)
      .pipelines.list(p.id)
      .filter((pl) => pl.createdAt <= now)
      .flatMap((pl) => pipelineJobs(w, pl, retried))
      .filter(keep)
      .sort((a, b) => b.id - a.id);
    // The project job list is paginated without counting (reference endpoints §4).
    sendList(
      ctx,
      offsetPage(ctx, jobs.length, (off, lim) => jobs.slice(off, off + lim), { uncounted: true }).map((j) => jobJson(w, j)),
    );
  });
  project.get('/pipelines/:pipeline_id/jobs', { auth: 'public', job: true }, (ctx, p) => {
    requireAbility(ctx, p, 'read_build');
    const keep = scopeFilter(ctx);
    const retried = boolParam(ctx, 'include_retried') ?? false;
    const jobs = pipelineJobs(ctx.world, ask('findPipeline')(ctx, p), retried).filter(keep);
    sendList(
      ctx,
      pageOf(ctx, jobs).map((j) => jobJson(ctx.world, j)),
    );
  });
  project.get('/jobs/:job_id', { auth: 'user' }, (ctx, p) => {
    requireAbility(ctx, p, 'read_build');
    sendJson(ctx, 200, jobJson(ctx.world, findJob(ctx, p)));
  });
  project.get('/jobs/:job_id/artifacts', { auth: 'public', job: true }, (ctx, p) => {
    requireAbility(ctx, p, 'read_build');
    const job = findJob(ctx, p);
    if (!job.hasArtifacts || jobState(ctx.world, job).status !== 'success') throw E.notFound();
    const location = ctx.core.signObjectUrl(p.id, job.id);
    sendText(ctx, 302, `This resource has been moved temporarily to ${location}.`, 'text/plain', { Location: location });
  });
  project.get('/jobs/:job_id/trace', { auth: 'public' }, (ctx, p) => {
    requireAbility(ctx, p, 'read_build');
    const job = findJob(ctx, p);
    const log = job.erasedAt === undefined ? jobLog(ctx.world, job, jobState(ctx.world, job)) : '';
    sendText(ctx, 200, log, 'text/plain', { 'Content-Disposition': `infile; filename="${job.id}.log"` });
  });
  project.post('/jobs/:job_id/cancel', { auth: 'user' }, (ctx, p) => {
    requireAbility(ctx, p, 'update_pipeline');
    const job = findJob(ctx, p);
    cancelJob(ctx.world, job);
    sendJson(ctx, 201, jobJson(ctx.world, job));
  });
  project.post('/jobs/:job_id/retry', { auth: 'user' }, (ctx, p) => {
    requireAbility(ctx, p, 'update_pipeline');
    const job = findJob(ctx, p);
    if (!isRetryable(ctx.world, job)) throw E.forbidden('Job is not retryable');
    sendJson(ctx, 201, jobJson(ctx.world, retryJob(ctx.world, job)));
  });
  project.post('/jobs/:job_id/play', { auth: 'user' }, (ctx, p) => {
    requireAbility(ctx, p, 'update_pipeline');
    const job = findJob(ctx, p);
    checkJobVariables(ctx.params.job_variables_attributes);
    if (jobState(ctx.world, job).status !== 'manual') throw E.badRequest('400 Bad request - Unplayable Job');
    playJob(ctx.world, job);
    sendJson(ctx, 200, jobJson(ctx.world, job));
  });
  root.get('/job', { auth: 'user', job: true }, (ctx) => {
    if (ctx.token?.kind !== 'job') throw E.notFound('Job');
    const job = jobById(ctx.world, ctx.token.jobId!);
    if (!job) throw E.unauthorized();
    sendJson(ctx, 200, jobJson(ctx.world, job));
  });
}
