import type { InFlightLimit } from '../bulk/limit.js';

/** Requests in flight across every worker, never more than the shared limit allows at the moment. */
export class RequestSlots {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: InFlightLimit) {}

  async acquire(): Promise<void> {
    while (this.active >= this.limit.current) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
  }

  release(): void {
    this.active--;
    this.waiting.shift()?.();
  }
}
