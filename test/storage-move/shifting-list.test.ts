import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { HttpClient } from '../../src/http/client.js';
import { moveHistory, type StorageMove } from '../../src/api/storage-moves.js';
import { SvcError } from '../../src/errors.js';
import { svc } from '../support/harness.js';
import { startScriptedServer } from '../drills/scripted-server.js';
import { env, idsOn, sandboxPerTest, SCHEDULE_PROJECTS, waitUntil } from './helpers.js';
import { startProxy } from './hang-proxy.js';

// A bulk job adds moves at the front of the newest-first list while svc reads it. A list that
// shifts by exactly one page between two reads returns the same records twice in a row, which the
// listing's loop guard took for a request loop (issue #21 item 1). The proxy test sets that shift
// up exactly; the 20,000-project runs check the whole watch against the sandbox's own bulk job.

const sandbox = sandboxPerTest();
const PER_PAGE = 100;

function move(id: number): StorageMove {
  return {
    id,
    created_at: '2026-01-01T00:00:00.000Z',
    state: 'scheduled',
    source_storage_name: 'default',
    destination_storage_name: 'storage2',
    project: { id, path_with_namespace: `group/project-${id}` },
  };
}

let server: Awaited<ReturnType<typeof startScriptedServer>>;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());

function client(baseUrl: string): HttpClient {
  return new HttpClient({
    baseUrl,
    credentials: { token: 'shift-token', type: 'private' },
    userAgent: 'svc-test',
    signal: new AbortController().signal,
  });
}

/** A newest-first move list of `size` moves that grows by `growth[n]` moves after the nth page served. */
function growingList(name: string, size: number, growth: number[]): { url: string; served: () => number } {
  let newest = size;
  let served = 0;
  const url = server.add(name, (req, res) => {
    const page = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page') ?? 1);
    const ids = Array.from({ length: newest }, (_, i) => newest - i).slice((page - 1) * PER_PAGE, page * PER_PAGE);
    const hasNext = page * PER_PAGE < newest;
    newest += growth[served] ?? 0;
    served++;
    // As the service does: the next page by number, in X-Next-Page and in Link.
    const next = new URL(req.url ?? '/', `http://${req.headers.host}`);
    next.searchParams.set('page', String(page + 1));
    res
      .writeHead(200, {
        'content-type': 'application/json',
        'x-next-page': hasNext ? String(page + 1) : '',
        ...(hasNext ? { link: `<${next.href}>; rel="next"` } : {}),
      })
      .end(JSON.stringify(ids.map(move)));
  });
  return { url, served: () => served };
}

describe('the newest-first move list, read while it grows', () => {
  it('yields every move once when the list shifts by exactly one page between reads', async () => {
    const list = growingList('shift', 500, [PER_PAGE, PER_PAGE, 30]);
    const seen: number[] = [];
    let pages = 0;
    for await (const page of moveHistory(client(list.url), 'project', PER_PAGE)) {
      pages++;
      seen.push(...page.items.map((m) => m.id));
      if (seen.includes(1)) break;
    }
    // Pages 1, 2 and 3 all hold moves 500..401 (the list grew by a page twice); page 4 holds 430..331.
    expect(seen).toEqual(Array.from({ length: 500 }, (_, i) => 500 - i));
    expect(list.served()).toBe(pages);
    expect(pages).toBe(8);
  });

  it('storage-move list --all lists every move once while the list grows at its front', async () => {
    // The first request is the probe for the newest move; the list then grows by a page after pages 1 and 2.
    const list = growingList('shift-cli', 300, [0, PER_PAGE, PER_PAGE]);
    const result = await svc(['storage-move', 'list', '--kind', 'projects', '--all', '-o', 'ndjson', '--fields', 'id'], {
      env: { SVC_URL: list.url, SVC_TOKEN: 'shift-token' },
    });
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    const ids = result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => (JSON.parse(line) as { id: number }).id);
    // Every move there when the listing started, once; moves added meanwhile may show too, once.
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => id <= 300)).toEqual(Array.from({ length: 300 }, (_, i) => 300 - i));
    expect(ids.every((id) => id <= 500)).toBe(true);
    expect(list.served()).toBeGreaterThanOrEqual(4);
  });

  it('stops with one line when the pages never bring a record not read before', async () => {
    const url = server.add('stuck', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-next-page': '2' }).end(JSON.stringify([move(7), move(6)]));
    });
    const walk = async () => {
      for await (const page of moveHistory(client(url), 'project', PER_PAGE)) void page;
    };
    const error = await walk().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SvcError);
    expect((error as SvcError).message).toBe(
      'GET /project_repository_storage_moves kept returning moves already read for 1000 pages; stopping',
    );
    expect(server.hits('stuck')).toBe(1002);
  });
});

