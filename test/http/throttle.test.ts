import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_LIMIT_COOL_DOWN_MS, Throttle } from '../../src/http/throttle.js';
import { startScriptedServer } from '../drills/scripted-server.js';
import { client } from './support.js';

/** Lets every promise that can settle do so (no time passes). */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('the throttle (#23 item 3)', () => {
  let server: Awaited<ReturnType<typeof startScriptedServer>>;
  let url = '';

  beforeAll(async () => {
    server = await startScriptedServer();
    // `/limited` is refused once with a 429 the client retries at once, then answered; `/fine` always answered.
    let refused = false;
    url = server.add('throttle', (req, res) => {
      if (req.url?.endsWith('/limited') && !refused) {
        refused = true;
        res.writeHead(429, { 'content-type': 'text/plain', 'retry-after': '0' }).end('Retry later');
        return;
      }
      if (req.url?.endsWith('/limited')) refused = false;
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    });
  });
  afterAll(() => server.close());

  it('is one per client: every run on it shares the width a rate-limited request left, and widens after the cool-down', async () => {
    let now = 0;
    const clock = { now: () => now };
    const http = client(url, { retries: 1 });
    const throttle = http.throttle(4, clock);
    expect(throttle.current).toBe(4);
    expect((await throttle.run(() => http.request({ path: '/limited' }))).status).toBe(200);
    expect(throttle.current).toBe(2);
    expect(http.throttle(8, clock)).toBe(throttle);
    expect(client(url).throttle(4, clock).current).toBe(4);
    await throttle.run(() => http.request({ path: '/fine' }));
    expect(throttle.current).toBe(2);
    now = RATE_LIMIT_COOL_DOWN_MS;
    await throttle.run(() => http.request({ path: '/fine' }));
    expect(throttle.current).toBe(3);
  });

  it('tells a throttle around another one too, as a bulk item running a --parallel listing does', async () => {
    const clock = { now: () => 0 };
    const http = client(url, { retries: 1 });
    const outer = new Throttle(8, clock);
    const inner = http.throttle(4, clock);
    await outer.watch(() => inner.run(() => http.request({ path: '/limited' })));
    expect([outer.current, inner.current]).toEqual([4, 2]);
  });

  it('hands out no more slots than its width, and a freed slot to the one waiting longest', async () => {
    const throttle = new Throttle(2);
    const taken: string[] = [];
    const take = (name: string) => throttle.acquire().then(() => taken.push(name));
    void take('a');
    void take('b');
    void take('c');
    void take('d');
    await turn();
    expect(taken).toEqual(['a', 'b']);
    throttle.release();
    await turn();
    expect(taken).toEqual(['a', 'b', 'c']);
    throttle.release();
    await turn();
    expect(taken).toEqual(['a', 'b', 'c', 'd']);
  });
});
