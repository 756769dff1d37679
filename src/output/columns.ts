import { formatCell, getField } from './format.js';
import { terminalSafe } from './terminal-safe.js';
import { truncateToWidth } from './width.js';

/**
 * What a column holds, which decides what a narrow terminal gives up first (#21): timestamps lose
 * their time, then SHAs shrink to 8 characters, then descriptions are cut, and only then paths,
 * names and titles, together with other text (widest first). Numbers are never cut.
 */
export type ColumnKind = 'time' | 'sha' | 'description' | 'text' | 'label' | 'number';

/** A column as a command declares it: the record's field, and where the field name says too little, its kind or how a table shows it. */
export interface Column {
  field: string;
  kind?: ColumnKind;
  /** The value as table and TSV output show it (`30` → `developer`); JSON keeps the service's value. */
  show?: (value: unknown) => string;
  /** A column svc draws from the whole record where no single field says it (a deploy key's projects); table and TSV only. */
  value?: (record: unknown) => unknown;
}

export type ColumnSpec = string | Column;

function asColumn(spec: ColumnSpec): Column {
  return typeof spec === 'string' ? { field: spec } : spec;
}

/** The columns to print: the --fields names when given (keeping what the command declared about them), else the defaults. */
export function chosenColumns(fields: string[] | undefined, defaults: ColumnSpec[]): Column[] {
  const declared = defaults.map(asColumn);
  if (!fields) return declared;
  return fields.map((field) => declared.find((column) => column.field === field) ?? { field });
}

/** The value a table or TSV cell shows, before formatting. */
export function cellValue(record: unknown, column: Column): unknown {
  return column.value ? column.value(record) : getField(record, column.field);
}

export function cellText(record: unknown, column: Column): string {
  const value = cellValue(record, column);
  return column.show && value !== null && value !== undefined ? column.show(value) : formatCell(value);
}

/** One row's cells as shown on a terminal: formatted and with control characters escaped. */
export function tableCells(record: unknown, columns: Column[]): string[] {
  return columns.map((column) => terminalSafe(cellText(record, column)));
}

const NUMBER = /^-?\d+(\.\d+)?$/;
const SHA = /^[0-9a-f]{40}$|^[0-9a-f]{64}$/;
const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;
export const SHORT_SHA = 8;
export const MINUTE_WIDTH = 16;
export const DATE_WIDTH = 10;

/** The kind a column declares, else the one its field name and first values say. */
export function columnKind(column: Column, firstCells: string[]): ColumnKind {
  if (column.kind) return column.kind;
  const values = firstCells.filter((cell) => cell !== '');
  if (values.length > 0 && values.every((cell) => NUMBER.test(cell))) return 'number';
  const name = column.field.split('.').pop() ?? '';
  if (/(_at|date)$/.test(name) || (values.length > 0 && values.every((cell) => TIMESTAMP.test(cell)))) return 'time';
  if (/(^|_)sha$|short_id$/.test(name) || (values.length > 0 && values.every((cell) => SHA.test(cell)))) return 'sha';
  if (/^(description|body|message|note|notes)$/.test(name)) return 'description';
  if (/(path|name|title|namespace|branch|ref|key|url|full)$|^(kind|type)$/.test(name)) return 'label';
  return 'text';
}

/**
 * A cell in at most `width` columns: a timestamp to the minute or to its date, a SHA to its first
 * 8 characters, anything else cut with `…`.
 */
export function fitCell(kind: ColumnKind, cell: string, width: number, displayed: number): string {
  if (displayed <= width) return cell;
  if (kind === 'time') {
    const parts = TIMESTAMP.exec(cell);
    if (parts && width >= MINUTE_WIDTH) return `${parts[1]} ${parts[2]}`;
    if (parts && width >= DATE_WIDTH) return parts[1] as string;
  }
  if (kind === 'sha' && SHA.test(cell) && width >= SHORT_SHA) return cell.slice(0, SHORT_SHA);
  return truncateToWidth(cell, width);
}
