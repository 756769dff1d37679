import { randomUUID } from 'node:crypto';
import { closeSync, constants, fstatSync, linkSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { ExitCode, InterruptedError, SvcError } from '../errors.js';

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
    if (readOwner(lockPath) === owner) unlinkSync(lockPath);
  }
}

async function acquire(lockPath: string, owner: string, options: LockOptions): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  for (let delay = 5; ; delay = Math.min(delay * 2, 250)) {
    if (tryCreate(lockPath, owner, options)) return;
    const holder = readOwner(lockPath);
    if (holder !== undefined && isStale(lockPath, holder)) {
      takeOver(lockPath, holder);
      continue;
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

function tryCreate(lockPath: string, owner: string, options: LockOptions): boolean {
  let fd: number;
  try {
    fd = openSync(lockPath, 'wx', 0o600);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'EIO';
    if (code === 'EEXIST') return false;
    throw options.describeFailure(code);
  }
  try {
    writeSync(fd, owner);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** The lock's owner line; a lock that is no regular file (a FIFO would block the read and Ctrl-C with it) is refused. */
function readOwner(lockPath: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(lockPath, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    if (!fstatSync(fd).isFile()) {
      throw new SvcError(`refusing the lock file ${lockPath}: it is not a regular file (remove it)`, ExitCode.usage);
    }
    return readFileSync(fd, 'utf8');
  } catch (error) {
    if (error instanceof SvcError) throw error;
    return undefined;
  } finally {
    closeSync(fd);
  }
}

function isStale(lockPath: string, holder: string): boolean {
  const [pid, host] = holder.split(' ');
  if (host === hostname() && pid && /^\d+$/.test(pid)) return !isRunning(Number(pid));
  const age = Date.now() - (modifiedAt(lockPath) ?? Date.now());
  return age > (holder === '' ? EMPTY_STALE_MS : FOREIGN_STALE_MS);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function modifiedAt(path: string): number | undefined {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

/**
 * Moves the stale lock aside before deleting it, so that of several waiters that judged it stale
 * only one removes it; a waiter that moved a fresh lock instead (taken meanwhile) puts it back.
 */
function takeOver(lockPath: string, holder: string): void {
  const aside = `${lockPath}.stale-${randomUUID()}`;
  try {
    renameSync(lockPath, aside);
  } catch {
    return;
  }
  if (readOwner(aside) !== holder) {
    try {
      linkSync(aside, lockPath);
    } catch {
      // Another waiter holds a newer lock already; the moved one's owner will find its file gone.
    }
  }
  unlinkSync(aside);
}
