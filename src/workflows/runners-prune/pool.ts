import { InFlightLimit } from '../bulk/limit.js';
import type { Clock } from '../shared/clock.js';

export interface BoundedRun {
  maxInFlight: number;
  clock: Clock;
  /** Aborted: no new item starts; the ones running finish. */
  signal: AbortSignal;
}

/**
 * Runs `work` over the items, at most `maxInFlight` at once, fewer for a while after the service
 * rate limited one. Each item's outcome goes to `settled` as it ends; returns how many started.
 */
export async function runBounded<T, R>(
  items: readonly T[],
  run: BoundedRun,
  work: (item: T) => Promise<R>,
  settled: (item: T, outcome: { ok: true; value: R } | { ok: false; error: unknown }) => void,
): Promise<number> {
  const limit = new InFlightLimit(run.maxInFlight, run.clock);
  const running = new Set<Promise<void>>();
  let started = 0;
  for (const item of items) {
    while (running.size >= limit.current) await Promise.race(running);
    if (run.signal.aborted) break;
    started++;
    const job = limit
      .watch(() => work(item))
      .then(
        (value) => {
          limit.succeeded();
          settled(item, { ok: true, value });
        },
        (error: unknown) => {
          settled(item, { ok: false, error });
        },
      );
    const tracked = job.finally(() => running.delete(tracked));
    running.add(tracked);
  }
  await Promise.all(running);
  return started;
}
