import { basename, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import type { Context } from '../../context.js';
import { downloadArtifactFile, downloadRefArtifactFile, downloadRefArtifacts } from '../../api/job-artifacts.js';
import { downloadJobArtifacts, getJob } from '../../api/jobs.js';
import { UsageError } from '../../errors.js';
import { ApiError } from '../../http/api-error.js';
import type { ApiResponse, HttpClient } from '../../http/client.js';
import { defineCommand } from '../../cli/spec.js';
import { idDigits, PROJECT_ARGUMENT, projectRef, requiredText, requiredTextParser } from '../shared/args.js';
import { contentLength, downloadTo, transfer } from '../shared/download.js';
import { formatBytes } from '../shared/progress.js';

export const DEFAULT_ARTIFACTS_FILE = 'artifacts.zip';

interface ArtifactsOptions {
  out?: string;
  force?: boolean;
  ref?: string;
  job?: string;
  path?: string;
}

export const ARTIFACTS = defineCommand<ArtifactsOptions>({
  name: 'artifacts',
  description:
    "Download a job's artifact archive, or one file from inside it, to a file, atomically (never a half-written file under the final name)",
  args: [
    { name: 'project', help: PROJECT_ARGUMENT, parse: projectRef },
    { name: 'job-id', help: 'job id; or give --ref and --job', parse: (value) => idDigits('job id', value), optional: true },
  ],
  options: [
    {
      flags: '--ref <ref>',
      help: 'with --job: the branch or tag whose latest successful job is meant',
      parse: requiredTextParser('--ref'),
    },
    { flags: '--job <name>', help: 'with --ref: the name of the job (as in .gitlab-ci.yml)', parse: requiredTextParser('--job') },
    {
      flags: '--path <file>',
      help: 'download only this file from inside the archive (e.g. build/report.txt)',
      parse: archiveFile,
    },
    {
      flags: '--out <file>',
      help: `where to save it; - for stdout (default: ./${DEFAULT_ARTIFACTS_FILE}, or the file's name with --path)`,
    },
    { flags: '--force', help: 'replace the file if it exists' },
  ],
  notes: 'A CI job token (CI_JOB_TOKEN) is accepted, by job id and by ref alike.',
  examples: [
    'svc jobs artifacts acme/platform/api 1234 --out build.zip',
    'svc jobs artifacts acme/platform/api --ref main --job build --path build/report.txt --out -',
    'CI_JOB_TOKEN=... svc jobs artifacts $CI_PROJECT_ID 1234 --out - | bsdtar -tf -',
  ],
  run: (ctx, [project, jobId], opts) => run(ctx, artifactSource(project as string, jobId as string | undefined, opts), opts),
});

/** A file inside the archive, as its list names it: not a directory, and no empty, `.` or `..` name on the way. */
function archiveFile(value: string): string {
  const path = requiredText('--path', value);
  if (path.endsWith('/'))
    throw new UsageError(`--path ${path}: names a directory; give one file inside the archive, e.g. build/report.txt`);
  if (
    path
      .replace(/^\/+/, '')
      .split('/')
      .some((name) => name === '' || name === '.' || name === '..')
  ) {
    throw new UsageError(`--path ${path}: give the file's path inside the archive without empty, '.' or '..' parts, e.g. build/report.txt`);
  }
  return path;
}

/** Which artifacts are asked for: a job by id, or the latest successful job of a name on a ref; the archive or one file. */
interface ArtifactSource {
  download(http: HttpClient): Promise<ApiResponse<Readable>>;
  /** Why a 404 most likely came, asking the service where that tells more. */
  explain(http: HttpClient): Promise<string>;
  /** What -o prints once saved, beside the file and its size. */
  record: Record<string, unknown>;
}

function artifactSource(project: string, jobId: string | undefined, opts: ArtifactsOptions): ArtifactSource {
  const byRef = opts.ref !== undefined || opts.job !== undefined;
  if (jobId !== undefined && byRef) throw new UsageError('give a job id or --ref with --job, not both');
  const file = opts.path;
  const inFile = file === undefined ? '' : `, or no file ${file} in them`;
  if (jobId !== undefined) {
    return {
      download: (http) =>
        file === undefined ? downloadJobArtifacts(http, project, jobId) : downloadArtifactFile(http, project, jobId, file),
      explain: async (http) =>
        http.tokenType === 'job'
          ? `job ${jobId} has no artifacts${inFile}, or there is no such job`
          : whyNoArtifacts(http, project, jobId, file),
      record: { job_id: Number.isSafeInteger(Number(jobId)) ? Number(jobId) : jobId, ...(file === undefined ? {} : { path: file }) },
    };
  }
  if (opts.ref === undefined || opts.job === undefined) {
    throw new UsageError('give a job id, or --ref REF with --job NAME (the latest successful job of that name on a branch or tag)');
  }
  const { ref, job } = opts as { ref: string; job: string };
  return {
    download: (http) =>
      file === undefined ? downloadRefArtifacts(http, project, ref, job) : downloadRefArtifactFile(http, project, ref, job, file),
    explain: async () => `no successful job ${job} with artifacts on ${ref} (a branch or tag name, not a SHA)${inFile}`,
    record: { ref, job, ...(file === undefined ? {} : { path: file }) },
  };
}

async function run(ctx: Context, source: ArtifactSource, opts: ArtifactsOptions): Promise<void> {
  const what = opts.path === undefined ? 'artifacts' : basename(opts.path);
  if (opts.out === '-') {
    if (ctx.io.isTTY.stdout) {
      const bytes = opts.path === undefined ? 'a zip archive' : "the file's bytes";
      throw new UsageError(`--out -: refusing to write ${bytes} to a terminal; redirect stdout or give a file`);
    }
    const http = await ctx.http();
    const res = await explainNotFound(http, source, () => source.download(http));
    await transfer(ctx, res.data, contentLength(res.headers), what, ctx.stdout, false);
    return;
  }
  const target = resolve(opts.out ?? (opts.path === undefined ? DEFAULT_ARTIFACTS_FILE : basename(opts.path)));
  const replace = { force: Boolean(opts.force), flag: opts.out === undefined ? '' : '--out ' };
  const { size } = await downloadTo(ctx, target, replace, async () => {
    const http = await ctx.http();
    return explainNotFound(http, source, () => source.download(http));
  });
  ctx.info(`saved ${target} (${formatBytes(size)})`);
  // The file is the data: stdout stays empty unless -o asks for a record of what was saved.
  if (ctx.globals.output) await ctx.printRecord({ file: target, size, ...source.record }, ['file', 'size']);
}

/** The service answers a missing job, archive or file alike with a 404: the source says which is likely. */
async function explainNotFound<T>(http: HttpClient, source: ArtifactSource, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 404 || /project not found/i.test(error.message)) throw error;
    throw new ApiError(error.status, error.body, `${error.message} (${await source.explain(http)})`, error.exitCode);
  }
}

/**
 * Asking for the job itself tells a job that does not exist, one without artifacts, and a file
 * missing from artifacts that exist (`artifacts_file` is there only then); a job token may not ask.
 */
async function whyNoArtifacts(http: HttpClient, project: string, jobId: string, file: string | undefined): Promise<string> {
  try {
    const job = await getJob(http, project, jobId);
    if (file !== undefined && job.artifacts_file) return `job ${jobId} has artifacts, but no file ${file} in them`;
    return `job ${jobId} has no artifacts, or they expired`;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return `no job ${jobId} in this project`;
    throw error;
  }
}
