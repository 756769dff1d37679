import { InterruptedError } from '../../errors.js';
import { ApiError } from '../../http/api-error.js';
import type { HttpClient } from '../../http/client.js';
import { poolOn, settleBounded, type BoundedRun } from './bounded.js';

export interface AppliedTally<T> {
  done: number;
  failed: Array<{ item: T; error: unknown }>;
  /** The service refused a write (403): it would refuse the rest, so none started after it (unless told to go on). */
  refusal?: ApiError;
  /** Writes cut off by Ctrl-C before the service answered: done or not. */
  cutOff: T[];
  /** Writes never started (after a refusal or an interruption). */
  notStarted: number;
}

/**
 * Carries out a plan's writes, at most `maxInFlight` at once on the client's throttle (fewer for a
 * while after the service rate limited one); a failure is counted and the others go on, but after a
 * refusal no new write starts unless `refusals` is `go-on` (writes to many owners: one may refuse alone).
 */
export async function applyPlanned<T>(
  http: HttpClient,
  plan: readonly T[],
  run: BoundedRun & { refusals?: 'stop' | 'go-on' },
  write: (item: T) => Promise<unknown>,
): Promise<AppliedTally<T>> {
  const tally: AppliedTally<T> = { done: 0, failed: [], cutOff: [], notStarted: 0 };
  const stopping = run.refusals !== 'go-on';
  const pool = { ...poolOn(http, run), stopAfter: (o: { ok: boolean; error?: unknown }) => stopping && !o.ok && isRefusal(o.error) };
  const guarded = (item: T) =>
    write(item).catch((error: unknown) => {
      // Decided when the write fails, not when its outcome is read: an answer before Ctrl-C stays an answer.
      throw run.signal.aborted ? new InterruptedError() : error;
    });
  for await (const outcome of settleBounded(plan, pool, guarded)) {
    if (outcome.ok) tally.done++;
    else if (outcome.error instanceof InterruptedError) tally.cutOff.push(outcome.item);
    else {
      tally.failed.push({ item: outcome.item, error: outcome.error });
      if (stopping && isRefusal(outcome.error)) tally.refusal ??= outcome.error;
    }
  }
  tally.notStarted = plan.length - tally.done - tally.failed.length - tally.cutOff.length;
  return tally;
}

function isRefusal(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 403;
}
