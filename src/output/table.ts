import type { Writable } from 'node:stream';
import type { ChalkInstance } from 'chalk';
import { formatCell, getField } from './format.js';
import { terminalSafe } from './terminal-safe.js';
import { displayWidth, truncateToWidth } from './width.js';

const GAP = '  ';
const NUMBER = /^-?\d+(\.\d+)?$/;
const MIN_HEADER = 4;

/** The width tables are fitted to when the output stream does not know its own. */
export const DEFAULT_TERMINAL_COLUMNS = 80;

/** The output stream's width in columns (a terminal's `columns`), or 80. */
export function terminalColumnsOf(stream: Writable): number {
  const columns = (stream as { columns?: number }).columns;
  return Number.isInteger(columns) && (columns as number) > 0 ? (columns as number) : DEFAULT_TERMINAL_COLUMNS;
}

/**
 * Column widths fixed from the first rows, so that later rows print as they arrive instead of
 * after the whole listing (#9). A later value wider than its column is cut with `…`; the last
 * column takes whatever the line has left.
 */
export interface TableLayout {
  header: string[];
  widths: number[];
  lineWidth: number;
}

/** One row's cells as shown on a terminal: formatted and with control characters escaped. */
export function tableCells(record: unknown, columns: string[]): string[] {
  return columns.map((column) => terminalSafe(formatCell(getField(record, column))));
}

export function planTable(columns: string[], firstRows: string[][], lineWidth: number): TableLayout {
  const header = columns.map((column) => terminalSafe(column));
  // Room for at least a few letters of each name, however short its values.
  const data = header.map((name) => Math.max(1, Math.min(displayWidth(name), MIN_HEADER)));
  for (const row of firstRows) {
    row.forEach((cell, i) => {
      data[i] = Math.max(data[i], displayWidth(cell));
    });
  }
  const available = lineWidth - GAP.length * (columns.length - 1);
  const dataTotal = data.reduce((sum, width) => sum + width, 0);
  // Values come before names: a header wider than its values is cut first (`repository_st…`).
  if (dataTotal > available) return { header, widths: fitWidths(data, available), lineWidth };
  const headerExtra = fitWidths(
    header.map((name, i) => Math.max(0, displayWidth(name) - data[i])),
    available - dataTotal,
  );
  return { header, widths: data.map((width, i) => width + headerExtra[i]), lineWidth };
}

/** Fits `wanted` into `available`: the narrowest keep their width, the widest share what is left. */
function fitWidths(wanted: number[], available: number): number[] {
  if (wanted.reduce((sum, width) => sum + width, 0) <= available) return wanted;
  const widths = [...wanted];
  const narrowestFirst = wanted.map((_, i) => i).sort((a, b) => wanted[a] - wanted[b]);
  let remaining = Math.max(0, available);
  narrowestFirst.forEach((column, placed) => {
    widths[column] = Math.min(wanted[column], Math.floor(remaining / (wanted.length - placed)));
    remaining -= widths[column];
  });
  return widths;
}

export function renderTableHeader(layout: TableLayout, chalk: ChalkInstance): string {
  return renderLine(layout, layout.header, (text) => chalk.bold(text));
}

export function renderTableRows(layout: TableLayout, rows: string[][]): string {
  let text = '';
  for (const row of rows) text += renderLine(layout, row, (cell) => cell);
  return text;
}

function renderLine(layout: TableLayout, cells: string[], style: (text: string) => string): string {
  const last = cells.length - 1;
  if (last < 0) return '\n';
  let line = '';
  let used = 0;
  for (let i = 0; i < last; i++) {
    let cell = cells[i];
    let width = displayWidth(cell);
    const target = layout.widths[i];
    // A number is never cut while the line has room for it: a cut id is worse than a ragged row.
    const roomForWhole = used + width + (last - i) * (GAP.length + 1) <= layout.lineWidth;
    if (width > target && !(NUMBER.test(cell) && roomForWhole)) {
      cell = truncateToWidth(cell, target);
      width = displayWidth(cell);
    }
    const padded = Math.max(width, target);
    line += `${style(cell)}${' '.repeat(padded - width)}${GAP}`;
    used += padded + GAP.length;
  }
  return `${line}${style(truncateToWidth(cells[last], layout.lineWidth - used))}\n`;
}

/** A whole table at once, fitted to `lineWidth` columns. */
export function renderTable(records: unknown[], columns: string[], chalk: ChalkInstance, lineWidth = DEFAULT_TERMINAL_COLUMNS): string {
  const rows = records.map((record) => tableCells(record, columns));
  const layout = planTable(columns, rows, lineWidth);
  return renderTableHeader(layout, chalk) + renderTableRows(layout, rows);
}
