import type { RateLimitSignal } from '../../http/rate-limit-signal.js';
import type { Clock } from '../shared/clock.js';

/** How long the pool stays smaller after the service rate limited a request, before it grows again. */
export const RATE_LIMIT_COOL_DOWN_MS = 5000;

/**
 * The number of items run at once, shared by every worker: halved when any request is rate limited
 * or the window is nearly spent (the server asks everyone to slow down, not one worker), grown back
 * by one per success once the cool-down is over.
 */
export class InFlightLimit {
  private value: number;
  private quietUntil = 0;

  constructor(
    private readonly max: number,
    private readonly clock: Clock,
  ) {
    this.value = max;
  }

  get current(): number {
    return this.value;
  }

  /** What the HTTP layer saw: a 429, or fewer requests left in the window than the pool could send at once. */
  observe(signal: RateLimitSignal): void {
    if (signal.kind === 'throttled' || signal.remaining <= this.max) this.rateLimited();
  }

  private rateLimited(): void {
    this.value = Math.max(1, Math.floor(this.value / 2));
    this.quietUntil = this.clock.now() + RATE_LIMIT_COOL_DOWN_MS;
  }

  succeeded(): void {
    if (this.value < this.max && this.clock.now() >= this.quietUntil) this.value++;
  }
}
