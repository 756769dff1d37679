import { constants } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { SvcError, UsageError } from '../../errors.js';
import { lockJournal } from './journal-lock.js';

/** What the journal knows of an input line: it succeeded, or it started and never ended (the run was killed). */
export type JournalState = 'done' | 'unsure';

/**
 * One JSON record per line: `{"run":N}` when a run starts, `{"start":KEY}` before an item runs
 * (synced to disk first), then `{"done":KEY}` or `{"failed":KEY}`. A bare JSON string is a done
 * item of a journal written before starts were recorded. Items that failed run again on a rerun;
 * items started and never ended may have run, and are not run again unless asked.
 */
export class Journal {
  private writes: Promise<void> = Promise.resolve();
  private failure: SvcError | undefined;

  private constructor(
    readonly path: string,
    private readonly states: Map<string, JournalState>,
    private readonly file: { handle: FileHandle; size: number; unlock: () => void } | undefined,
    /** The bytes of a last line cut short (a crash while writing it), removed before appending. */
    readonly repairedBytes: number,
  ) {}

  /** `readOnly` (a dry run): the file is read, not locked, repaired nor written. */
  static async open(path: string, readOnly = false): Promise<Journal> {
    await refuseSpecialFile(path);
    if (readOnly) {
      const text = await readText(path);
      return new Journal(path, parseRecords(path, text.slice(0, text.lastIndexOf('\n') + 1)).states, undefined, 0);
    }
    const unlock = lockJournal(path);
    let handle: FileHandle | undefined;
    try {
      handle = await openForAppend(path);
      const bytes = await handle.readFile().catch((error: unknown) => Promise.reject(cannot(path, 'read', error)));
      // Counted in bytes: a line cut inside a character must go whole.
      const size = bytes.lastIndexOf(0x0a) + 1;
      const { states, runs } = parseRecords(path, bytes.subarray(0, size).toString('utf8'));
      if (size < bytes.length) await handle.truncate(size).catch((error: unknown) => Promise.reject(cannot(path, 'repair', error)));
      const journal = new Journal(path, states, { handle, size, unlock }, bytes.length - size);
      // Writable now, not after the first item has run: a full disk refuses the run here.
      await journal
        .append({ run: runs + 1 }, true)
        .catch((error: SvcError) => Promise.reject(new SvcError(`${error.message}; nothing was run`)));
      return journal;
    } catch (error) {
      await handle?.close().catch(() => undefined);
      unlock();
      throw error;
    }
  }

  state(key: string): JournalState | undefined {
    return this.states.get(key);
  }

  /** Recorded, and on disk, before the item runs: a run killed meanwhile leaves it unsure, not forgotten. */
  started(key: string): Promise<void> {
    return this.append({ start: key }, true);
  }

  ended(key: string, ok: boolean): Promise<void> {
    if (ok) this.states.set(key, 'done');
    return this.append(ok ? { done: key } : { failed: key }, false);
  }

  /** Why writing stopped, once it has. */
  get writeFailure(): SvcError | undefined {
    return this.failure;
  }

  async close(): Promise<void> {
    if (!this.file) return;
    await this.writes;
    await this.file.handle.close();
    this.file.unlock();
  }

  /** Whole lines, one at a time; a line the disk could not take is cut back off and nothing more is written. */
  private append(record: object, sync: boolean): Promise<void> {
    const write = this.writes.then(async () => {
      const file = this.file as NonNullable<Journal['file']>;
      if (this.failure) throw this.failure;
      const bytes = Buffer.from(`${JSON.stringify(record)}\n`);
      try {
        for (let at = 0; at < bytes.length;) at += (await file.handle.write(bytes, at)).bytesWritten;
        if (sync) await file.handle.datasync();
        file.size += bytes.length;
      } catch (error) {
        this.failure = cannot(this.path, 'write', error);
        await file.handle.truncate(file.size).catch(() => undefined);
        throw this.failure;
      }
    });
    this.writes = write.catch(() => undefined);
    return write;
  }
}

/** A FIFO would block the open (and Ctrl-C with it), a device or directory is no journal. */
async function refuseSpecialFile(path: string): Promise<void> {
  const kind = await stat(path).then(
    (s) => (s.isFile() ? undefined : s.isFIFO() ? 'a FIFO' : s.isDirectory() ? 'a directory' : 'not a regular file'),
    (error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? undefined : Promise.reject(cannot(path, 'read', error))),
  );
  if (kind) throw new UsageError(`--journal ${path}: it is ${kind}; give a regular file`);
}

/** O_NONBLOCK: should the path have become a FIFO since it was checked, opening still returns at once. */
async function openForAppend(path: string): Promise<FileHandle> {
  const flags = constants.O_RDWR | constants.O_CREAT | constants.O_APPEND | constants.O_NONBLOCK;
  const handle = await open(path, flags, 0o644).catch((error: unknown) => Promise.reject(cannot(path, 'open', error)));
  if ((await handle.stat()).isFile()) return handle;
  await handle.close();
  throw new UsageError(`--journal ${path}: it is not a regular file; give a regular file`);
}

async function readText(path: string): Promise<string> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK).catch((error: NodeJS.ErrnoException) =>
    error.code === 'ENOENT' ? undefined : Promise.reject(cannot(path, 'read', error)),
  );
  if (!handle) return '';
  try {
    if (!(await handle.stat()).isFile()) throw new UsageError(`--journal ${path}: it is not a regular file; give a regular file`);
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

function parseRecords(path: string, text: string): { states: Map<string, JournalState>; runs: number } {
  const states = new Map<string, JournalState>();
  let runs = 0;
  for (const [i, line] of text.split('\n').entries()) {
    if (line === '') continue;
    const record = parseLine(line);
    if (record === undefined) throw new UsageError(`--journal ${path}: line ${i + 1} is not a bulk journal record; is it the right file?`);
    if (typeof record === 'string') states.set(record, 'done');
    else if ('run' in record) runs++;
    else if ('start' in record && states.get(record.start) !== 'done') states.set(record.start, 'unsure');
    else if ('done' in record) states.set(record.done, 'done');
    else if ('failed' in record && states.get(record.failed) !== 'done') states.delete(record.failed);
  }
  return { states, runs };
}

type JournalRecord = string | { run: number } | { start: string } | { done: string } | { failed: string };

function parseLine(line: string): JournalRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value === 'string') return value;
  if (value === null || typeof value !== 'object' || Object.keys(value).length !== 1) return undefined;
  const [[name, field]] = Object.entries(value) as [[string, unknown]];
  if (name === 'run' && typeof field === 'number') return { run: field };
  if ((name === 'start' || name === 'done' || name === 'failed') && typeof field === 'string') return { [name]: field } as JournalRecord;
  return undefined;
}

function cannot(path: string, what: string, error: unknown): SvcError {
  if (error instanceof SvcError) return error;
  return new SvcError(`--journal ${path}: cannot ${what} it (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
}
