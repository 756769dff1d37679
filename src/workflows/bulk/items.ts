import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { parseJson } from '../../json.js';

/** One line of the input: a record as `-o ndjson` prints it, or a bare id (which fills `{id}`). */
export interface BulkItem {
  /** The line as read (trimmed): what the journal remembers. */
  key: string;
  /** What the outcome line shows as `input`. */
  input: unknown;
  /** What placeholders are filled from, or why the line is not usable. */
  record?: unknown;
  error?: string;
}

export async function* readItems(stdin: Readable): AsyncGenerator<BulkItem> {
  const lines = createInterface({ input: stdin, crlfDelay: Number.POSITIVE_INFINITY });
  for await (const raw of lines) {
    const key = raw.trim();
    if (key === '') continue;
    yield toItem(key);
  }
}

function toItem(key: string): BulkItem {
  if (!key.startsWith('{')) return { key, input: key, record: { id: key } };
  try {
    const record = parseJson(key);
    return { key, input: record, record };
  } catch {
    return { key, input: key, error: 'the input line is not valid JSON' };
  }
}
