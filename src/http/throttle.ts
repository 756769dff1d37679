import { withRateLimitListener, type RateLimitSignal } from './rate-limit-signal.js';

/** How long the throttle stays narrower after the service rate limited a request, before it widens again. */
export const RATE_LIMIT_COOL_DOWN_MS = 5000;

/** Time as the throttle reads it: the system's, or a test's that moves only when told. */
export interface ThrottleClock {
  now(): number;
}

const systemTime: ThrottleClock = { now: () => Date.now() };

/**
 * How many requests (or items, each a few requests) run at once, shared by every worker: halved when
 * any request is rate limited or the window is nearly spent (the server asks everyone to slow down,
 * not one worker), widened by one per success once the cool-down is over. Work that started before
 * the last cut was sent at the old pace: what it hears next says nothing new, so a burst of 429s
 * halves the width once.
 */
export class Throttle {
  private value: number;
  private quietUntil = 0;
  private lastCut = Number.NEGATIVE_INFINITY;
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly max: number,
    private readonly clock: ThrottleClock = systemTime,
  ) {
    this.value = max;
  }

  /** The width at the moment: a caller that keeps its own queue starts work only below it. */
  get current(): number {
    return this.value;
  }

  /**
   * Runs `work` (an item, a page) hearing what every request sent inside it says about the rate
   * limit, whichever client sends it: a bulk item builds its own.
   */
  watch<T>(work: () => Promise<T>): Promise<T> {
    const startedAt = this.clock.now();
    return withRateLimitListener((signal) => this.observe(signal, startedAt), work);
  }

  succeeded(): void {
    if (this.value < this.max && this.clock.now() >= this.quietUntil) this.value++;
  }

  /** Takes a slot once fewer than the current width are taken; `release` gives it back. */
  async acquire(): Promise<void> {
    while (this.active >= this.value) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
  }

  release(): void {
    this.active--;
    this.waiting.shift()?.();
  }

  /** `work` in a slot, heard while it runs; its success widens the throttle again after a cut. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      const value = await this.watch(work);
      this.succeeded();
      return value;
    } finally {
      this.release();
    }
  }

  /** A 429, or fewer requests left in the window than the throttle could send at once. */
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
