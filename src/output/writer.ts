import type { Writable } from 'node:stream';
import type { ChalkInstance } from 'chalk';
import { batchesOf } from './batches.js';
import { outputFailure, readerGone, watch } from './stream-errors.js';
import { cellText, cellValue, chosenColumns, tableCells, type Column, type ColumnSpec } from './columns.js';
import { getField, jsonText, ndjsonLines, pickFields, renderRecord, tsvLine } from './format.js';
import type { OutputFormat } from './formats.js';
import { isPlainAscii } from '../json.js';
import { tsvEscape } from './terminal-safe.js';
import { planTable, renderTableHeader, renderTableRows, terminalColumnsOf, type TableLayout } from './table.js';

export interface OutputSettings {
  format: OutputFormat;
  /** Set by --fields; otherwise the command's default columns apply to table/tsv and JSON is whole. */
  fields?: string[];
  /** Told once when no record printed has a --fields name (a typo would otherwise print blanks). */
  warn?: (line: string) => void;
  /** A human line for stderr (a column a narrow terminal had no room for). */
  note?: (line: string) => void;
  stdoutIsTTY: boolean;
  /** Width terminal tables are fitted to; the stdout stream's `columns` (or 80) when not set. */
  terminalColumns?: number;
  chalk: ChalkInstance;
}

export interface ListResult {
  count: number;
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
 * Writes a listing a page at a time, each page in one write. `json` holds the records until the
 * listing is complete, so a failure part-way prints no document that looks whole; `ndjson`, TSV
 * and terminal tables print each page as it arrives (a table's column widths come from its first page).
 */
export async function writePages(
  stdout: Writable,
  settings: OutputSettings,
  pages: AsyncIterable<unknown[]>,
  defaultColumns: ColumnSpec[],
): Promise<ListResult> {
  const columns = chosenColumns(settings.fields, defaultColumns);
  const renderer = listRenderer(settings, columns, stdout);
  const unseen = unseenFields(settings, columns);
  let count = 0;
  for await (const page of pages) {
    if (page.length === 0) continue;
    unseen.see(page);
    count += page.length;
    const text = renderer.page(page);
    if (text) await write(stdout, text);
    // The reader went away (`| head`): what it took is all it wants; the source is closed, so no
    // further page is fetched.
    if (readerGone(stdout)) {
      unseen.warn(count);
      return { count };
    }
  }
  const tail = renderer.end(count);
  if (tail) await write(stdout, tail);
  unseen.warn(count);
  return { count };
}

/** Writes records as they arrive, those that arrive together (a page of a listing) in one write. */
export function writeList(
  stdout: Writable,
  settings: OutputSettings,
  records: AsyncIterable<unknown>,
  defaultColumns: ColumnSpec[],
): Promise<ListResult> {
  return writePages(stdout, settings, batchesOf(records), defaultColumns);
}

export async function writeRecord(stdout: Writable, settings: OutputSettings, record: unknown, defaultFields: ColumnSpec[]): Promise<void> {
  const columns = chosenColumns(settings.fields, defaultFields);
  const unseen = unseenFields(settings, columns);
  unseen.see([record]);
  unseen.warn(1);
  if (settings.format === 'table' && settings.stdoutIsTTY) {
    const fields = columns.map((column) => column.field);
    return write(
      stdout,
      renderRecord(
        record,
        fields,
        settings.chalk,
        columns.map((column) => cellText(record, column)),
      ),
    );
  }
  if (settings.format === 'json') return write(stdout, `${jsonText(shaper(settings)(record), true)}\n`);
  return write(stdout, listRenderer(settings, columns, stdout).page([record]));
}

interface ListRenderer {
  /** Text for one page of records, written at once. */
  page(records: unknown[]): string;
  /** Text after the last page, given how many records there were. */
  end(count: number): string;
}

function shaper(settings: OutputSettings): (record: unknown) => unknown {
  const fields = settings.fields;
  return fields ? (record) => pickFields(record, fields) : (record) => record;
}

function listRenderer(settings: OutputSettings, columns: Column[], stdout: Writable): ListRenderer {
  const shape = shaper(settings);
  if (settings.format === 'json') {
    const all: unknown[] = [];
    let plainAscii = true;
    return {
      page: (records) => {
        plainAscii &&= isPlainAscii(records);
        for (const record of records) all.push(shape(record));
        return '';
      },
      end: () => `${jsonText(all, true, plainAscii)}\n`,
    };
  }
  if (settings.format === 'ndjson') {
    return {
      page: (records) => ndjsonLines(records.map(shape), isPlainAscii(records)),
      end: () => '',
    };
  }
  if (settings.format === 'table' && settings.stdoutIsTTY) {
    const lineWidth = settings.terminalColumns ?? terminalColumnsOf(stdout);
    let layout: TableLayout | undefined;
    return {
      page: (records) => {
        const rows = records.map((record) => tableCells(record, columns));
        if (layout) return renderTableRows(layout, rows);
        layout = planTable(columns, rows, lineWidth);
        if (layout.dropped.length > 0) {
          settings.note?.(`left out ${layout.dropped.join(', ')} (no room in ${lineWidth} columns; -o tsv shows all)`);
        }
        return renderTableHeader(layout, settings.chalk) + renderTableRows(layout, rows);
      },
      end: () => '',
    };
  }
  // The header waits for the first record, so a listing that fails at once prints nothing.
  let headerWritten = false;
  const header = tsvLine(columns.map((column) => column.field));
  return {
    page: (records) => {
      let text = headerWritten ? '' : header;
      headerWritten = true;
      for (const record of records) text += `${columns.map((column) => tsvEscape(cellText(record, column))).join('\t')}\n`;
      return text;
    },
    end: (count) => (count === 0 ? header : ''),
  };
}

/**
 * The --fields names no record has had so far. A streamed listing is only known to lack one at its end
 * (a job without artifacts comes before one with them), so the warning waits for it.
 */
function unseenFields(settings: OutputSettings, columns: Column[]): { see(records: unknown[]): void; warn(count: number): void } {
  let missing = settings.fields ?? [];
  const json = settings.format === 'json' || settings.format === 'ndjson';
  const valueOf = (record: unknown, field: string) => {
    const column = columns.find((c) => c.field === field);
    return column && !json ? cellValue(record, column) : getField(record, field);
  };
  return {
    see: (records) => {
      if (missing.length > 0) missing = missing.filter((f) => records.every((record) => valueOf(record, f) === undefined));
    },
    warn: (count) => {
      if (count > 0 && missing.length > 0)
        settings.warn?.(`no field ${missing.map((f) => `'${f}'`).join(', ')} in the records (printed as empty)`);
    },
  };
}
