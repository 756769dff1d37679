import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer } from '../drills/scripted-server.js';
import { svc } from '../support/harness.js';

const PROJECTS = 40;
const FIRST_WAVE = 8;

describe('svc tokens audit slows its requests down together when the service rate limits (#23 item 3)', () => {
  let server: Awaited<ReturnType<typeof startScriptedServer>>;
  const arrivals = new Map<string, number[]>();

  /**
   * An instance of 40 projects without groups, users or personal tokens, whose answers carry
   * `headers`. The first 8 requests for a project's tokens are answered together once all 8 are in
   * flight (the pool starts 8 wide); later ones after 10 ms. Each arrival notes how many of them
   * were in flight with it.
   */
  function instance(name: string, headers: Record<string, string>): string {
    let inFlight = 0;
    const seen: number[] = [];
    const firstWave: Array<() => void> = [];
    arrivals.set(name, seen);
    return server.add(name, (req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname.replace(`/${name}/api/v4`, '');
      const json = (body: unknown) => res.writeHead(200, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
      if (path === '/user') return json({ id: 1, username: 'root', is_admin: true });
      if (path === '/projects') {
        return json(Array.from({ length: PROJECTS }, (_, i) => ({ id: i + 1, path_with_namespace: `acme/project-${i + 1}` })));
      }
      if (/^\/projects\/\d+\/(access|deploy)_tokens$/.test(path)) {
        inFlight++;
        seen.push(inFlight);
        const answer = () => {
          inFlight--;
          json([]);
        };
        if (seen.length > FIRST_WAVE) setTimeout(answer, 10);
        else if (firstWave.push(answer) === FIRST_WAVE) for (const held of firstWave) held();
        return;
      }
      if (['/groups', '/users', '/personal_access_tokens'].includes(path)) return json([]);
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"404 Not Found"}');
    });
  }

  async function audit(url: string) {
    return svc(['tokens', 'audit', '--max-in-flight', '8'], { env: { SVC_URL: url, SVC_TOKEN: 'audit-token-1234' } });
  }

  beforeAll(async () => {
    server = await startScriptedServer();
  });
  afterAll(() => server.close());

  it('with RateLimit-Remaining plenty, reads 8 projects’ tokens at a time', async () => {
    const result = await audit(instance('plenty', { 'RateLimit-Remaining': '500' }));
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('');
    const seen = arrivals.get('plenty') ?? [];
    expect(seen).toHaveLength(2 * PROJECTS);
    expect(seen.slice(0, FIRST_WAVE)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('with RateLimit-Remaining nearly out, each wave sent after a cut halves the pool again, down to one', async () => {
    const result = await audit(instance('nearly-out', { 'RateLimit-Remaining': '3' }));
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('');
    const seen = arrivals.get('nearly-out') ?? [];
    expect(seen).toHaveLength(2 * PROJECTS);
    expect(seen.slice(0, FIRST_WAVE)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // At most 8 + 4 + 2 projects start before the pool is one wide; the other 26 go one at a time.
    expect(seen.slice(-2 * 26)).toEqual(Array(2 * 26).fill(1));
  });
});
