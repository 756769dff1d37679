import { hostname } from 'node:os';
import { SvcError, UsageError } from '../../errors.js';
import { createOwnerFile, isProcessRunning, readOwnerFile, removeOwnerFile, takeOverOwnerFile } from '../../owner-file.js';

/**
 * `FILE.lock`, created exclusively and naming its owner as `pid host`, held for the whole run: a
 * second run on the same journal is refused at once rather than waited for, since a run can last
 * hours. A lock left by a process that died on this host (a `kill -9`) is taken over.
 */
export function lockJournal(journalPath: string): () => void {
  const lockPath = `${journalPath}.lock`;
  const owner = `${process.pid} ${hostname()}\n`;
  const cannotCreate = (code: string) => new SvcError(`--journal: cannot create its lock ${lockPath} (${code})`);
  const notRegular = () => new UsageError(`--journal: ${lockPath} is not a regular file; delete it`);
  for (let attempt = 0; ; attempt++) {
    if (createOwnerFile(lockPath, owner, cannotCreate)) break;
    const holder = readOwnerFile(lockPath, notRegular);
    const [pid, host] = (holder ?? '').trim().split(' ');
    if (attempt === 0 && host === hostname() && pid && /^\d+$/.test(pid) && !isProcessRunning(Number(pid))) {
      takeOverOwnerFile(lockPath, holder as string, notRegular);
      continue;
    }
    throw new SvcError(
      `--journal ${journalPath} is in use by another svc bulk run${pid ? ` (pid ${pid})` : ''}; wait for it to end, or delete ${lockPath} if none is running`,
    );
  }
  return () => {
    if (readOwnerFile(lockPath, notRegular) === owner) removeOwnerFile(lockPath);
  };
}
