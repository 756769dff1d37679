import { createRequire } from 'node:module';
import type TableConstructor from 'cli-table3';
import type { ChalkInstance } from 'chalk';

export type OutputFormat = 'table' | 'json' | 'ndjson' | 'tsv';
export const OUTPUT_FORMATS: OutputFormat[] = ['table', 'json', 'ndjson', 'tsv'];

export type JsonRecord = Record<string, unknown>;

/** Reads a dot path such as `namespace.full_path`. */
export function getField(record: unknown, path: string): unknown {
  let node: unknown = record;
  for (const key of path.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** Keeps only the given dot paths, preserving nesting: `namespace.full_path` → `{namespace: {full_path}}`. */
export function pickFields(record: unknown, fields: string[]): JsonRecord {
  const out: JsonRecord = {};
  for (const path of fields) {
    const value = getField(record, path);
    const keys = path.split('.');
    let node = out;
    keys.forEach((key, i) => {
      if (i === keys.length - 1) {
        node[key] = value === undefined ? null : value;
      } else {
        if (!node[key] || typeof node[key] !== 'object') node[key] = {};
        node = node[key] as JsonRecord;
      }
    });
  }
  return out;
}

export function formatCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.every((v) => v === null || typeof v !== 'object')) return value.join(',');
  return JSON.stringify(value);
}

/** One TSV field: tabs, newlines and backslashes escaped so every record stays on one line. */
export function tsvField(value: unknown): string {
  return formatCell(value).replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\r/g, '\\r').replace(/\n/g, '\\n');
}

export function tsvLine(values: unknown[]): string {
  return `${values.map(tsvField).join('\t')}\n`;
}

export function renderTable(records: unknown[], columns: string[], chalk: ChalkInstance): string {
  // Loaded on first use: only terminal tables need it, and `svc --help` should not pay for it.
  const Table = createRequire(import.meta.url)('cli-table3') as typeof TableConstructor;
  const table = new Table({
    head: columns.map((c) => chalk.bold(c)),
    style: { head: [], border: [] },
    chars: {
      top: '', 'top-mid': '', 'top-left': '', 'top-right': '',
      bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '',
      left: '', 'left-mid': '', mid: '', 'mid-mid': '',
      right: '', 'right-mid': '', middle: '  ',
    },
  });
  for (const record of records) table.push(columns.map((c) => formatCell(getField(record, c))));
  return `${table.toString()}\n`;
}

/** Key/value view of one record for terminals. */
export function renderRecord(record: unknown, fields: string[], chalk: ChalkInstance): string {
  const width = Math.max(0, ...fields.map((f) => f.length));
  return fields.map((f) => `${chalk.bold(f.padEnd(width))}  ${formatCell(getField(record, f))}\n`).join('');
}

export function parseFieldList(value: string): string[] {
  return value
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
}
