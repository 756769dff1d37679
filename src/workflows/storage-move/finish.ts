import type { Context } from '../../context.js';
import { ExitCode, IncompleteError, InterruptedError } from '../../errors.js';
import type { HttpClient } from '../../http/client.js';
import { write, writeList } from '../../output/writer.js';
import { listContainersOnStorage } from '../../api/storage-containers.js';
import { KIND_NAMES, resumeCommand, toAsync, type WatchFlags, type WatchSettings } from './options.js';
import { Progress } from './progress.js';
import { describeOutcome, formatSummaryDocument, SUMMARY_COLUMNS, summaryRecords, type KindSummary, type MoveSummary } from './summary.js';
import type { KindTracker } from './tracker.js';
import { watchMoves, type WatchPlan, type WatchStats } from './watch.js';

/**
 * Ids still on the source: a fresh listing where the instance has one (every container there, or
 * only the tracked ones when single containers were named), else what the moves say.
 */
export async function remainingOnSource(http: HttpClient, tracker: KindTracker, onlyTracked: boolean): Promise<number[]> {
  if (tracker.options.listed) {
    const listing = await listContainersOnStorage(http, tracker.kind, tracker.options.source);
    if (listing) {
      const ids = listing.containers.map((c) => c.id);
      return onlyTracked ? ids.filter((id) => tracker.containers.has(id)) : ids;
    }
  }
  return [...tracker.containers.values()]
    .filter((c) => c.outcome !== 'finished' && c.outcome !== 'cleanup failed')
    .map((c) => c.id);
}

export function summarizeKind(tracker: KindTracker, remaining: number[], durationSeconds: number): KindSummary {
  const containers = [...tracker.containers.values()];
  const ids = (outcome: string) => containers.filter((c) => c.outcome === outcome).map((c) => c.id);
  const failed = ids('failed');
  const cleanupFailed = ids('cleanup failed');
  const unsettled = containers.filter((c) => !c.outcome).map((c) => c.id);
  return {
    kind: KIND_NAMES[tracker.kind],
    total: containers.length,
    finished: ids('finished').length,
    cleanup_failed: cleanupFailed.length,
    failed: failed.length,
    still_on_source: remaining.length,
    retries: containers.reduce((sum, c) => sum + tracker.retriesUsed(c), 0),
    scheduled_singly: containers.filter((c) => c.scheduledSingly).length,
    duration_seconds: Math.round(durationSeconds * 10) / 10,
    not_moved: [...new Set([...failed, ...remaining, ...unsettled])].sort((a, b) => a - b),
    cleanup_failed_ids: cleanupFailed,
  };
}

export interface FinishInput {
  flags: WatchFlags;
  settings: WatchSettings;
  plan: WatchPlan;
  sinceIso?: string;
  startedAt: number;
  /** Single containers were named: only they must leave the source. */
  singles: boolean;
}

/**
 * Watches, verifies and reports. Exit 0 only when every container moved and nothing is left on
 * the source; otherwise the summary still goes to stdout and an IncompleteError (8, also at
 * --timeout) says what is left; Ctrl-C → 130 with the command that resumes.
 */
export async function watchVerifyReport(ctx: Context, http: HttpClient, trackers: KindTracker[], input: FinishInput): Promise<number> {
  const progress = await Progress.start(ctx, `watching moves from ${input.flags.from} to ${input.flags.to}`);
  let stats: WatchStats;
  try {
    stats = await watchMoves(ctx, http, trackers, input.plan, progress);
  } catch (error) {
    progress.stop();
    if (error instanceof InterruptedError || ctx.signal.aborted) {
      throw new InterruptedError(
        `stopped watching; the moves go on on the server. Resume with: ${resumeCommand(input.flags, input.settings, input.sinceIso)}`,
      );
    }
    throw error;
  }
  progress.stop();
  const duration = (Date.now() - input.startedAt) / 1000;
  const kinds: KindSummary[] = [];
  for (const tracker of trackers) kinds.push(summarizeKind(tracker, await remainingOnSource(http, tracker, input.singles), duration));
  const summary: MoveSummary = {
    from: input.flags.from,
    to: input.flags.to,
    complete: !stats.timedOut && kinds.every((k) => k.not_moved.length === 0),
    timed_out: stats.timedOut,
    kinds,
    requests: { total: stats.requests, polls: stats.polls, max_per_poll: stats.maxRequestsPerPoll },
  };
  await writeSummary(ctx, summary);
  if (!summary.complete) throw new IncompleteError(describeOutcome(summary));
  ctx.info(describeOutcome(summary));
  return ExitCode.ok;
}

/** The summary honours -o and --fields like any listing; JSON is one document with the run's figures around the kinds. */
async function writeSummary(ctx: Context, summary: MoveSummary): Promise<void> {
  const { format, fields } = ctx.output;
  if (format === 'json') return write(ctx.stdout, formatSummaryDocument(summary, fields));
  await writeList(ctx.stdout, ctx.output, toAsync(summaryRecords(summary, format)), [...SUMMARY_COLUMNS]);
}
