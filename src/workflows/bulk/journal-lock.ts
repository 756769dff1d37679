import { randomUUID } from 'node:crypto';
import { closeSync, constants, fstatSync, linkSync, openSync, readSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { SvcError, UsageError } from '../../errors.js';

/**
 * `FILE.lock`, created exclusively and naming its owner as `pid host`, held for the whole run: a
 * second run on the same journal is refused at once rather than waited for, since a run can last
 * hours. A lock left by a process that died on this host (a `kill -9`) is taken over.
 */
export function lockJournal(journalPath: string): () => void {
  const lockPath = `${journalPath}.lock`;
  const owner = `${process.pid} ${hostname()}\n`;
  for (let attempt = 0; ; attempt++) {
    if (tryCreate(lockPath, owner)) break;
    const holder = readOwner(lockPath);
    const [pid, host] = (holder ?? '').trim().split(' ');
    if (attempt === 0 && host === hostname() && pid && /^\d+$/.test(pid) && !isRunning(Number(pid))) {
      takeOver(lockPath, holder as string);
      continue;
    }
    throw new SvcError(
      `--journal ${journalPath} is in use by another svc bulk run${pid ? ` (pid ${pid})` : ''}; wait for it to end, or delete ${lockPath} if none is running`,
    );
  }
  return () => {
    if (readOwner(lockPath) === owner) removeLock(lockPath);
  };
}

function tryCreate(lockPath: string, owner: string): boolean {
  let fd: number;
  try {
    fd = openSync(lockPath, 'wx', 0o600);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'EIO';
    if (code === 'EEXIST') return false;
    throw new SvcError(`--journal: cannot create its lock ${lockPath} (${code})`);
  }
  try {
    writeSync(fd, owner);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** Opened without blocking and read only when it is a regular file: a FIFO put there cannot hang the run. */
function readOwner(lockPath: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(lockPath, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    if (!fstatSync(fd).isFile()) throw new UsageError(`--journal: ${lockPath} is not a regular file; delete it`);
    const buffer = Buffer.alloc(256);
    return buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, 0)).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

function removeLock(lockPath: string): void {
  try {
    unlinkSync(lockPath);
  } catch {
    // Already gone.
  }
}

/**
 * Moves the dead run's lock aside before deleting it, so that of two runs resuming at once only
 * one removes it; one that moved a fresh lock instead (the other run's) puts it back.
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
      // A newer lock is in place already; creating ours will say it is in use.
    }
  }
  removeLock(aside);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
