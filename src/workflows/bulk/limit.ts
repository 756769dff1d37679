import { withRateLimitListener, type RateLimitSignal } from '../../http/rate-limit-signal.js';
import type { Clock } from '../shared/clock.js';

/** How long the pool stays smaller after the service rate limited a request, before it grows again. */
export const RATE_LIMIT_COOL_DOWN_MS = 5000;

/**
 * The number of items run at once, shared by every worker: halved when any request is rate limited
 * or the window is nearly spent (the server asks everyone to slow down, not one worker), grown back
 * by one per success once the cool-down is over. Work that started before the last cut was sent at
 * the old pace: what it hears next says nothing new, so a burst of 429s halves the pool once.
 */
export class InFlightLimit {
  private value: number;
  private quietUntil = 0;
  private lastCut = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly max: number,
    private readonly clock: Clock,
  ) {
    this.value = max;
  }

  get current(): number {
    return this.value;
  }

  /** Runs `work` (an item, a page) hearing what the HTTP layer says about the rate limit meanwhile. */
  watch<T>(work: () => Promise<T>): Promise<T> {
    const startedAt = this.clock.now();
    return withRateLimitListener((signal) => this.observe(signal, startedAt), work);
  }

  succeeded(): void {
    if (this.value < this.max && this.clock.now() >= this.quietUntil) this.value++;
  }

  /** A 429, or fewer requests left in the window than the pool could send at once. */
  private observe(signal: RateLimitSignal, startedAt: number): void {
    if (startedAt < this.lastCut) return;
    if (signal.kind === 'throttled' || signal.remaining <= this.max) {
      const now = this.clock.now();
      this.value = Math.max(1, Math.floor(this.value / 2));
      this.lastCut = now;
      this.quietUntil = now + RATE_LIMIT_COOL_DOWN_MS;
    }
  }
}
