import type { Sandbox } from '../../src/sandbox/index.js';

/**
 * The sandbox's clock for pipelines and jobs, moved only by the test: a job stays where it is
 * however slow the machine, until the test advances the clock or lets a command's polls step it.
 */
export class TestClock {
  private at = Date.now();
  private stepping: { count: () => number; from: number; ms: number } | null = null;

  readonly now = (): number => this.at + (this.stepping ? (this.stepping.count() - this.stepping.from) * this.stepping.ms : 0);

  advance(ms: number): void {
    this.at += ms;
  }

  /** From now on every request to `route` (`METHOD /pattern`, as the sandbox counts them) moves the clock `ms` forward. */
  stepPerRequest(sandbox: Sandbox, route: string, ms: number): void {
    this.hold();
    const count = () => sandbox.stats().requests.byRoute[route] ?? 0;
    this.stepping = { count, from: count(), ms };
  }

  /** Stops stepping; the clock stands where the last request left it. */
  hold(): void {
    this.at = this.now();
    this.stepping = null;
  }
}

/** The route a command waiting for a pipeline polls. */
export const PIPELINE_POLL = 'GET /projects/:id/pipelines/:pipeline_id';
