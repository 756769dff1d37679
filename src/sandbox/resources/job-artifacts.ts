// Job artifacts beyond the archive by job id (reference endpoints §4, ART):
// the archive of the latest successful job of a name on a ref
// (`…/jobs/artifacts/:ref_name/download?job=`, 302 to object storage), and one
// file from inside an archive, by job id (`…/jobs/:job_id/artifacts/*path`) or
// by ref and job name (`…/jobs/artifacts/:ref_name/raw/*path?job=`). Job
// tokens are accepted on all of them. Also keeping, deleting and erasing.
import type { Ctx } from '../server/context.js';
import { ApiError, E } from '../server/errors.js';
import { intSeg, strParam } from '../server/params.js';
import { sendJson, sendText } from '../server/respond.js';
import { ask } from '../engine/ports.js';
import type { JobRec, ProjectRec } from '../store/records.js';
import type { World } from '../store/world.js';
import { sha1 } from '../util/digest.js';
import { requireAbility } from './guards.js';
import { jobState, pipelineJobs } from './job-states.js';
import { artifactArchive } from './artifact-archive.js';
import { jobById } from './job-states.js';
import type { Mounts } from './mounts.js';
import { pipelineStore } from './pipeline-store.js';

/** The router matches whole segments, so the `*artifact_path` splat is mounted once per depth up to this. */
const MAX_ARTIFACT_DEPTH = 32;

/** The files of a stored (uncompressed) zip, by name, read from its local headers. */
export function zipEntries(zip: Buffer): Map<string, Buffer> {
  const entries = new Map<string, Buffer>();
  let at = 0;
  while (at + 30 <= zip.length && zip.readUInt32LE(at) === 0x04034b50) {
    const size = zip.readUInt32LE(at + 18);
    const nameLength = zip.readUInt16LE(at + 26);
    const start = at + 30 + nameLength + zip.readUInt16LE(at + 28);
    entries.set(zip.toString('utf8', at + 30, at + 30 + nameLength), zip.subarray(start, start + size));
    at = start + size;
  }
  return entries;
}

/** `Project#latest_successful_build_for_ref!`: newest pipeline of the ref first; none → RecordNotFound. */
function latestSuccessfulJob(w: World, p: ProjectRec, ref: string, name: string): JobRec {
  const pipelines = pipelineStore(w)
    .pipelines.list(p.id)
    .filter((pl) => pl.ref === ref)
    .sort((a, b) => b.id - a.id);
  for (const pl of pipelines) {
    const job = pipelineJobs(w, pl, false).find((j) => j.name === name && jobState(w, j).status === 'success');
    if (job) return job;
  }
  throw E.findNotFound();
}

function jobOfRef(ctx: Ctx, p: ProjectRec): JobRec {
  const name = strParam(ctx, 'job');
  if (name === undefined) throw E.missing('job');
  return latestSuccessfulJob(ctx.world, p, ctx.p.ref_name!, name);
}

function jobOfId(ctx: Ctx, p: ProjectRec): JobRec {
  const job = jobById(ctx.world, intSeg(ctx, 'job_id'));
  if (!job || job.projectId !== p.id) throw E.findNotFound();
  return job;
}

function requireArchive(ctx: Ctx, job: JobRec): void {
  if (!job.hasArtifacts || jobState(ctx.world, job).status !== 'success') throw E.notFound();
}

/** The artifact path: the last `depth` segments of the raw path, decoded; `..` or NUL → 400 (`Artifacts::Path#valid?`). */
function artifactPath(ctx: Ctx, depth: number): string {
  let path: string;
  try {
    path = ctx.rawPath.split('/').slice(-depth).map(decodeURIComponent).join('/');
  } catch {
    throw new ApiError(400, { message: '400 Bad request' });
  }
  if (path.includes('\0') || path.split('/').includes('..')) throw new ApiError(400, { message: '400 Bad request' });
  return path;
}

function sendEntry(ctx: Ctx, job: JobRec, path: string): void {
  requireArchive(ctx, job);
  const content = zipEntries(artifactArchive(ctx.world, job.id)).get(path);
  if (!content) throw E.notFound();
  const name = path.split('/').pop()!;
  const type = name.endsWith('.txt') ? 'text/plain; charset=utf-8' : 'application/octet-stream';
  sendText(ctx, 200, content, type, { 'Content-Disposition': `attachment; filename="${name}"`, ETag: `"${sha1(content)}"` });
}

