import type { Writable } from 'node:stream';
import type { ChalkInstance } from 'chalk';
import { SvcError } from '../errors.js';
import { getField, pickFields, renderRecord, renderTable, tsvLine, type OutputFormat } from './format.js';

export interface OutputSettings {
  format: OutputFormat;
  /** Set by --fields; otherwise the command's default columns apply to table/tsv and JSON is whole. */
  fields?: string[];
  /** Told once when a --fields name is absent from the first record (a typo would otherwise print blanks). */
  warn?: (line: string) => void;
  stdoutIsTTY: boolean;
  chalk: ChalkInstance;
}

export interface ListResult {
  count: number;
}

const streamErrors = new WeakMap<Writable, NodeJS.ErrnoException>();
const watched = new WeakSet<Writable>();

/** Failed writes to stdout surface as 'error' events after the write returned: remember the last. */
function watch(stream: Writable): void {
  if (watched.has(stream)) return;
  watched.add(stream);
  stream.on('error', (error: NodeJS.ErrnoException) => streamErrors.set(stream, error));
}

/** The reader of stdout went away (`| head`): what it took is all it wants. */
export function readerGone(stream: Writable): boolean {
  return streamErrors.get(stream)?.code === 'EPIPE';
}

/** A failure to write the output other than a reader going away (a full disk): it ends the command. */
export function outputFailure(stream: Writable): SvcError | undefined {
  const error = streamErrors.get(stream);
  if (!error || error.code === 'EPIPE') return undefined;
  const reason = error.code === 'ENOSPC' ? 'no space left on the device' : error.message;
  return new SvcError(`cannot write the output: ${reason} (${error.code ?? 'error'})`);
}

/**
 * Writes to stdout and waits for the stream to drain, so output is complete before exit. Once the
 * reader went away, writing does nothing, so the command's own outcome still decides the exit code.
 */
export function write(stream: Writable, text: string | Uint8Array): Promise<void> {
  watch(stream);
  const failure = outputFailure(stream);
  if (failure) return Promise.reject(failure);
  if (readerGone(stream)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    if (stream.write(text)) return resolve();
    // Both listeners go once either fires: a long listing to a slow pipe waits for drain thousands of times.
    const onDrain = () => {
      stream.off('error', onError);
      resolve();
    };
    const onError = () => {
      stream.off('drain', onDrain);
      const error = outputFailure(stream);
      if (error) reject(error);
      else resolve();
    };
    stream.once('drain', onDrain);
    stream.once('error', onError);
  });
}

/**
 * Writes records as they arrive. `json` holds them until the list is complete, so a failure
 * part-way prints no document that looks whole; `ndjson` and plain-text rows stream.
 */
export async function writeList(
  stdout: Writable,
  settings: OutputSettings,
  records: AsyncIterable<unknown>,
  defaultColumns: string[],
): Promise<ListResult> {
  const columns = settings.fields ?? defaultColumns;
  const shape = (record: unknown) => (settings.fields ? pickFields(record, settings.fields) : record);
  let count = 0;
  records = checkedFields(records, settings);
  if (settings.format === 'json') {
    const all: unknown[] = [];
    for await (const record of records) all.push(shape(record));
    await write(stdout, `${JSON.stringify(all, null, 2)}\n`);
    return { count: all.length };
  }
  if (settings.format === 'ndjson') {
    for await (const record of records) {
      count++;
      await write(stdout, `${JSON.stringify(shape(record))}\n`);
    }
    return { count };
  }
  if (settings.format === 'table' && settings.stdoutIsTTY) {
    const all: unknown[] = [];
    for await (const record of records) all.push(record);
    if (all.length) await write(stdout, renderTable(all, columns, settings.chalk));
    return { count: all.length };
  }
  // The header waits for the first record, so a listing that fails at once prints nothing.
  for await (const record of records) {
    if (count === 0) await write(stdout, tsvLine(columns));
    count++;
    await write(stdout, tsvLine(columns.map((c) => getField(record, c))));
  }
  if (count === 0) await write(stdout, tsvLine(columns));
  return { count };
}

export async function writeRecord(
  stdout: Writable,
  settings: OutputSettings,
  record: unknown,
  defaultFields: string[],
): Promise<void> {
  warnMissingFields(settings, record);
  const fields = settings.fields ?? defaultFields;
  const shaped = settings.fields ? pickFields(record, settings.fields) : record;
  if (settings.format === 'json') return write(stdout, `${JSON.stringify(shaped, null, 2)}\n`);
  if (settings.format === 'ndjson') return write(stdout, `${JSON.stringify(shaped)}\n`);
  if (settings.format === 'table' && settings.stdoutIsTTY) {
    return write(stdout, renderRecord(record, fields, settings.chalk));
  }
  await write(stdout, tsvLine(fields));
  return write(stdout, tsvLine(fields.map((f) => getField(record, f))));
}


async function* checkedFields(records: AsyncIterable<unknown>, settings: OutputSettings): AsyncGenerator<unknown> {
  let first = true;
  for await (const record of records) {
    if (first) warnMissingFields(settings, record);
    first = false;
    yield record;
  }
}

function warnMissingFields(settings: OutputSettings, record: unknown): void {
  const missing = (settings.fields ?? []).filter((f) => getField(record, f) === undefined);
  if (missing.length && settings.warn) {
    settings.warn(`no field ${missing.map((f) => `'${f}'`).join(', ')} in the records (printed as empty)`);
  }
}
