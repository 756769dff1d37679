// Downloads written atomically: a partial file beside the target, given the target's name only when complete.
import { unlinkSync } from 'node:fs';
import { link, lstat, open, readdir, rename, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Transform, type Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Context, Io } from '../../context.js';
import type { ApiResponse } from '../../http/client.js';
import { NetworkFailure } from '../../http/transport.js';
import { InterruptedError, SvcError, UsageError } from '../../errors.js';
import { describeFsError } from './local-file.js';
import { byteProgress, formatBytes } from './progress.js';
import { isProcessRunning } from '../../owner-file.js';

/** How a refusal to replace a file names the way out: `--out another file` unless the command has no --out. */
export interface Replace {
  force: boolean;
  flag: string;
  otherwise?: string;
}

const OTHERWISE = '--out another file';

export async function checkTarget(target: string, force: boolean, flag: string, otherwise = OTHERWISE): Promise<void> {
  // lstat: a symbolic link at the target, even a dangling one, is something that exists there.
  const existing = await lstat(target).catch(() => undefined);
  if (existing?.isDirectory()) throw new UsageError(`${flag}${target}: is a directory; give a file name`);
  if (existing && !force) throw new UsageError(`${flag}${target} already exists; pass --force to replace it or ${otherwise}`);
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
    // The reader of stdout went away (`| head -c`): what it took is all it wants.
    if ((error as NodeJS.ErrnoException).code === 'EPIPE') return bytes;
    throw new SvcError(`downloading ${label} failed after ${formatBytes(bytes)}: ${describeTransferError(error)}`);
  } finally {
    progress.done();
  }
  if (total !== undefined && bytes !== total) {
    throw new SvcError(`downloading ${label} ended after ${formatBytes(bytes)} of ${formatBytes(total)}`);
  }
  return bytes;
}

/** A failure of the connection says what happened to it (as the HTTP layer does); any other, what the file system said. */
function describeTransferError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  return code && /^(UND_ERR_|HPE_|ECONNRESET$)/.test(code) ? new NetworkFailure(code, error).message : describeFsError(error);
}

export function contentLength(headers: Record<string, string>): number | undefined {
  const value = headers['content-length'];
  return value && /^\d+$/.test(value) ? Number(value) : undefined;
}

/**
 * The file a download is written to before it takes the target's name: `.NAME.svc-PID-N.part`
 * beside it, so a run killed outright leaves one the next run for the same target recognises.
 * Whatever ends the run first (an error, Ctrl-C, or a second Ctrl-C that exits at once) removes it.
 * It takes the target's name only if nothing is there yet (a hard link, which fails on an existing
 * name), unless `--force` asked to replace what is there.
 */
export class PartialFile {
  private readonly forget: () => void;

  private constructor(
    readonly path: string,
    readonly target: string,
    private readonly replace: Replace,
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

  static async create(target: string, io: Io, replace: Replace): Promise<PartialFile> {
    await removeLeftovers(target);
    for (;;) {
      const path = join(dirname(target), `${partialPrefix(target)}${process.pid}-${++partialsOpened}.part`);
      try {
        return new PartialFile(path, target, replace, await open(path, 'wx', 0o644), io);
      } catch (error) {
        // Left by an earlier process that had this pid: the next number is free.
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
        throw new UsageError(`cannot write in ${dirname(target)}: ${describeFsError(error)}`);
      }
    }
  }

  stream(): Writable {
    return this.handle.createWriteStream();
  }

  async commit(): Promise<void> {
    try {
      if (this.replace.force) await rename(this.path, this.target);
      else await linkUnlessTaken(this.path, this.target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
        throw new UsageError(
          `${this.replace.flag}${this.target} appeared while downloading and was left as it is; pass --force to replace it or ${this.replace.otherwise ?? OTHERWISE}`,
        );
      }
      throw new SvcError(`cannot save ${this.target}: ${describeFsError(error)}`);
    }
  }

  async discard(): Promise<void> {
    this.forget();
    await this.handle.close().catch(() => undefined);
    // Once linked, the partial name is a second name of the target: removing it removes only that name.
    await unlink(this.path).catch(() => undefined);
  }
}

let partialsOpened = 0;

function partialPrefix(target: string): string {
  return `.${basename(target)}.svc-`;
}

/** Gives the complete file the target's name, failing with EEXIST if anything has that name. */
async function linkUnlessTaken(path: string, target: string): Promise<void> {
  try {
    await link(path, target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw error;
    // A file system without hard links (FAT, some network shares): claim the name by creating it
    // exclusively, then move the complete file over the empty one this run just created.
    await (await open(target, 'wx', 0o644)).close();
    await rename(path, target);
  }
}

/** Partial files of earlier runs for this target whose process is gone (killed outright). */
async function removeLeftovers(target: string): Promise<void> {
  const dir = dirname(target);
  const prefix = partialPrefix(target);
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    const pid = name.startsWith(prefix) ? /^(\d+)-\d+\.part$/.exec(name.slice(prefix.length))?.[1] : undefined;
    if (pid !== undefined && !isProcessRunning(Number(pid))) await unlink(join(dir, name)).catch(() => undefined);
  }
}

/**
 * Downloads to `target` atomically: the name holds nothing new unless the whole body arrived (as many
 * bytes as Content-Length says, when the service sends one). Returns the size and the answer's headers.
 */
export async function downloadTo(
  ctx: Context,
  target: string,
  replace: Replace,
  fetch: () => Promise<ApiResponse<Readable>>,
): Promise<{ size: number; headers: Record<string, string> }> {
  await checkTarget(target, replace.force, replace.flag, replace.otherwise);
  const partial = await PartialFile.create(target, ctx.io, replace);
  try {
    const res = await fetch();
    const size = await transfer(ctx, res.data, contentLength(res.headers), basename(target), partial.stream(), true);
    await partial.commit();
    return { size, headers: res.headers };
  } finally {
    await partial.discard();
  }
}