/** A changed job is kept in the store, so a seeded one (derived on demand) keeps the change. */
function saveJob(w: World, job: JobRec): void {
  pipelineStore(w).jobs.set(job.id, job);
}

const FINISHED = new Set(['success', 'failed', 'canceled', 'skipped']);

/**
 * Keep, delete and erase (reference endpoints §4, lib/api/ci/job_artifacts.rb and jobs.rb): keep answers
 * 200 with the Job (artifacts never expire here), deleting one job's artifacts 204 and a project's `202
 * Accepted`, erasing a finished job 201 with the Job, its artifacts and log gone (README, "Job artifacts").
 */
function mountArtifactWrites(project: Mounts['project']): void {
  const write = { auth: 'user', job: true } as const;
  project.post('/jobs/:job_id/artifacts/keep', write, (ctx, p) => {
    requireAbility(ctx, p, 'update_pipeline');
    const job = jobOfId(ctx, p);
    if (!job.hasArtifacts) throw E.notFound();
    sendJson(ctx, 200, ask('jobJson')(ctx.world, job.id));
  });
  project.delete('/jobs/:job_id/artifacts', write, (ctx, p) => {
    requireAbility(ctx, p, 'admin_project');
    const job = jobOfId(ctx, p);
    saveJob(ctx.world, { ...job, hasArtifacts: false });
    sendJson(ctx, 204, null);
  });
  project.delete('/artifacts', write, (ctx, p) => {
    requireAbility(ctx, p, 'admin_project');
    const w = ctx.world;
    for (const pl of pipelineStore(w).pipelines.list(p.id)) {
      for (const job of pipelineJobs(w, pl, true)) if (job.hasArtifacts) saveJob(w, { ...job, hasArtifacts: false });
    }
    sendJson(ctx, 202, { message: '202 Accepted' });
  });
  project.post('/jobs/:job_id/erase', { auth: 'user' }, (ctx, p) => {
    const job = jobOfId(ctx, p);
    // `erase_build`: a developer erases the jobs of their own pipelines, a maintainer anyone's.
    const own =
      pipelineStore(ctx.world)
        .pipelines.list(p.id)
        .find((pl) => pl.id === job.pipelineId)?.userId === ctx.user!.id;
    requireAbility(ctx, p, own ? 'update_pipeline' : 'admin_project');
    if (!FINISHED.has(jobState(ctx.world, job).status) || job.erasedAt !== undefined) throw E.forbidden('Job is not erasable!');
    saveJob(ctx.world, { ...job, hasArtifacts: false, erasedAt: ctx.world.now() });
    sendJson(ctx, 201, ask('jobJson')(ctx.world, job.id));
  });
}

export function mountJobArtifacts({ project }: Mounts): void {
  mountArtifactWrites(project);
  const read = { auth: 'public', job: true } as const;
  project.get('/jobs/artifacts/:ref_name/download', read, (ctx, p) => {
    requireAbility(ctx, p, 'read_build');
    const job = jobOfRef(ctx, p);
    requireArchive(ctx, job);
    const location = ctx.core.signObjectUrl(p.id, job.id);
    sendText(ctx, 302, `This resource has been moved temporarily to ${location}.`, 'text/plain', { Location: location });
  });
  for (let depth = 1; depth <= MAX_ARTIFACT_DEPTH; depth++) {
    const splat = Array.from({ length: depth }, (_, i) => `/:${String.fromCharCode(97 + i)}`).join('');
    project.get(`/jobs/:job_id/artifacts${splat}`, read, (ctx, p) => {
      requireAbility(ctx, p, 'read_build');
      sendEntry(ctx, jobOfId(ctx, p), artifactPath(ctx, depth));
    });
    project.get(`/jobs/artifacts/:ref_name/raw${splat}`, read, (ctx, p) => {
      requireAbility(ctx, p, 'read_build');
      sendEntry(ctx, jobOfRef(ctx, p), artifactPath(ctx, depth));
    });
  }
}
