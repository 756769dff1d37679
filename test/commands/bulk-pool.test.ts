import { describe, expect, it } from 'vitest';
import { reportRateLimit } from '../../src/http/rate-limit-signal.js';
import type { BulkItem } from '../../src/workflows/bulk/items.js';
import { RATE_LIMIT_COOL_DOWN_MS } from '../../src/http/throttle.js';
import { runBulk, type ItemRun } from '../../src/workflows/bulk/run.js';
import { sleep } from '../../src/workflows/shared/clock.js';

async function* idsUpTo(n: number): AsyncGenerator<BulkItem> {
  for (let i = 1; i <= n; i++) yield { key: String(i), input: String(i), record: { id: String(i) } };
}

/**
 * Runs 24 items at --max-in-flight 8 where the first 8 are rate limited (a 429 reaches their HTTP
 * layer); returns how many ran at once as each started.
 */
async function startsWhenRateLimited(clockAfterItem: (id: number) => number): Promise<number[]> {
  let now = 0;
  let active = 0;
  const starts: number[] = [];
  const tally = await runBulk(idsUpTo(24), {
    template: { words: ['projects', 'get', '{id}'], roles: ['command', 'command', 'operand'] },
    prefix: [],
    maxInFlight: 8,
    dryRun: false,
    retryUnsure: false,
    signal: new AbortController().signal,
    clock: { now: () => now, sleep },
    runItem: async (argv): Promise<ItemRun> => {
      const id = Number(argv[2]);
      starts.push(++active);
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (id <= 8) reportRateLimit({ kind: 'throttled' });
      active--;
      now = clockAfterItem(id);
      return id <= 8 ? { exitCode: 7, stdout: '', stderr: 'svc: rate limited\n' } : { exitCode: 0, stdout: '{}', stderr: '' };
    },
    output: async () => {},
    report: () => {},
    progress: () => {},
  });
  expect(tally).toEqual({ ok: 16, failed: 8, skipped: 0, repeated: 0, unsure: [], unrecorded: [], inFlight: 0, stopped: false });
  return starts;
}

describe('the bulk pool under rate limiting (#16 item 4)', () => {
  it('runs one item at a time once every worker was told to slow down, for the whole cool-down', async () => {
    const starts = await startsWhenRateLimited(() => 0);
    expect(starts).toEqual([1, 2, 3, 4, 5, 6, 7, 8, ...Array(16).fill(1)]);
  });

  it('grows back by one item per success once the cool-down is over', async () => {
    const starts = await startsWhenRateLimited((id) => (id >= 9 ? RATE_LIMIT_COOL_DOWN_MS : 0));
    // After item 9 succeeds past the cool-down the pool has 2 slots, then 3, … up to 8 again.
    expect(starts.slice(0, 9)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 1]);
    expect(Math.max(...starts.slice(9))).toBe(8);
  });
});
