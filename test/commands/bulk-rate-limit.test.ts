import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer } from '../drills/scripted-server.js';
import { svc } from '../support/harness.js';

interface Arrival {
  id: number;
  inFlight: number;
  status: number;
}

describe('svc bulk slows every worker when the client absorbed rate limiting (#16 item 4)', () => {
  let server: Awaited<ReturnType<typeof startScriptedServer>>;
  const arrivals = new Map<string, Arrival[]>();

  /**
   * GET /projects/:id answered after 20 ms; the first `throttled` requests get 429 with
   * Retry-After: 0, which the client retries at once without telling anyone. Those refusals are
   * held until all of them have arrived, so the burst is one wave however slow the machine. With
   * `wave`, answers are held until that many wait (or the last item arrived) instead of 20 ms.
   */
  function instance(name: string, throttled: number, headers: Record<string, string> = {}, wave = 0): string {
    let inFlight = 0;
    const seen: Arrival[] = [];
    const refusals: Array<() => void> = [];
    const answers: Array<() => void> = [];
    arrivals.set(name, seen);
    return server.add(name, (req, res) => {
      const id = Number(/\/projects\/(\d+)/.exec(req.url ?? '')?.[1]);
      inFlight++;
      const status = seen.length < throttled ? 429 : 200;
      seen.push({ id, inFlight, status });
      if (status === 429) {
        refusals.push(() => {
          inFlight--;
          res.writeHead(429, { 'content-type': 'text/plain', 'retry-after': '0' }).end('Retry later');
        });
        if (refusals.length === throttled) for (const refuse of refusals) refuse();
        return;
      }
      const answer = () => {
        inFlight--;
        res.writeHead(200, { 'content-type': 'application/json', ...headers }).end(JSON.stringify({ id }));
      };
      if (!wave) return void setTimeout(answer, 20);
      answers.push(answer);
      if (answers.length === wave || seen.length === ids.length) for (const release of answers.splice(0)) release();
    });
  }

  beforeAll(async () => {
    server = await startScriptedServer();
  });
  afterAll(() => server.close());

  const ids = Array.from({ length: 24 }, (_, i) => i + 1);

  async function bulkGet(url: string) {
    const result = await svc(['bulk', '--max-in-flight', '8', '--', 'projects', 'get', '{id}', '--fields', 'id'], {
      env: { SVC_URL: url, SVC_TOKEN: 'bulk-ratelimit-token-1234' },
      input: ids.join('\n'),
    });
    const outcomes = result.stdout
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { input: string; ok: boolean; result: unknown });
    return { result, outcomes };
  }

  it('after a burst of 429s retried inside the items, the items started later run half as many at a time, and each ends once', async () => {
    const url = instance('throttled', 8);
    const { result, outcomes } = await bulkGet(url);
    expect(result.stderr).toBe('bulk: 24 ok, 0 failed\n');
    expect(result.exitCode).toBe(0);
    expect(outcomes.map((o) => Number(o.input)).sort((a, b) => a - b)).toEqual(ids);
    expect(outcomes.every((o) => o.ok && (o.result as { id: number }).id === Number(o.input))).toBe(true);
    const seen = arrivals.get('throttled') ?? [];
    // The first wave: 8 at once, all refused, all retried by the client.
    expect(seen.slice(0, 8).map((a) => a.status)).toEqual(Array(8).fill(429));
    expect(Math.max(...seen.slice(0, 8).map((a) => a.inFlight))).toBe(8);
    expect(
      seen
        .slice(8, 16)
        .map((a) => a.id)
        .sort((a, b) => a - b),
    ).toEqual(
      seen
        .slice(0, 8)
        .map((a) => a.id)
        .sort((a, b) => a - b),
    );
    // The burst of 8 refusals halved the pool once (they were all sent at the old pace): the items
    // started afterwards run 4 at a time at most.
    expect(Math.max(...seen.slice(16).map((a) => a.inFlight))).toBeLessThanOrEqual(4);
    expect(seen).toHaveLength(32);
  });

  it('with RateLimit-Remaining plenty (500), the items after the first wave still run 8 at a time', async () => {
    const url = instance('plenty', 0, { 'RateLimit-Remaining': '500' }, 8);
    const { result, outcomes } = await bulkGet(url);
    expect(result.exitCode).toBe(0);
    expect(outcomes.map((o) => Number(o.input)).sort((a, b) => a - b)).toEqual(ids);
    const seen = arrivals.get('plenty') ?? [];
    expect(seen).toHaveLength(24);
    expect(Math.max(...seen.slice(8).map((a) => a.inFlight))).toBe(8);
  });

  it('with RateLimit-Remaining nearly out (5), each wave sent after a cut halves the pool again, down to one', async () => {
    const url = instance('nearly-out', 0, { 'RateLimit-Remaining': '5' });
    const { result, outcomes } = await bulkGet(url);
    expect(result.exitCode).toBe(0);
    expect(outcomes.map((o) => Number(o.input)).sort((a, b) => a - b)).toEqual(ids);
    const seen = arrivals.get('nearly-out') ?? [];
    expect(seen).toHaveLength(24);
    // 8, then at most 4, then at most 2: from the 15th item on, one at a time.
    expect(Math.max(...seen.slice(8).map((a) => a.inFlight))).toBeLessThanOrEqual(4);
    expect(seen.slice(14).map((a) => a.inFlight)).toEqual(Array(10).fill(1));
  });
});
