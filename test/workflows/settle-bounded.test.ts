import { describe, expect, it } from 'vitest';
import { reportRateLimit } from '../../src/http/rate-limit-signal.js';
import { RATE_LIMIT_COOL_DOWN_MS, Throttle } from '../../src/http/throttle.js';
import { settleBounded, type BoundedSettle, type Settled } from '../../src/workflows/shared/bounded.js';
import { FakeClock } from '../storage-move/fake-clock.js';

type End = { value: string; throttled?: boolean } | { error: Error };

/** Work whose items end only when the test says so, counting how many run at once. */
class Jobs {
  readonly started: string[] = [];
  peak = 0;
  private inFlight = 0;
  private readonly pending = new Map<string, (end: End) => void>();

  readonly work = async (item: string): Promise<string> => {
    this.started.push(item);
    this.inFlight++;
    this.peak = Math.max(this.peak, this.inFlight);
    try {
      const end = await new Promise<End>((resolve) => this.pending.set(item, resolve));
      if ('error' in end) throw end.error;
      // Heard while the item runs, as the HTTP layer would report a 429 it retried.
      if (end.throttled) reportRateLimit({ kind: 'throttled' });
      return end.value;
    } finally {
      this.inFlight--;
    }
  };

  /** The items under way, in the order they started. */
  get running(): string[] {
    return [...this.pending.keys()];
  }

  end(item: string, end: End): void {
    const resolve = this.pending.get(item);
    if (resolve === undefined) throw new Error(`${item} is not running`);
    this.pending.delete(item);
    resolve(end);
  }
}

/** Lets every promise that can settle do so (no time passes). */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

function runOf(clock = new FakeClock(), signal = new AbortController().signal, width = 3): BoundedSettle<string, string> {
  return { throttle: new Throttle(width, clock), signal };
}

/** Asks for the next outcome, then ends `item`: the items under way just before, and the outcome. */
async function endNext(outcomes: AsyncGenerator<Settled<string, string>>, jobs: Jobs, item: string, end: End) {
  const next = outcomes.next();
  await turn();
  const running = jobs.running;
  jobs.end(item, end);
  return { running, outcome: (await next).value };
}

