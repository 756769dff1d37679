import type { Clock } from './clock.js';

export type Raced<T> = { expired: false; value: T } | { expired: true };

/**
 * The end of a wait. It bounds the whole wait, a request in flight included: `race` answers at
 * the deadline even when the work has not, and the work's late result is dropped.
 */
export class Deadline {
  private constructor(
    private readonly clock: Clock,
    /** Clock time (ms) at which the wait ends; undefined: it waits as long as it takes. */
    readonly at: number | undefined,
  ) {}

  static after(clock: Clock, ms: number | undefined): Deadline {
    return new Deadline(clock, ms === undefined ? undefined : clock.now() + ms);
  }

  remainingMs(): number {
    return this.at === undefined ? Number.POSITIVE_INFINITY : Math.max(0, this.at - this.clock.now());
  }

  expired(): boolean {
    return this.remainingMs() === 0;
  }

  race<T>(work: Promise<T>): Promise<Raced<T>> {
    if (this.at === undefined) return work.then((value) => ({ expired: false, value }));
    return new Promise((resolve, reject) => {
      const stopTimer = new AbortController();
      this.clock.sleep(this.remainingMs(), stopTimer.signal).then(
        () => resolve({ expired: true }),
        () => {},
      );
      work.then(
        (value) => {
          stopTimer.abort();
          resolve({ expired: false, value });
        },
        (error: unknown) => {
          stopTimer.abort();
          reject(error);
        },
      );
    });
  }
}
