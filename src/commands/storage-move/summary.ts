import type { ChalkInstance } from 'chalk';
import { renderTable, tsvLine, type OutputFormat } from '../../output/format.js';

export interface KindSummary {
  kind: string;
  total: number;
  finished: number;
  cleanup_failed: number;
  failed: number;
  still_on_source: number;
  retries: number;
  scheduled_singly: number;
  duration_seconds: number;
  /** Ids of containers not moved: failed after the retries, or still on the source. */
  not_moved: number[];
  /** Moved, but the source copy remains. */
  cleanup_failed_ids: number[];
}

export interface MoveSummary {
  from: string;
  to: string;
  complete: boolean;
  timed_out: boolean;
  kinds: KindSummary[];
  requests: { total: number; polls: number; max_per_poll: number };
}

export const SUMMARY_COLUMNS = [
  'kind',
  'total',
  'finished',
  'cleanup_failed',
  'failed',
  'still_on_source',
  'retries',
  'duration',
] as const;

function row(kind: KindSummary): Record<string, unknown> {
  return { ...kind, duration: formatDuration(kind.duration_seconds) };
}

export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${seconds.toFixed(1)}s`;
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  return h ? `${h}h${String(m).padStart(2, '0')}m${rest}s` : `${m}m${rest}s`;
}

/** The end-of-run report: a table per kind (table/tsv), one JSON document, or one line per kind (ndjson). */
export function formatMoveSummary(
  summary: MoveSummary,
  options: { format: OutputFormat; tty: boolean; chalk: ChalkInstance },
): string {
  const columns = [...SUMMARY_COLUMNS];
  if (options.format === 'json') return `${JSON.stringify(summary, null, 2)}\n`;
  if (options.format === 'ndjson') {
    return summary.kinds.map((k) => `${JSON.stringify({ from: summary.from, to: summary.to, ...k })}\n`).join('');
  }
  if (options.format === 'table' && options.tty) return renderTable(summary.kinds.map(row), columns, options.chalk);
  return tsvLine(columns) + summary.kinds.map((k) => tsvLine(columns.map((c) => row(k)[c]))).join('');
}

/** One stderr line saying what is left, for scripts reading only the exit code and people reading the table. */
export function describeOutcome(summary: MoveSummary): string {
  if (summary.complete) return `every repository moved from ${summary.from} to ${summary.to}`;
  const parts = summary.kinds
    .filter((k) => k.not_moved.length > 0)
    .map((k) => `${k.kind}: ${k.not_moved.length} not moved (${preview(k.not_moved)})`);
  const why = summary.timed_out ? 'timed out; ' : '';
  return `incomplete: ${why}${parts.join('; ') || 'moves unfinished'}`;
}

function preview(ids: number[]): string {
  const shown = ids.slice(0, 10).join(', ');
  return ids.length > 10 ? `${shown}, … ${ids.length - 10} more` : shown;
}
