import type { ChalkInstance } from 'chalk';
import { terminalSafe, tsvEscape } from './terminal-safe.js';
import { displayWidth } from './width.js';
import { isKeptNumber, stringifyJson } from '../json.js';

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
  if (typeof value === 'number' || typeof value === 'boolean' || isKeptNumber(value)) return String(value);
  if (Array.isArray(value) && value.every((v) => v === null || typeof v !== 'object')) return value.join(',');
  return JSON.stringify(value);
}

/** One TSV field on one line: backslashes doubled, tab, CR, LF and other control characters escaped (see terminal-safe.ts). */
export function tsvField(value: unknown): string {
  return tsvEscape(formatCell(value));
}

export function tsvLine(values: unknown[]): string {
  return `${values.map(tsvField).join('\t')}\n`;
}

/** Key/value view of one record for terminals, one line per field. */
/** `cells`: each field's text when a column shows its value its own way (usernames of an approvals list). */
export function renderRecord(
  record: unknown,
  fields: string[],
  chalk: ChalkInstance,
  cells = fields.map((field) => formatCell(getField(record, field))),
): string {
  const names = fields.map((f) => terminalSafe(f));
  const width = Math.max(0, ...names.map((name) => displayWidth(name)));
  return names.map((name, i) => `${chalk.bold(name)}${' '.repeat(width - displayWidth(name))}  ${terminalSafe(cells[i] ?? '')}\n`).join('');
}

// JSON.stringify leaves DEL, the C1 controls (U+0080-U+009F, among them the 8-bit CSI) and the
// bidirectional controls (terminal-safe.ts) raw; as \u escapes the document means the same and
// cannot drive a terminal it is printed to.
// Such characters are rare, so one search of the whole text decides whether any replacing is due.
const RAW_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const HOLDS_RAW_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/**
 * Exact JSON for `-o json` (indented) and `-o ndjson` (one line). `plainAscii`: the values come
 * from documents that `isPlainAscii` vouched for, so there is nothing to escape.
 */
export function jsonText(value: unknown, indented: boolean, plainAscii = false): string {
  const text = stringifyJson(value, indented ? 2 : undefined);
  return plainAscii ? text : escapeRawInJson(text);
}

/** `-o ndjson` lines for many records at once, one line each (`plainAscii` as for `jsonText`). */
export function ndjsonLines(values: unknown[], plainAscii = false): string {
  let text = '';
  for (const value of values) text += `${stringifyJson(value)}\n`;
  return plainAscii ? text : escapeRawInJson(text);
}

function escapeRawInJson(text: string): string {
  // A text whose UTF-8 length equals its length is ASCII, so it holds no C1 character; that test
  // and a search for DEL cost a fraction of the regular expression over a page.
  const ascii = Buffer.byteLength(text) === text.length;
  if (ascii ? !text.includes('\x7f') : !HOLDS_RAW_IN_JSON.test(text)) return text;
  return text.replace(RAW_IN_JSON, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
