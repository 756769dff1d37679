// Downloads written atomically: a temporary file beside the target, renamed over it only when complete.
import { randomBytes } from 'node:crypto';
import { unlinkSync } from 'node:fs';
import { lstat, open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Transform, type Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Context, Io } from '../../context.js';
import { InterruptedError, SvcError, UsageError } from '../../errors.js';
import { describeFsError } from './local-file.js';
import { byteProgress, formatBytes } from './progress.js';

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
    // The reader of stdout went away (`| head -c`): what it took is all it wants.
    if ((error as NodeJS.ErrnoException).code === 'EPIPE') return bytes;
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
