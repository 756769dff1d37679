import { MOVE_KINDS, type MoveKind } from '../../api/storage-moves.js';
import { DEFAULT_INTERVAL_S } from '../shared/clock.js';
import { shellQuote } from '../shared/shell.js';
import { KIND_NAMES } from './kinds.js';

export const DEFAULT_MOVE_RETRIES = 3;

/** What a user asks of a watch, in the verbs' own terms (seconds, counts). */
export interface WatchRequest {
  from: string;
  to: string;
  kind: MoveKind[];
  moveRetries?: number;
  interval?: number;
  waitTimeout?: number;
  maxInFlight?: number;
  since?: string;
}

export interface WatchSettings {
  moveRetries: number;
  intervalMs: number;
  /** Undefined: the watch goes on until every move is final. */
  waitTimeoutMs?: number;
}

export function takeWatchSettings(request: WatchRequest): WatchSettings {
  return {
    moveRetries: request.moveRetries ?? DEFAULT_MOVE_RETRIES,
    intervalMs: (request.interval ?? DEFAULT_INTERVAL_S) * 1000,
    waitTimeoutMs: request.waitTimeout === undefined ? undefined : request.waitTimeout * 1000,
  };
}

/** The exact command that resumes watching, for Ctrl-C, a timeout and the schedule hint. */
export function resumeCommand(request: WatchRequest, settings: WatchSettings, sinceIso: string | undefined): string {
  const kind = request.kind.length === MOVE_KINDS.length ? 'all' : KIND_NAMES[request.kind[0] as MoveKind];
  const parts = ['svc', 'storage-move', 'wait', '--from', request.from, '--to', request.to, '--kind', kind];
  parts.push('--move-retries', String(settings.moveRetries), '--interval', String(settings.intervalMs / 1000));
  if (request.maxInFlight !== undefined) parts.push('--max-in-flight', String(request.maxInFlight));
  if (sinceIso) parts.push('--since', sinceIso);
  return parts.map(shellQuote).join(' ');
}
