import type { HttpClient } from '../../http/client.js';
import type { Throttle } from '../../http/throttle.js';
import type { Clock } from './clock.js';

/** What a command asks of a pool: how wide, on which clock, until when. */
export interface BoundedRun {
  maxInFlight: number;
  clock: Clock;
  /** Aborted: no new item starts; the ones under way still end and their outcomes are given. */
  signal: AbortSignal;
}

export interface BoundedPool {
  throttle: Throttle;
  /** Aborted: no new item starts; the ones under way still end and their outcomes are given. */
  signal: AbortSignal;
}

export type Settled<T, R> = { item: T; ok: true; value: R } | { item: T; ok: false; error: unknown };

export interface BoundedSettle<T, R> extends BoundedPool {
  /** True when no new item should start after this outcome (the service refused one: it would refuse the rest). */
  stopAfter?: (outcome: Settled<T, R>) => boolean;
}

/** The pool a command asked for, on the client's one throttle. */
export function poolOn(http: HttpClient, run: BoundedRun): BoundedPool {
  return { throttle: http.throttle(run.maxInFlight, run.clock), signal: run.signal };
}

/**
 * Runs `work` over the items in their order, no more at once than the throttle allows (fewer for a
 * while after the service rate limited one), and gives each outcome as soon as it is known, in the
 * order they end. Every item started is awaited, even when the reader stops early: none is left
 * running unseen.
 */
export async function* settleBounded<T, R>(
  items: readonly T[],
  run: BoundedSettle<T, R>,
  work: (item: T) => Promise<R>,
): AsyncGenerator<Settled<T, R>> {
  const running = new Map<number, Promise<[number, Settled<T, R>]>>();
  let next = 0;
  let stopped = false;
  try {
    for (;;) {
      while (next < items.length && running.size < run.throttle.current && !stopped && !run.signal.aborted) {
        const index = next++;
        running.set(
          index,
          settleOne(items[index] as T, run.throttle, work).then((outcome) => [index, outcome]),
        );
      }
      if (running.size === 0) return;
      const [index, outcome] = await Promise.race(running.values());
      running.delete(index);
      stopped ||= run.stopAfter?.(outcome) === true;
      yield outcome;
    }
  } finally {
    await Promise.all(running.values());
  }
}

/** Never rejects: a failure is an outcome, so every item started is accounted for. */
async function settleOne<T, R>(item: T, throttle: Throttle, work: (item: T) => Promise<R>): Promise<Settled<T, R>> {
  try {
    const value = await throttle.watch(() => work(item));
    throttle.succeeded();
    return { item, ok: true, value };
  } catch (error) {
    return { item, ok: false, error };
  }
}
