import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { ExitCode, InterruptedError, SvcError } from '../errors.js';
import { createOwnerFile, isProcessRunning, readOwnerFile, removeOwnerFile, takeOverOwnerFile } from '../owner-file.js';

/** How long a writer waits for another one (an OAuth refresh holds the lock for one request). */
const WAIT_MS = 60_000;
/** A holder on another host cannot be asked whether it still runs: its lock expires instead. */
const FOREIGN_STALE_MS = 5 * 60_000;
/** A lock file that has no owner line yet is being created, unless it stays empty this long. */
const EMPTY_STALE_MS = 5_000;

export interface LockOptions {
  signal?: AbortSignal;
  /** The one line shown when a write cannot even create the lock file (a read-only directory). */
  describeFailure: (code: string) => SvcError;
  /** Told once, with the holder's owner line, when the lock is held and must be waited for. */
  onWait?: (holder: string) => void;
}

/**
 * Runs `work` while holding `lockPath`, a file created exclusively (O_EXCL never follows a
 * symlink) that names its owner as `pid host nonce`. A lock left by a process that died on this
 * host is taken over; the others are waited for.
 */
export async function withFileLock<T>(lockPath: string, options: LockOptions, work: () => Promise<T>): Promise<T> {
  const owner = `${process.pid} ${hostname()} ${randomUUID()}\n`;
  await acquire(lockPath, owner, options);
  try {
    return await work();
  } finally {
    if (readOwner(lockPath) === owner) removeOwnerFile(lockPath);
  }
}

async function acquire(lockPath: string, owner: string, options: LockOptions): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  let told = false;
  for (let delay = 5; ; delay = Math.min(delay * 2, 250)) {
    if (createOwnerFile(lockPath, owner, options.describeFailure)) return;
    const holder = readOwner(lockPath);
    if (holder !== undefined && isStale(lockPath, holder)) {
      takeOverOwnerFile(lockPath, holder, () => notRegular(lockPath));
      continue;
    }
    if (holder !== undefined && !told) {
      told = true;
      options.onWait?.(holder);
    }
    if (Date.now() > deadline) {
      const pid = holder?.split(' ')[0];
      throw new SvcError(
        `the config file is locked by another svc process${pid ? ` (pid ${pid})` : ''}; try again, or delete ${lockPath} if none is running`,
        ExitCode.failure,
      );
    }
    try {
      await sleep(delay + Math.floor(Math.random() * delay), undefined, { signal: options.signal });
    } catch {
      throw new InterruptedError();
    }
  }
}

function isStale(lockPath: string, holder: string): boolean {
  const [pid, host] = holder.split(' ');
  if (host === hostname() && pid && /^\d+$/.test(pid)) return !isProcessRunning(Number(pid));
  const age = Date.now() - (modifiedAt(lockPath) ?? Date.now());
  return age > (holder === '' ? EMPTY_STALE_MS : FOREIGN_STALE_MS);
}

function modifiedAt(path: string): number | undefined {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

/** The lock's owner line; a lock that is no regular file (a FIFO would block the read and Ctrl-C with it) is refused. */
function readOwner(lockPath: string): string | undefined {
  return readOwnerFile(lockPath, () => notRegular(lockPath));
}

function notRegular(lockPath: string): SvcError {
  return new SvcError(`refusing the lock file ${lockPath}: it is not a regular file (remove it)`, ExitCode.usage);
}
