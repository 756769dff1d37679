// Lock files that name their owner (`pid host …`): the config file's lock and the bulk journal's
// share how one is created, read, taken over from a dead process and released.
import { randomUUID } from 'node:crypto';
import { closeSync, constants, fstatSync, linkSync, openSync, readSync, renameSync, unlinkSync, writeSync } from 'node:fs';

/** More than any owner line svc writes; a longer file is not one of its locks. */
const MAX_OWNER_BYTES = 4096;

/** Creates `path` exclusively (O_EXCL never follows a symlink) holding `owner`; false when it exists. */
export function createOwnerFile(path: string, owner: string, cannotCreate: (code: string) => Error): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'EIO';
    if (code === 'EEXIST') return false;
    throw cannotCreate(code);
  }
  try {
    writeSync(fd, owner);
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * The owner line, or undefined when the file is gone or cannot be read. Opened without blocking and
 * read only when it is a regular file: a FIFO put in its place cannot hang the run (nor Ctrl-C).
 */
export function readOwnerFile(path: string, notRegular: () => Error): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    if (!fstatSync(fd).isFile()) throw notRegular();
    const buffer = Buffer.alloc(MAX_OWNER_BYTES);
    let length: number;
    try {
      length = readSync(fd, buffer, 0, buffer.length, 0);
    } catch {
      return undefined;
    }
    return buffer.subarray(0, length).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * Moves a dead owner's file aside before deleting it, so that of several processes that judged it
 * stale only one removes it; one that moved a fresh file instead (taken meanwhile) puts it back.
 */
export function takeOverOwnerFile(path: string, holder: string, notRegular: () => Error): void {
  const aside = `${path}.stale-${randomUUID()}`;
  try {
    renameSync(path, aside);
  } catch {
    return;
  }
  if (readOwnerFile(aside, notRegular) !== holder) {
    try {
      linkSync(aside, path);
    } catch {
      // A newer owner is in place already; creating ours will find it.
    }
  }
  removeOwnerFile(aside);
}

export function removeOwnerFile(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}

/** Whether a process of this host runs with this pid (EPERM: it does, as another user). */
export function isProcessRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
