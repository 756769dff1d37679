import type { Writable } from 'node:stream';
import type { ChalkInstance } from 'chalk';
import {
  chosenColumns,
  columnKind,
  DATE_WIDTH,
  fitCell,
  MINUTE_WIDTH,
  SHORT_SHA,
  tableCells,
  type Column,
  type ColumnKind,
  type ColumnSpec,
} from './columns.js';
import { terminalSafe } from './terminal-safe.js';
import { displayWidth } from './width.js';

const GAP = '  ';
const NUMBER = /^-?\d+(\.\d+)?$/;

/** The width tables are fitted to when the output stream does not know its own. */
export const DEFAULT_TERMINAL_COLUMNS = 80;

/** The output stream's width in columns (a terminal's `columns`), or 80. */
export function terminalColumnsOf(stream: Writable): number {
  const columns = (stream as { columns?: number }).columns;
  return Number.isInteger(columns) && (columns as number) > 0 ? (columns as number) : DEFAULT_TERMINAL_COLUMNS;
}

/**
 * Column widths fixed from the first rows, so that later rows print as they arrive instead of
 * after the whole listing (#9). A later value wider than its column is shortened as its kind
 * allows; the last column takes whatever the line has left.
 */
export interface TableLayout {
  /** The columns shown, by their index among those asked for. */
  shown: number[];
  kinds: ColumnKind[];
  header: string[];
  widths: number[];
  lineWidth: number;
  /** Names of the columns left out because even their names did not fit side by side. */
  dropped: string[];
}

// After timestamps and SHAs, what a narrow line cuts, in order; each step stops as soon as the line
// fits. Other text shares the last step with names, widest first, so a title is cut before a
// short state is.
const SHRINK_ORDER: ColumnKind[][] = [['description'], ['text', 'label']];
// Which columns go when even every name at its own width does not fit, first to last (the
// rightmost of a kind first): what names a row goes last.
const DROP_ORDER: ColumnKind[] = ['description', 'time', 'sha', 'text', 'number', 'label'];

export function planTable(columns: Column[], firstRows: string[][], lineWidth: number): TableLayout {
  const header = columns.map((column) => terminalSafe(column.field));
  const kinds = columns.map((column, i) =>
    columnKind(
      column,
      firstRows.map((row) => row[i] ?? ''),
    ),
  );
  let shown = columns.map((_, i) => i);
  const dropped: string[] = [];
  for (;;) {
    const widths = fitted(
      shown.map((i) => displayWidth(header[i] as string)),
      shown.map((i) => Math.max(displayWidth(header[i] as string), ...firstRows.map((row) => displayWidth(row[i] ?? '')))),
      shown.map((i) => kinds[i] as ColumnKind),
      lineWidth - GAP.length * (shown.length - 1),
    );
    if (widths || shown.length === 1) {
      return {
        shown,
        kinds: shown.map((i) => kinds[i] as ColumnKind),
        header: shown.map((i) => header[i] as string),
        widths: widths ?? [lineWidth],
        lineWidth,
        dropped,
      };
    }
    const victim = leastUseful(shown, kinds);
    dropped.unshift(header[victim] as string);
    shown = shown.filter((i) => i !== victim);
  }
}

/** The rightmost column of the first kind in DROP_ORDER that is shown. */
function leastUseful(shown: number[], kinds: ColumnKind[]): number {
  for (const kind of DROP_ORDER) {
    const last = [...shown].reverse().find((i) => kinds[i] === kind);
    if (last !== undefined) return last;
  }
  return shown[shown.length - 1] as number;
}

/** Widths that fit `available` with no column narrower than its name, or undefined when none do. */
function fitted(names: number[], wanted: number[], kinds: ColumnKind[], available: number): number[] | undefined {
  const widths = [...wanted];
  const excess = () => widths.reduce((sum, width) => sum + width, 0) - available;
  const shrinkTo = (kind: ColumnKind, width: number) => {
    for (let i = widths.length - 1; i >= 0 && excess() > 0; i--) {
      if (kinds[i] === kind) widths[i] = Math.min(widths[i] as number, Math.max(names[i] as number, width));
    }
  };
  shrinkTo('time', MINUTE_WIDTH);
  shrinkTo('time', DATE_WIDTH);
  shrinkTo('sha', SHORT_SHA);
  for (const group of SHRINK_ORDER) {
    // The widest of the group gives up a column at a time, down to its name's width.
    while (excess() > 0) {
      let widest = -1;
      widths.forEach((width, i) => {
        if (group.includes(kinds[i] as ColumnKind) && width > (names[i] as number) && (widest < 0 || width > (widths[widest] as number)))
          widest = i;
      });
      if (widest < 0) break;
      widths[widest] = (widths[widest] as number) - 1;
    }
  }
  return excess() > 0 ? undefined : widths;
}

export function renderTableHeader(layout: TableLayout, chalk: ChalkInstance): string {
  return renderLine(layout, layout.header, (text) => chalk.bold(text), false);
}

export function renderTableRows(layout: TableLayout, rows: string[][]): string {
  let text = '';
  for (const row of rows) {
    text += renderLine(
      layout,
      layout.shown.map((i) => row[i] ?? ''),
      (cell) => cell,
      true,
    );
  }
  return text;
}

function renderLine(layout: TableLayout, cells: string[], style: (text: string) => string, values: boolean): string {
  const last = cells.length - 1;
  if (last < 0) return '\n';
  let line = '';
  let used = 0;
  for (let i = 0; i < last; i++) {
    const kind = layout.kinds[i] as ColumnKind;
    const target = layout.widths[i] as number;
    let cell = cells[i] as string;
    let width = displayWidth(cell);
    // A number is never cut while the line has room for it: a cut id is worse than a ragged row.
    const roomForWhole = used + width + (last - i) * (GAP.length + 1) <= layout.lineWidth;
    if (values && !(NUMBER.test(cell) && roomForWhole)) {
      cell = fitCell(kind, cell, target, width);
      width = displayWidth(cell);
    }
    const padded = Math.max(width, target);
    line += `${style(cell)}${' '.repeat(padded - width)}${GAP}`;
    used += padded + GAP.length;
  }
  const cell = cells[last] as string;
  const room = Math.max(layout.widths[last] as number, layout.lineWidth - used);
  return `${line}${style(values ? fitCell(layout.kinds[last] as ColumnKind, cell, room, displayWidth(cell)) : cell)}\n`;
}

/** A whole table at once, fitted to `lineWidth` columns. */
export function renderTable(records: unknown[], columns: ColumnSpec[], chalk: ChalkInstance, lineWidth = DEFAULT_TERMINAL_COLUMNS): string {
  const chosen = chosenColumns(undefined, columns);
  const rows = records.map((record) => tableCells(record, chosen));
  const layout = planTable(chosen, rows, lineWidth);
  return renderTableHeader(layout, chalk) + renderTableRows(layout, rows);
}
