import { closeSync, constants, createReadStream, openSync } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { InterruptedError, UsageError } from '../../errors.js';

export interface LocalFile {
  path: string;
  size: number;
}

/** A regular, readable file, checked before any request so a typo costs nothing on the server. */
export async function readableFile(flag: string, path: string): Promise<LocalFile> {
  let size: number;
  try {
    const info = await stat(path);
    if (info.isDirectory()) throw new UsageError(`${flag} ${path}: is a directory, not a file`);
    if (!info.isFile()) throw new UsageError(`${flag} ${path}: not a regular file`);
    size = info.size;
    await access(path, constants.R_OK);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${flag} ${path}: ${describeFsError(error)}`);
  }
  return { path, size };
}

/** What svc reads of one local file into memory (variables, snippet content, request bodies). */
export const MAX_LOCAL_FILE_BYTES = 64 * 1024 * 1024;

/**
 * A whole local file, read in chunks up to a cap: a regular file, or a pipe or device (`/dev/stdin`,
 * a FIFO), which can be endless (`/dev/zero`) or wait for a writer, so Ctrl-C ends the wait.
 */
export async function readLocalFile(flag: string, path: string, signal?: AbortSignal): Promise<Buffer> {
  const tooBig = () => new UsageError(`${flag} ${path}: larger than the ${MAX_LOCAL_FILE_BYTES / 1024 / 1024} MiB svc reads from a file`);
  try {
    const info = await stat(path);
    if (info.isDirectory()) throw new UsageError(`${flag} ${path}: is a directory, not a file`);
    if (info.isFile() && info.size > MAX_LOCAL_FILE_BYTES) throw tooBig();
    const stream = createReadStream(path);
    const read = (async () => {
      const chunks: Buffer[] = [];
      let total = 0;
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        total += chunk.length;
        if (total > MAX_LOCAL_FILE_BYTES) throw tooBig();
        chunks.push(chunk);
      }
      return Buffer.concat(chunks);
    })();
    // Opening a FIFO blocks until a writer comes, and an open in progress cannot be aborted:
    // on Ctrl-C, svc opens it for writing itself, so the waiting open ends and the process can exit.
    const release = info.isFIFO() ? () => unblockFifo(path) : () => undefined;
    return await Promise.race([read, aborted(signal, release)]).finally(() => stream.destroy());
  } catch (error) {
    if (signal?.aborted) throw new InterruptedError(`interrupted while reading ${path}`);
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${flag} ${path}: ${describeFsError(error)}`);
  }
}

function aborted(signal: AbortSignal | undefined, onAbort: () => void): Promise<never> {
  return new Promise((_resolve, reject) => {
    const stop = () => {
      onAbort();
      reject(signal?.reason);
    };
    if (signal?.aborted) stop();
    signal?.addEventListener('abort', stop, { once: true });
  });
}

function unblockFifo(path: string): void {
  try {
    closeSync(openSync(path, constants.O_WRONLY | constants.O_NONBLOCK));
  } catch {
    // nobody was waiting on it after all
  }
}

/** The whole file as UTF-8 text (pipeline variables, snippet content, a refresh token). */
export async function readTextFile(flag: string, path: string, signal?: AbortSignal): Promise<string> {
  return (await readLocalFile(flag, path, signal)).toString('utf8');
}

export function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException)?.code;
  const known: Record<string, string> = {
    ENOENT: 'no such file',
    EACCES: 'permission denied',
    EPERM: 'permission denied',
    EISDIR: 'is a directory',
    ENOTDIR: 'a parent of it is not a directory',
    ENOSPC: 'no space left on the device',
    EROFS: 'read-only file system',
    EEXIST: 'already exists',
  };
  if (code && known[code]) return known[code];
  return code ?? (error instanceof Error ? error.message : String(error));
}
