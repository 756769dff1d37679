import { InterruptedError } from '../../errors.js';
import { compareIds } from '../../api/records.js';
import type { HttpClient } from '../../http/client.js';
import { listContainersOnStorage } from '../../api/storage-containers.js';
import { FINAL_STATES } from '../../api/storage-moves.js';
import type { Deadline } from '../shared/deadline.js';
import type { WorkflowHost } from '../shared/host.js';
import { KIND_NAMES } from './kinds.js';
import { resumeCommand, type WatchRequest, type WatchSettings } from './settings.js';
import type { KindSummary, MoveSummary } from './summary.js';
import type { KindTracker } from './tracker.js';
import { watchMoves, type WatchPlan, type WatchStats } from './watch.js';

/**
 * Ids on the source now: a fresh listing where the instance has one (every container there, or
 * only the tracked ones when single containers were named); undefined where it cannot list.
 */
async function listedOnSource(http: HttpClient, tracker: KindTracker, onlyTracked: boolean): Promise<Set<number> | undefined> {
  if (!tracker.options.listed) return undefined;
  const listing = await listContainersOnStorage(http, tracker.kind, tracker.options.source);
  if (!listing) return undefined;
  const ids = listing.containers.map((c) => c.id);
  return new Set(onlyTracked ? ids.filter((id) => tracker.containers.has(id)) : ids);
}

/**
 * Every container in exactly one column, so they add up to `total`: settled (finished, cleanup
 * failed, failed), in flight (a move not final, or one that ended and awaits a read of its
 * storage), or still on the source (no move running, or found there again by the fresh listing).
 */
export function summarizeKind(tracker: KindTracker, onSource: Set<number> | undefined, durationSeconds: number): KindSummary {
  const columns = {
    finished: [] as number[],
    cleanupFailed: [] as number[],
    failed: [] as number[],
    inFlight: [] as number[],
    onSource: [] as number[],
  };
  for (const c of tracker.containers.values()) {
    const moved = c.outcome === 'finished' || c.outcome === 'cleanup failed';
    if (moved && onSource?.has(c.id)) columns.onSource.push(c.id);
    else if (c.outcome === 'finished') columns.finished.push(c.id);
    else if (c.outcome === 'cleanup failed') columns.cleanupFailed.push(c.id);
    else if (c.outcome === 'failed') columns.failed.push(c.id);
    else if (c.readStorage || (c.move && !FINAL_STATES.has(c.move.state))) columns.inFlight.push(c.id);
    else columns.onSource.push(c.id);
  }
  const untracked = [...(onSource ?? [])].filter((id) => !tracker.containers.has(id));
  columns.onSource.push(...untracked);
  const containers = [...tracker.containers.values()];
  return {
    kind: KIND_NAMES[tracker.kind],
    total: containers.length + untracked.length,
    finished: columns.finished.length,
    cleanup_failed: columns.cleanupFailed.length,
    failed: columns.failed.length,
    in_flight: columns.inFlight.length,
    still_on_source: columns.onSource.length,
    retries: containers.reduce((sum, c) => sum + tracker.retriesUsed(c), 0),
    scheduled_singly: containers.filter((c) => c.scheduledSingly).length,
    duration_seconds: Math.round(durationSeconds * 10) / 10,
    not_moved: [...columns.failed, ...columns.inFlight, ...columns.onSource].sort(compareIds),
    cleanup_failed_ids: columns.cleanupFailed,
  };
}

export interface FollowInput {
  request: WatchRequest;
  settings: WatchSettings;
  plan: Omit<WatchPlan, 'deadline'>;
  deadline: Deadline;
  sinceIso?: string;
  startedAt: number;
  /** Single containers were named: only they must leave the source. */
  singles: boolean;
}

/**
 * Watches the moves to the end, then verifies with a fresh listing. At the deadline it reports
 * what it knows without another request (the server may be what hangs) and says how to resume;
 * on Ctrl-C it throws InterruptedError with the command that resumes.
 */
export async function followMoves(host: WorkflowHost, http: HttpClient, trackers: KindTracker[], input: FollowInput): Promise<MoveSummary> {
  const resume = () => resumeCommand(input.request, input.settings, input.sinceIso);
  const status = await host.status(`watching moves from ${input.request.from} to ${input.request.to}`);
  let stats: WatchStats;
  try {
    stats = await watchMoves(host, http, trackers, { ...input.plan, deadline: input.deadline }, status);
  } catch (error) {
    if (error instanceof InterruptedError || host.signal.aborted) {
      throw new InterruptedError(`stopped watching; the moves go on on the server. Resume with: ${resume()}`);
    }
    throw error;
  } finally {
    status.stop();
  }
  if (stats.timedOut) host.info(`timed out; the moves go on on the server. Resume with: ${resume()}`);
  const duration = (host.clock.now() - input.startedAt) / 1000;
  const kinds: KindSummary[] = [];
  for (const tracker of trackers) {
    const onSource = stats.timedOut ? undefined : await listedOnSource(http, tracker, input.singles);
    kinds.push(summarizeKind(tracker, onSource, duration));
  }
  return {
    from: input.request.from,
    to: input.request.to,
    complete: !stats.timedOut && kinds.every((k) => k.not_moved.length === 0),
    timed_out: stats.timedOut,
    kinds,
    requests: { total: stats.requests, polls: stats.polls, max_per_poll: stats.maxRequestsPerPoll },
  };
}
