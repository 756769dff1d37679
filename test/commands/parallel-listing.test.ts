import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer } from '../drills/scripted-server.js';
import { svc } from '../support/harness.js';
import { useSandbox } from './support.js';

const ids = (stdout: string) =>
  stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => (JSON.parse(line) as { id: number }).id);

describe('svc projects list --all --parallel N against the sandbox, under faults (#16 item 2)', () => {
  const suite = useSandbox({ projects: 1500, faults: '429=0.05,503=0.05,reset=0.02', faultSeed: 11 });

  it.each([[[]], [['--sort', 'asc']], [['--visibility', 'private']], [['--search', 'walrus', '--per-page', '7']]])(
    'writes exactly the records of the sequential listing, in the same order, with %j',
    async (filters) => {
      const sequential = await suite.run(['projects', 'list', '--all', ...filters, '-o', 'ndjson']);
      const parallel = await suite.run(['projects', 'list', '--all', '--parallel', '6', ...filters, '-o', 'ndjson']);
      expect(sequential.exitCode).toBe(0);
      expect(parallel.exitCode).toBe(0);
      expect(parallel.stdout).toBe(sequential.stdout);
      const listed = ids(parallel.stdout);
      expect(new Set(listed).size).toBe(listed.length);
    },
  );

  it('refuses --parallel without --all, and with an order other than id', async () => {
    expect(await suite.run(['projects', 'list', '--parallel', '4'])).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: 'svc: --parallel needs --all (it splits the whole listing into id ranges)\n',
    });
    expect(await suite.run(['projects', 'list', '--all', '--parallel', '4', '--order-by', 'name'])).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: 'svc: --parallel lists in id order only; drop --order-by or give --order-by id\n',
    });
  });
});

describe('svc projects list --all --parallel N over ranges of very different density (#16 item 2)', () => {
  // 300 consecutive ids, then a few ids scattered over 30,000: most ranges are empty, one holds almost everything.
  // (About a hundred ranges: enough to show the sparse ones cost one request each, cheap enough for a busy machine.)
  const existing = [...Array.from({ length: 300 }, (_, i) => 1000 + i), 5000, 12_000, 12_001, 21_111, 30_000];
  let server: Awaited<ReturnType<typeof startScriptedServer>>;
  let url = '';
  const asked: Array<{ after: number; before: number }> = [];

  beforeAll(async () => {
    server = await startScriptedServer();
    url = server.add('density', (req, res) => {
      const query = new URL(req.url ?? '/', 'http://x').searchParams;
      const after = Number(query.get('id_after') ?? Number.NEGATIVE_INFINITY);
      const before = Number(query.get('id_before') ?? Number.POSITIVE_INFINITY);
      const perPage = Number(query.get('per_page') ?? 20);
      asked.push({ after, before });
      const inRange = existing.filter((id) => id > after && id < before);
      const ordered = query.get('sort') === 'asc' ? inRange : [...inRange].reverse();
      const page = ordered.slice(0, perPage).map((id) => ({ id, path_with_namespace: `group/project-${id}` }));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(page));
    });
  });
  afterAll(() => server.close());

  it('writes every record once, newest first, and asks each range only for ids inside it', async () => {
    const result = await svc(['projects', 'list', '--all', '--parallel', '8', '-o', 'ndjson'], {
      env: { SVC_URL: url, SVC_TOKEN: 'density-token-1234' },
    });
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(ids(result.stdout)).toEqual([...existing].reverse());
    const walks = asked.filter((a) => Number.isFinite(a.after) && Number.isFinite(a.before));
    // Ranges of at most 300 ids over 1,000..30,000: the sparse ones cost one request each.
    for (const walk of walks) expect(walk.before - walk.after - 1).toBeLessThanOrEqual(300);
    // 97 ranges of 300 ids over 1,000..30,000, one request each, and two more pages of 100 for the dense one.
    expect(walks.length).toBe(97 + 2);
  });
});

