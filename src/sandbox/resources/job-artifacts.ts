// Job artifacts beyond the archive by job id (reference endpoints §4, ART):
// the archive of the latest successful job of a name on a ref
// (`…/jobs/artifacts/:ref_name/download?job=`, 302 to object storage), and one
// file from inside an archive, by job id (`…/jobs/:job_id/artifacts/*path`) or
// by ref and job name (`…/jobs/artifacts/:ref_name/raw/*path?job=`). Job
// tokens are accepted on all of them.
import type { Ctx } from '../server/context.js';
import { ApiError, E } from '../server/errors.js';
import { intSeg, strParam } from '../server/params.js';
import { sendText } from '../server/respond.js';
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

export function mountJobArtifacts({ project }: Mounts): void {
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
