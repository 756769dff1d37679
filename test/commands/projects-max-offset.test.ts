import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, projects, startScriptedServer } from '../drills/scripted-server.js';
import { parseNdjson, svc } from '../support/harness.js';
import { req } from '../sandbox/helpers.js';
import { useSandbox } from './support.js';

// Offset paging stops at 200 records here; the service's default is 50,000.
const suite = useSandbox({ projects: 250, maxOffset: 200 });

const HINT = (limit: string) => `svc: the service stops offset paging at ${limit}; --order-by id (keyset paging) lists them all\n`;

describe('projects list past the maximum offset', () => {
  it('prints what offset paging reached, then says that --order-by id lists them all (exit 6, as the 405)', async () => {
    const result = await suite.run(['projects', 'list', '--all', '--order-by', 'name', '--sort', 'asc', '-o', 'ndjson', '--fields', 'id']);
    const byName: number[] = [];
    for (const page of [1, 2]) {
      const res = await req(suite.sandbox.url, `/api/v4/projects?order_by=name&sort=asc&per_page=100&page=${page}`, {
        token: suite.sandbox.tokens.admin,
      });
      byName.push(...(res.json as Array<{ id: number }>).map((p) => p.id));
    }
    expect(result.stderr).toBe(HINT('200 records'));
    expect(result.exitCode).toBe(6);
    expect(parseNdjson(result.stdout).map((p) => (p as { id: number }).id)).toEqual(byName);
  });

  it('lists every project with --order-by id', async () => {
    const result = await suite.run(['projects', 'list', '--all', '--order-by', 'id', '-o', 'ndjson', '--fields', 'id']);
    expect([result.exitCode, result.stderr]).toEqual([0, '']);
    expect(parseNdjson(result.stdout).map((p) => (p as { id: number }).id)).toEqual(Array.from({ length: 250 }, (_, i) => 250 - i));
  });
});

describe("projects list and the service's own maximum offset", () => {
  let server: Awaited<ReturnType<typeof startScriptedServer>>;
  beforeAll(async () => {
    server = await startScriptedServer();
  });
  afterAll(() => server.close());

  /** A first page of two projects, then the service's 405 for the second. */
  function cappedAfterOnePage(name: string, error: string): string {
    return server.add(name, (req, res, ctx) => {
      const secondPage = new URL(req.url ?? '/', ctx.base).searchParams.get('page') === '2';
      const answer = secondPage
        ? json(405, { error })
        : json(200, projects(1, 2), { link: `<${ctx.base}/api/v4/projects?order_by=name&page=2&per_page=2>; rel="next"` });
      answer(req, res, ctx);
    });
  }

  it('names the limit the service gave, 50,000 by default', async () => {
    const url = cappedAfterOnePage(
      'default-limit',
      'Offset pagination has a maximum allowed offset of 50000 for requests that return objects of type Project. Remaining records can be retrieved using keyset pagination.',
    );
    const result = await svc(['projects', 'list', '--all', '--order-by', 'name', '--per-page', '2', '-o', 'ndjson', '--fields', 'id'], {
      env: { SVC_URL: url, SVC_TOKEN: 'scripted-token-0123456789' },
    });
    expect(result).toEqual({ exitCode: 6, stdout: '{"id":1}\n{"id":2}\n', stderr: HINT('50,000 records') });
  });

  it('says "its maximum offset" when the 405 names no number', async () => {
    const url = cappedAfterOnePage(
      'no-number',
      'Offset pagination has a maximum allowed offset for requests that return objects of type Project.',
    );
    const result = await svc(['projects', 'list', '--all', '--order-by', 'name', '--per-page', '2', '-o', 'ndjson', '--fields', 'id'], {
      env: { SVC_URL: url, SVC_TOKEN: 'scripted-token-0123456789' },
    });
    expect(result).toEqual({ exitCode: 6, stdout: '{"id":1}\n{"id":2}\n', stderr: HINT('its maximum offset') });
  });
});
