import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { cleanupTempDirs, parseNdjson, svc } from '../support/harness.js';
import { sandboxEnv, startTestSandbox } from '../support/sandbox.js';
import { json, startServer } from './servers.js';

const PROJECTS = 10_050;
let big: Sandbox;

beforeAll(async () => {
  big = await startTestSandbox({ projects: PROJECTS });
});
afterAll(async () => {
  await big.close();
  cleanupTempDirs();
});
beforeEach(() => big.clearRequests());

const ids = (stdout: string) => (parseNdjson(stdout) as Array<{ id: number }>).map((r) => r.id);

function expectEveryRecordOnce(list: number[], count: number): void {
  expect(list).toHaveLength(count);
  expect(new Set(list).size).toBe(count);
}

describe('pagination against the sandbox', () => {
  it('follows offset pages past 10,000 records, where totals and rel="last" disappear', async () => {
    const env = sandboxEnv(big);
    const head = await svc(['api', '-i', 'projects?per_page=100&order_by=id&sort=asc'], { env });
    expect(head.stdout).not.toMatch(/^x-total:/m);
    expect(head.stdout).not.toMatch(/rel="last"/);
    expect(head.stdout).toMatch(/rel="next"/);
    const withTotals = await svc(['api', '-i', 'projects?per_page=5&search=zzz-no-such-project'], { env });
    expect(withTotals.stdout).toMatch(/^x-total: 0$/m);

    big.clearRequests();
    const all = await svc(['api', 'projects?per_page=100&order_by=id&sort=asc', '--paginate', '-o', 'ndjson', '--fields', 'id'], { env });
    expect(all.exitCode).toBe(0);
    const list = ids(all.stdout);
    expectEveryRecordOnce(list, PROJECTS);
    expect(big.requests()).toHaveLength(Math.ceil(PROJECTS / 100));
    expect(
      big
        .requests()
        .slice(1)
        .every((r) => /(^|&)page=\d+/.test(r.rawQuery)),
    ).toBe(true);
  });

  it('pages a filtered list that carries totals, reading exactly x-total records', async () => {
    const env = sandboxEnv(big);
    const word = big.state.project(1)!.name.split(/[^a-z]+/i)[0] as string;
    const query = `projects?per_page=20&search=${encodeURIComponent(word)}`;
    const head = await svc(['api', '-i', query], { env });
    const total = Number(/^x-total: (\d+)$/m.exec(head.stdout)?.[1]);
    expect(total).toBeGreaterThan(20);
    expect(total).toBeLessThan(10_000);
    big.clearRequests();
    const all = await svc(['api', query, '--paginate'], { env });
    expect(all.exitCode).toBe(0);
    expectEveryRecordOnce(
      (JSON.parse(all.stdout) as Array<{ id: number }>).map((p) => p.id),
      total,
    );
    expect(big.requests()).toHaveLength(Math.ceil(total / 20));
  });

  it('--all on projects uses keyset by id and returns every record once', async () => {
    const result = await svc(['projects', 'list', '--all', '-o', 'ndjson', '--fields', 'id'], { env: sandboxEnv(big) });
    expect(result.exitCode).toBe(0);
    const list = ids(result.stdout);
    expectEveryRecordOnce(list, PROJECTS);
    // Newest first, as the service's own default order and as `--limit` shows it.
    expect(list).toEqual([...list].sort((a, b) => b - a));
    const first = big.requests()[0]!;
    expect(first.rawQuery).toMatch(/pagination=keyset/);
    expect(first.rawQuery).toMatch(/order_by=id/);
    expect(first.rawQuery).toMatch(/sort=desc/);
    expect(
      big
        .requests()
        .slice(1)
        .every((r) => /id_before=\d+/.test(r.rawQuery)),
    ).toBe(true);
    expect(result.stderr).not.toMatch(/more exist/);
  });

  it('--limit stops early without a hint; the default limit says on stderr that more exist', async () => {
    const env = sandboxEnv(big);
    const five = await svc(['projects', 'list', '--limit', '5', '-o', 'ndjson'], { env });
    expect(ids(five.stdout)).toHaveLength(5);
    expect(big.requests()).toHaveLength(1);
    expect(big.requests()[0]?.rawQuery).toMatch(/per_page=5/);
    expect(five.stderr).toBe('');

    big.clearRequests();
    const some = await svc(['projects', 'list', '--limit', '150', '-o', 'ndjson'], { env });
    expect(ids(some.stdout)).toHaveLength(150);
    expect(big.requests()).toHaveLength(2);
    expect(some.stderr).toBe('');

    const byDefault = await svc(['projects', 'list', '-o', 'ndjson'], { env });
    expect(ids(byDefault.stdout)).toHaveLength(100);
    expect(byDefault.stderr).toBe('showing the first 100 records; more exist (use --all or --limit N)\n');
  });

  it('follows the users keyset cursor verbatim', async () => {
    const result = await svc(['api', 'users?pagination=keyset&order_by=id&sort=asc&per_page=2', '--paginate', '-o', 'ndjson'], {
      env: sandboxEnv(big),
    });
    expect(result.exitCode).toBe(0);
    const list = ids(result.stdout);
    expect(list.length).toBeGreaterThan(2);
    expectEveryRecordOnce(list, list.length);
    expect(
      big
        .requests()
        .slice(1)
        .every((r) => /cursor=|id_after=/.test(r.rawQuery)),
    ).toBe(true);
  });
});

