import { randomBytes } from 'node:crypto';
import { unlinkSync } from 'node:fs';
import { lstat, open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { Transform, type Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Context, Io } from '../../context.js';
import { downloadJobArtifacts, getJob } from '../../api/jobs.js';
import { InterruptedError, SvcError, UsageError } from '../../errors.js';
import { ApiError } from '../../http/api-error.js';
import type { HttpClient } from '../../http/client.js';
import { defineCommand } from '../../cli/spec.js';
import { idDigits, PROJECT_ARGUMENT, projectRef } from '../shared/args.js';
import { describeFsError } from '../shared/local-file.js';
import { byteProgress, formatBytes } from '../shared/progress.js';

export const DEFAULT_ARTIFACTS_FILE = 'artifacts.zip';

interface ArtifactsOptions {
  out?: string;
  force?: boolean;
}

export const ARTIFACTS = defineCommand<ArtifactsOptions>({
  name: 'artifacts',
  description: "Download a job's artifact archive to a file, atomically (never a half-written file under the final name)",
  args: [
    { name: 'project', help: PROJECT_ARGUMENT, parse: projectRef },
    { name: 'job-id', help: 'job id', parse: (value) => idDigits('job id', value) },
  ],
  options: [
    { flags: '--out <file>', help: `where to save the archive; - for stdout (default: ./${DEFAULT_ARTIFACTS_FILE})` },
    { flags: '--force', help: 'replace the file if it exists' },
  ],
  examples: [
    'svc jobs artifacts acme/platform/api 1234 --out build.zip',
    'CI_JOB_TOKEN=... svc jobs artifacts $CI_PROJECT_ID 1234 --out - | bsdtar -tf -',
  ],
  run: (ctx, [project, jobId], opts) => run(ctx, project as string, jobId as string, opts),
});

async function run(ctx: Context, project: string, jobId: string, opts: ArtifactsOptions): Promise<void> {
  if (opts.out === '-') {
    if (ctx.io.isTTY.stdout) throw new UsageError('--out -: refusing to write a zip archive to a terminal; redirect stdout or give a file');
    const http = await ctx.http();
    const res = await explainNotFound(http, project, jobId, () => downloadJobArtifacts(http, project, jobId));
    await transfer(ctx, res.data, contentLength(res.headers), 'artifacts', ctx.stdout, false);
    return;
  }
  const target = resolve(opts.out ?? DEFAULT_ARTIFACTS_FILE);
  await checkTarget(target, Boolean(opts.force), opts.out === undefined ? '' : '--out ');
  const partial = await PartialFile.create(target, ctx.io);
  try {
    const http = await ctx.http();
    const res = await explainNotFound(http, project, jobId, () => downloadJobArtifacts(http, project, jobId));
    const size = await transfer(ctx, res.data, contentLength(res.headers), basename(target), partial.stream(), true);
    await partial.commit();
    ctx.info(`saved ${target} (${formatBytes(size)})`);
    await ctx.printRecord({ file: target, size, job_id: Number.isSafeInteger(Number(jobId)) ? Number(jobId) : jobId }, ['file', 'size']);
  } finally {
    await partial.discard();
  }
}

/**
 * The service answers both a job without artifacts and a job that does not exist with a 404:
 * asking for the job itself tells which (a job token may not ask, so it is told both).
 */
async function explainNotFound<T>(http: HttpClient, project: string, jobId: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 404 || /project not found/i.test(error.message)) throw error;
    const hint =
      http.tokenType === 'job' ? `job ${jobId} has no artifacts, or there is no such job` : await whyNoArtifacts(http, project, jobId);
    throw new ApiError(error.status, error.body, `${error.message} (${hint})`, error.exitCode);
  }
}

async function whyNoArtifacts(http: HttpClient, project: string, jobId: string): Promise<string> {
  try {
    await getJob(http, project, jobId);
    return `job ${jobId} has no artifacts, or they expired`;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return `no job ${jobId} in this project`;
    throw error;
  }
}

export async function checkTarget(target: string, force: boolean, flag: string): Promise<void> {
  // lstat: a symbolic link at the target, even a dangling one, is something that exists there.
  const existing = await lstat(target).catch(() => undefined);
  if (existing?.isDirectory()) throw new UsageError(`${flag}${target}: is a directory; give a file name`);
  if (existing && !force) throw new UsageError(`${flag}${target} already exists; pass --force to replace it or --out another file`);
}

/** Streams the body to its destination with a progress bar on a terminal; returns the bytes written. */
export async function transfer(
  ctx: Context,
  body: Readable,
  total: number | undefined,
  label: string,
  destination: Writable,
  end: boolean,
): Promise<number> {
  const progress = byteProgress(ctx, `downloading ${label}`, total);
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      progress.add(chunk.length);
      callback(null, chunk);
    },
  });
  try {
    await pipeline(body, counter, destination, { signal: ctx.signal, end });
  } catch (error) {
    if (ctx.signal.aborted) throw new InterruptedError('interrupted; the download was abandoned');
    throw new SvcError(`downloading ${label} failed after ${formatBytes(bytes)}: ${describeFsError(error)}`);
  } finally {
    progress.done();
  }
  if (total !== undefined && bytes !== total) {
    throw new SvcError(`downloading ${label} ended after ${formatBytes(bytes)} of ${formatBytes(total)}`);
  }
  return bytes;
}

export function contentLength(headers: Record<string, string>): number | undefined {
  const value = headers['content-length'];
  return value && /^\d+$/.test(value) ? Number(value) : undefined;
}

/**
 * A temporary file beside the target, renamed over it only when complete. Whatever ends the run
 * first (an error, Ctrl-C, or a second Ctrl-C that exits at once) removes it.
 */
export class PartialFile {
  private committed = false;
  private readonly forget: () => void;

  private constructor(
    readonly path: string,
    readonly target: string,
    private readonly handle: FileHandle,
    io: Io,
  ) {
    this.forget =
      io.onForcedExit?.(() => {
        try {
          unlinkSync(this.path);
        } catch {
          // already gone
        }
      }) ?? (() => undefined);
  }

  static async create(target: string, io: Io): Promise<PartialFile> {
    const path = join(dirname(target), `.${basename(target)}.${randomBytes(4).toString('hex')}.part`);
    try {
      return new PartialFile(path, target, await open(path, 'wx', 0o644), io);
    } catch (error) {
      throw new UsageError(`cannot write in ${dirname(target)}: ${describeFsError(error)}`);
    }
  }

  stream(): Writable {
    return this.handle.createWriteStream();
  }

  async commit(): Promise<void> {
    await rename(this.path, this.target);
    this.committed = true;
  }

  async discard(): Promise<void> {
    this.forget();
    await this.handle.close().catch(() => undefined);
    if (!this.committed) await unlink(this.path).catch(() => undefined);
  }
}
