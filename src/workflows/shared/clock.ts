import { InterruptedError } from '../../errors.js';

/** Time as a workflow sees it: the system clock in use, a fake one in tests that need exact steps. */
export interface Clock {
  now(): number;
  /** Resolves after `ms`, rejects with InterruptedError as soon as the signal aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

/** How often a wait looks, unless told otherwise. */
export const DEFAULT_INTERVAL_S = 5;

/** Node fires a longer timer after 1 ms, so longer waits are cut into timers of at most this. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

export async function sleep(ms: number, signal: AbortSignal): Promise<void> {
  let left = Math.max(0, ms);
  do {
    const step = Math.min(left, MAX_TIMER_MS);
    await sleepOnce(step, signal);
    left -= step;
  } while (left > 0);
}

function sleepOnce(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new InterruptedError());
    const onAbort = () => {
      clearTimeout(timer);
      reject(new InterruptedError());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export const systemClock: Clock = { now: () => Date.now(), sleep };
