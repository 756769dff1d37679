import { InterruptedError } from '../../src/errors.js';
import type { Clock } from '../../src/workflows/shared/clock.js';

/** A clock that moves only when the test says so; sleepers wake in time order. */
export class FakeClock implements Clock {
  private time = 0;
  private sleepers: Array<{ at: number; wake: () => void }> = [];

  now(): number {
    return this.time;
  }

  sleep(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(new InterruptedError());
      const sleeper = { at: this.time + ms, wake: resolve };
      this.sleepers.push(sleeper);
      signal.addEventListener(
        'abort',
        () => {
          this.sleepers = this.sleepers.filter((s) => s !== sleeper);
          reject(new InterruptedError());
        },
        { once: true },
      );
    });
  }

  /** Moves time on, waking every sleeper that is due. */
  async advance(ms: number): Promise<void> {
    this.time += ms;
    const due = this.sleepers.filter((s) => s.at <= this.time);
    this.sleepers = this.sleepers.filter((s) => s.at > this.time);
    for (const s of due) s.wake();
    await new Promise((resolve) => setImmediate(resolve));
  }

  get sleeping(): number {
    return this.sleepers.length;
  }

  /** When the next sleeper wakes, or undefined when none sleeps. */
  get nextWake(): number | undefined {
    return this.sleepers.length ? Math.min(...this.sleepers.map((s) => s.at)) : undefined;
  }
}