/**
 * Passes requests on to the sandbox. A move-list read waits for the bulk job to finish, so page 1
 * is known; before the first read of page 2, 100 moves of other projects are created, so page 2
 * holds exactly what page 1 held.
 */
async function shiftingProxy(sb: Sandbox, others: number[]) {
  let shifted = false;
  const grow = async () => {
    for (const id of others) {
      const res = await fetch(`${sb.url}/api/v4/projects/${id}/repository_storage_moves`, {
        method: 'POST',
        headers: { 'PRIVATE-TOKEN': sb.tokens.admin, 'content-type': 'application/json' },
        body: JSON.stringify({ destination_storage_name: 'storage2' }),
      });
      expect(res.status).toBe(201);
    }
  };
  const proxy = await startProxy(sb.url, (req) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const before = async () => {
      if (req.method !== 'GET' || url.pathname !== '/api/v4/project_repository_storage_moves') return;
      await waitUntil(() => sb.state.bulkInProgress() === 0);
      if (url.searchParams.get('page') !== '2' || shifted) return;
      shifted = true;
      await grow();
    };
    return before();
  });
  return { ...proxy, shifted: () => shifted };
}

describe('schedule --wait while the move list shifts by one page', () => {
  it('goes on watching (here to its --wait-timeout: exit 8, the summary and the resume command)', async () => {
    // Moves wait 10 minutes before they start, so every record stays the same while it is read.
    const sb = await sandbox({ projects: 250, moveMs: 600_000, storages: ['default', 'storage2', 'storage3'] });
    const onDefault = idsOn(sb, 'project', 'default');
    const others = onDefault.slice(-100);
    for (const id of others) sb.state.setProjectStorage(id, 'storage3');
    const staying = idsOn(sb, 'project', 'default');
    const proxy = await shiftingProxy(sb, others);
    try {
      const r = await svc([...SCHEDULE_PROJECTS, '--wait', '--interval', '0.2', '--wait-timeout', '3', '-o', 'json'], {
        env: { ...env(sb), SVC_URL: proxy.url },
      });
      expect(proxy.shifted()).toBe(true);
      expect(r.exitCode).toBe(8);
      expect(r.stderr).not.toContain('same records');
      expect(r.stderr).toMatch(
        /^timed out; the moves go on on the server\. Resume with: svc storage-move wait --from default --to storage2 --kind projects .*--since \S+$/m,
      );
      const summary = JSON.parse(r.stdout) as { timed_out: boolean; kinds: Array<Record<string, unknown>> };
      expect(summary.timed_out).toBe(true);
      expect(summary.kinds[0]).toMatchObject({ total: staying.length, in_flight: staying.length, finished: 0, still_on_source: 0 });
      expect(sb.state.moves('project')).toHaveLength(staying.length + others.length);
    } finally {
      await proxy.close();
    }
  }, 60_000);
});

describe('schedule --wait on 20,000 projects', () => {
  for (const [interval, seed] of [
    ['0.2', 1],
    ['0.2', 2],
    ['1', 3],
  ] as const) {
    it(`follows every move to finished with --interval ${interval} (seed ${seed})`, async () => {
      const sb = await sandbox({ projects: 20_000, moveMs: 5, moveConcurrency: 50, seed });
      const before = idsOn(sb, 'project', 'default');
      const r = await svc(
        [...SCHEDULE_PROJECTS, '--wait', '--interval', interval],
        // A process of its own reads the list while the sandbox's bulk job runs, as against a real service.
        { env: env(sb), process: true },
      );
      expect(r.stderr).toContain('every repository moved from default to storage2\n');
      expect(r.exitCode).toBe(0);
      const moves = sb.state.moves('project');
      expect(moves.length).toBe(before.length);
      expect(moves.filter((m) => m.state !== 'finished')).toEqual([]);
      expect(idsOn(sb, 'project', 'default')).toEqual([]);
      expect(idsOn(sb, 'project', 'storage2')).toEqual(before);
    }, 120_000);
  }
});
