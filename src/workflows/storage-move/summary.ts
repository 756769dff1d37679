import { pickFields } from '../../output/format.js';
import type { OutputFormat } from '../../output/formats.js';

export interface KindSummary {
  kind: string;
  total: number;
  finished: number;
  cleanup_failed: number;
  failed: number;
  /** Moves still running when the watch ended (a timeout), or ended but not yet read back. */
  in_flight: number;
  /** Not moved and no move running: never reached, or found on the source again at the end. */
  still_on_source: number;
  retries: number;
  scheduled_singly: number;
  duration_seconds: number;
  /** Ids of containers not moved: failed after the retries, in flight, or still on the source. */
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
  'in_flight',
  'still_on_source',
  'retries',
  'duration',
] as const;

/** A kind's figures as a table row: the duration as people read it. */
export function summaryRow(kind: KindSummary): Record<string, unknown> {
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

/** The records of the end-of-run report: one per kind, the table row, or for ndjson the kind with its storages. */
export function summaryRecords(summary: MoveSummary, format: OutputFormat): Array<Record<string, unknown>> {
  if (format === 'ndjson') return summary.kinds.map((k) => ({ from: summary.from, to: summary.to, ...k }));
  return summary.kinds.map(summaryRow);
}

/** `-o json`: one document; --fields chooses the figures of each kind, the rest of the document stays. */
export function formatSummaryDocument(summary: MoveSummary, fields: string[] | undefined): string {
  const kinds = fields ? summary.kinds.map((k) => pickFields(summaryRow(k), fields)) : summary.kinds;
  return `${JSON.stringify({ ...summary, kinds }, null, 2)}\n`;
}

/**
 * One stderr line saying what is left, for scripts reading only the exit code and people reading
 * the table; `named`: the run moved only the containers the user named.
 */
export function describeOutcome(summary: MoveSummary, named: boolean): string {
  if (summary.complete) return `every ${named ? 'named ' : ''}repository moved from ${summary.from} to ${summary.to}`;
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