describe('svc projects list --all --parallel N slows every worker down together (#16 item 2)', () => {
  let server: Awaited<ReturnType<typeof startScriptedServer>>;
  const arrivals = new Map<string, number[]>();

  /**
   * 2,000 consecutive ids, answered after 10 ms; each arrival notes how many requests were in flight
   * with it. The `throttled` requests after the two bound requests get 429 with Retry-After: 0,
   * which the client retries at once on its own.
   */
  function instance(name: string, headers: Record<string, string>, throttled = 0): string {
    let inFlight = 0;
    arrivals.set(name, []);
    return server.add(name, (req, res) => {
      inFlight++;
      const seen = arrivals.get(name) ?? [];
      seen.push(inFlight);
      if (seen.length > 2 && seen.length <= 2 + throttled) {
        setTimeout(() => {
          inFlight--;
          res.writeHead(429, { 'content-type': 'text/plain', 'retry-after': '0' }).end('Retry later');
        }, 10);
        return;
      }
      const query = new URL(req.url ?? '/', 'http://x').searchParams;
      const after = Number(query.get('id_after') ?? 0);
      const before = Number(query.get('id_before') ?? 2001);
      const perPage = Number(query.get('per_page') ?? 20);
      const inRange = Array.from({ length: 2000 }, (_, i) => i + 1).filter((id) => id > after && id < before);
      const ordered = query.get('sort') === 'asc' ? inRange : inRange.reverse();
      const page = ordered.slice(0, perPage).map((id) => ({ id }));
      setTimeout(() => {
        inFlight--;
        res.writeHead(200, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(page));
      }, 10);
    });
  }

  beforeAll(async () => {
    server = await startScriptedServer();
  });
  afterAll(() => server.close());

  it('with RateLimit-Remaining plenty, requests after the first wave run 8 at a time', async () => {
    const url = instance('plenty', { 'RateLimit-Remaining': '500' });
    const result = await svc(['projects', 'list', '--all', '--parallel', '8', '--per-page', '20', '-o', 'ndjson'], {
      env: { SVC_URL: url, SVC_TOKEN: 'ratelimit-token-1234' },
    });
    expect(result.exitCode).toBe(0);
    expect(ids(result.stdout)).toEqual(Array.from({ length: 2000 }, (_, i) => 2000 - i));
    // The two bound requests and a first wave of 8 go out before any answer says anything.
    expect(Math.max(...(arrivals.get('plenty') ?? []).slice(10))).toBe(8);
  });

  it('with RateLimit-Remaining nearly out, each wave sent after a cut halves the pool again, down to one', async () => {
    const url = instance('nearly-out', { 'RateLimit-Remaining': '3' });
    const result = await svc(['projects', 'list', '--all', '--parallel', '8', '--per-page', '20', '-o', 'ndjson'], {
      env: { SVC_URL: url, SVC_TOKEN: 'ratelimit-token-1234' },
    });
    expect(result.exitCode).toBe(0);
    expect(ids(result.stdout)).toEqual(Array.from({ length: 2000 }, (_, i) => 2000 - i));
    const seen = arrivals.get('nearly-out') ?? [];
    expect(Math.max(...seen.slice(10))).toBeLessThan(8);
    expect(seen.slice(-50)).toEqual(Array(50).fill(1));
  });

  it('after a burst of 429s the client retried on its own, requests after the retries run half as many at a time', async () => {
    const url = instance('throttled', { 'RateLimit-Remaining': '500' }, 8);
    const result = await svc(['projects', 'list', '--all', '--parallel', '8', '--per-page', '20', '-o', 'ndjson'], {
      env: { SVC_URL: url, SVC_TOKEN: 'ratelimit-token-1234' },
    });
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(ids(result.stdout)).toEqual(Array.from({ length: 2000 }, (_, i) => 2000 - i));
    const seen = arrivals.get('throttled') ?? [];
    expect(Math.max(...seen.slice(2, 10))).toBe(8);
    // The 8 refused requests are retried (still in flight together); the burst halved the pool once.
    expect(Math.max(...seen.slice(18))).toBeLessThanOrEqual(4);
  });
});
