// Latency and a bounded number of workers, as a real deployment has them:
// every API answer waits a seeded delay (without holding the event loop),
// and beyond `limit` requests in progress the next ones queue in order.
import { hash32, rng } from '../util/random.js';

export interface LatencyRange {
  min: number;
  max: number;
}

export class Workers {
  private active = 0;
  private readonly queue: Array<() => void> = [];
  private readonly draw: () => number;
  readonly stats = { delayed: 0, totalDelayMs: 0, maxActive: 0, queued: 0, maxQueued: 0 };

  constructor(
    readonly limit: number,
    readonly latency: LatencyRange,
    seed: number,
  ) {
    this.draw = rng(hash32(seed, 77));
  }

  /** Wait for a free worker (immediately when there is no limit). */
  acquire(): Promise<void> {
    if (this.limit <= 0 || this.active < this.limit) {
      this.take();
      return Promise.resolve();
    }
    this.stats.queued++;
    return new Promise((resolve) => {
      this.queue.push(() => {
        this.take();
        resolve();
      });
      this.stats.maxQueued = Math.max(this.stats.maxQueued, this.queue.length);
    });
  }

  release(): void {
    this.active--;
    this.queue.shift()?.();
  }

  /** The delay of the next answer, uniform in [min, max] from the seed. */
  nextDelay(): number {
    const { min, max } = this.latency;
    if (max <= 0) return 0;
    const ms = min + Math.round(this.draw() * (max - min));
    this.stats.delayed++;
    this.stats.totalDelayMs += ms;
    return ms;
  }

  private take(): void {
    this.active++;
    this.stats.maxActive = Math.max(this.stats.maxActive, this.active);
  }
}