describe('settleBounded', () => {
  it('starts items in their order, never more than the bound at once, and gives outcomes in the order they end', async () => {
    const jobs = new Jobs();
    const outcomes = settleBounded(['a', 'b', 'c', 'd', 'e', 'f', 'g'], runOf(), jobs.work);
    const failure = new Error('a failed');
    const steps: Array<[string, End, string[]]> = [
      ['c', { value: 'C' }, ['a', 'b', 'c']],
      ['a', { error: failure }, ['a', 'b', 'd']],
      ['b', { value: 'B' }, ['b', 'd', 'e']],
      ['f', { value: 'F' }, ['d', 'e', 'f']],
      ['d', { value: 'D' }, ['d', 'e', 'g']],
      ['g', { value: 'G' }, ['e', 'g']],
      ['e', { value: 'E' }, ['e']],
    ];
    const seen: Array<{ running: string[]; outcome: unknown }> = [];
    for (const [item, end] of steps) seen.push(await endNext(outcomes, jobs, item, end));
    expect(seen).toEqual(
      steps.map(([item, end, running]) => ({
        running,
        outcome: 'error' in end ? { item, ok: false, error: failure } : { item, ok: true, value: end.value },
      })),
    );
    expect((seen[1]?.outcome as { error: unknown }).error).toBe(failure);
    expect(await outcomes.next()).toEqual({ done: true, value: undefined });
    expect(jobs.started).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
    expect(jobs.peak).toBe(3);
  });

  it('starts nothing new once the signal is aborted, and still gives the outcome of every item under way', async () => {
    const jobs = new Jobs();
    const interrupt = new AbortController();
    const outcomes = settleBounded(['a', 'b', 'c', 'd', 'e'], runOf(new FakeClock(), interrupt.signal), jobs.work);
    const first = outcomes.next();
    await turn();
    expect(jobs.running).toEqual(['a', 'b', 'c']);
    interrupt.abort();
    jobs.end('b', { value: 'B' });
    expect(await first).toEqual({ done: false, value: { item: 'b', ok: true, value: 'B' } });
    let ended = false;
    const second = outcomes.next().then((next) => {
      ended = true;
      return next;
    });
    await turn();
    expect(ended).toBe(false);
    expect(jobs.running).toEqual(['a', 'c']);
    jobs.end('c', { error: new Error('c failed') });
    expect(await second).toEqual({ done: false, value: { item: 'c', ok: false, error: new Error('c failed') } });
    const third = outcomes.next();
    await turn();
    expect(jobs.running).toEqual(['a']);
    jobs.end('a', { value: 'A' });
    expect(await third).toEqual({ done: false, value: { item: 'a', ok: true, value: 'A' } });
    expect(await outcomes.next()).toEqual({ done: true, value: undefined });
    expect(jobs.started).toEqual(['a', 'b', 'c']);
  });

  it('starts nothing when the signal is aborted before the first item', async () => {
    const jobs = new Jobs();
    const interrupt = new AbortController();
    interrupt.abort();
    const outcomes = settleBounded(['a', 'b'], runOf(new FakeClock(), interrupt.signal), jobs.work);
    expect(await outcomes.next()).toEqual({ done: true, value: undefined });
    expect(jobs.started).toEqual([]);
  });

  it('starts nothing new after an outcome stopAfter names, and gives the outcomes of the items already under way', async () => {
    const jobs = new Jobs();
    const run: BoundedSettle<string, string> = {
      ...runOf(new FakeClock(), new AbortController().signal, 2),
      stopAfter: (outcome) => !outcome.ok,
    };
    const outcomes = settleBounded(['a', 'b', 'c', 'd', 'e'], run, jobs.work);
    const refused = new Error('403 Forbidden');
    expect(await endNext(outcomes, jobs, 'a', { value: 'A' })).toEqual({
      running: ['a', 'b'],
      outcome: { item: 'a', ok: true, value: 'A' },
    });
    expect(await endNext(outcomes, jobs, 'c', { error: refused })).toEqual({
      running: ['b', 'c'],
      outcome: { item: 'c', ok: false, error: refused },
    });
    expect(await endNext(outcomes, jobs, 'b', { value: 'B' })).toEqual({ running: ['b'], outcome: { item: 'b', ok: true, value: 'B' } });
    expect(await outcomes.next()).toEqual({ done: true, value: undefined });
    expect(jobs.started).toEqual(['a', 'b', 'c']);
  });

  it('awaits the items under way when the reader stops early, and starts no other', async () => {
    const jobs = new Jobs();
    const outcomes = settleBounded(['a', 'b', 'c', 'd'], runOf(), jobs.work);
    expect(await endNext(outcomes, jobs, 'b', { value: 'B' })).toEqual({
      running: ['a', 'b', 'c'],
      outcome: { item: 'b', ok: true, value: 'B' },
    });
    let closed = false;
    const closing = outcomes.return(undefined).then((next) => {
      closed = true;
      return next;
    });
    await turn();
    expect(closed).toBe(false);
    jobs.end('a', { value: 'A' });
    await turn();
    expect(closed).toBe(false);
    jobs.end('c', { error: new Error('c failed') });
    expect(await closing).toEqual({ done: true, value: undefined });
    expect(jobs.started).toEqual(['a', 'b', 'c']);
  });

  it('halves the bound when an item hears the service rate limit, and grows it by one a success after the cool-down', async () => {
    const clock = new FakeClock();
    const jobs = new Jobs();
    const outcomes = settleBounded(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'], runOf(clock, new AbortController().signal, 4), jobs.work);
    const step = (item: string, end: End) => endNext(outcomes, jobs, item, end);
    expect((await step('a', { value: 'A', throttled: true })).running).toEqual(['a', 'b', 'c', 'd']);
    // Bound 2: three are still under way, so nothing starts until only one is left.
    expect((await step('b', { value: 'B' })).running).toEqual(['b', 'c', 'd']);
    expect((await step('c', { value: 'C' })).running).toEqual(['c', 'd']);
    expect((await step('d', { value: 'D' })).running).toEqual(['d', 'e']);
    await clock.advance(RATE_LIMIT_COOL_DOWN_MS);
    // A success within the cool-down left the bound at 2; this one after it makes it 3.
    expect((await step('e', { value: 'E' })).running).toEqual(['e', 'f']);
    expect((await step('f', { value: 'F' })).running).toEqual(['f', 'g', 'h']);
    expect((await step('g', { value: 'G' })).running).toEqual(['g', 'h']);
    expect((await step('h', { value: 'H' })).running).toEqual(['h']);
    expect(await outcomes.next()).toEqual({ done: true, value: undefined });
    expect(jobs.peak).toBe(4);
  });
});