describe('the maximum offset', () => {
  let capped: Sandbox;
  beforeAll(async () => {
    capped = await startTestSandbox({ projects: 200, maxOffset: 50 });
  });
  afterAll(() => capped.close());
  beforeEach(() => capped.clearRequests());

  it('switches from offset to keyset on the 405 without losing or repeating a record', async () => {
    const result = await svc(
      ['projects', 'list', '--order-by', 'id', '--sort', 'asc', '--per-page', '2', '--limit', '100', '-o', 'ndjson', '--debug'],
      {
        env: sandboxEnv(capped),
      },
    );
    expect(result.exitCode).toBe(0);
    const list = ids(result.stdout);
    expectEveryRecordOnce(list, 100);
    expect(list).toEqual([...list].sort((a, b) => a - b));
    expect(capped.requests().filter((r) => r.status === 405)).toHaveLength(1);
    expect(capped.requests().at(-1)?.rawQuery).toMatch(/pagination=keyset/);
    expect(result.stderr).toMatch(/continuing with keyset pagination/);
  });

  it('continues newest-first with id_before when the order is by id descending', async () => {
    const result = await svc(['projects', 'list', '--order-by', 'id', '--per-page', '2', '--limit', '100', '-o', 'ndjson'], {
      env: sandboxEnv(capped),
    });
    expect(result.exitCode, result.stderr).toBe(0);
    const list = ids(result.stdout);
    expectEveryRecordOnce(list, 100);
    expect(list).toEqual(Array.from({ length: 100 }, (_, i) => 200 - i));
    expect(capped.requests().filter((r) => r.status === 405)).toHaveLength(1);
    expect(capped.requests().at(-1)?.rawQuery).toMatch(/id_before=\d+/);
  });

  it('a list that fails part-way prints no JSON document, while ndjson keeps the records received', async () => {
    const env = sandboxEnv(capped);
    const asJson = await svc(['projects', 'list', '--all', '--order-by', 'name', '--per-page', '10', '-o', 'json'], { env });
    expect(asJson.exitCode).toBe(6);
    expect(asJson.stdout).toBe('');
    expect(asJson.stderr).toBe('svc: the service stops offset paging at 50 records; --order-by id (keyset paging) lists them all\n');

    const asNdjson = await svc(['projects', 'list', '--all', '--order-by', 'name', '--per-page', '10', '-o', 'ndjson'], { env });
    expect(asNdjson.exitCode).toBe(6);
    expectEveryRecordOnce(ids(asNdjson.stdout), 50);
  });
});

describe('a server that dies part-way', () => {
  it('json prints nothing, ndjson keeps the first page', async () => {
    const dying = await startServer((req, res) => {
      if (/page=2/.test(req.url)) return res.socket?.destroy();
      const base = `http://${req.headers.host}/api/v4/projects`;
      json(res, 200, [{ id: 1 }, { id: 2 }, { id: 3 }], { link: `<${base}?page=2&per_page=3>; rel="next"` });
    });
    const env = { SVC_URL: dying.url, SVC_TOKEN: 'z'.repeat(24) };
    const asJson = await svc(['projects', 'list', '--limit', '6', '--per-page', '3', '--retries', '0', '-o', 'json'], { env });
    const asNdjson = await svc(['projects', 'list', '--limit', '6', '--per-page', '3', '--retries', '0', '-o', 'ndjson'], { env });
    await dying.close();
    expect(asJson.exitCode).toBe(1);
    expect(asJson.stdout).toBe('');
    expect(asJson.stderr).toMatch(/the server closed the connection|connection reset/);
    expect(asNdjson.exitCode).toBe(1);
    expect(ids(asNdjson.stdout)).toEqual([1, 2, 3]);
  });
});
