import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What the service said about its rate limit on one answer: a 429 (the client waits and retries
 * it on its own), or how many requests the current window still allows (`RateLimit-Remaining`).
 */
export type RateLimitSignal = { kind: 'throttled' } | { kind: 'remaining'; remaining: number };

export type RateLimitListener = (signal: RateLimitSignal) => void;

const listeners = new AsyncLocalStorage<RateLimitListener>();

/**
 * Runs `work` with every request sent inside it, by any client, reporting rate limiting to
 * `listener` as well as to the listeners of an enclosing run (a `--parallel` listing inside `svc bulk`).
 * A pool of workers learns this way that the service asked everyone to slow down, even when the
 * client's own retries absorbed the 429.
 */
export function withRateLimitListener<T>(listener: RateLimitListener, work: () => T): T {
  const outer = listeners.getStore();
  return listeners.run(
    outer
      ? (signal) => {
          listener(signal);
          outer(signal);
        }
      : listener,
    work,
  );
}

export function reportRateLimit(signal: RateLimitSignal): void {
  listeners.getStore()?.(signal);
}

/** The signal an answer's headers carry, if any. */
export function remainingSignal(headers: Record<string, string>): RateLimitSignal | undefined {
  const value = headers['ratelimit-remaining']?.trim();
  return value !== undefined && /^\d+$/.test(value) ? { kind: 'remaining', remaining: Number(value) } : undefined;
}
