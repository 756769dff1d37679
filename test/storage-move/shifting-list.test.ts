import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../../src/http/client.js';
import { moveHistory, type StorageMove } from '../../src/api/storage-moves.js';
import { SvcError } from '../../src/errors.js';
import { svc } from '../support/harness.js';
import { startScriptedServer } from '../drills/scripted-server.js';
import { env, idsOn, sandboxPerTest } from './helpers.js';

// A bulk job adds moves at the front of the newest-first list while svc reads it. A list that
// shifts by exactly one page between two reads returns the same records twice in a row, which the
// listing's loop guard took for a request loop (issue #21 item 1).

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
    res
      .writeHead(200, { 'content-type': 'application/json', 'x-next-page': hasNext ? String(page + 1) : '' })
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

describe('schedule --wait on 20,000 projects', () => {
  for (const [interval, seed] of [
    ['0.2', 1],
    ['0.2', 2],
    ['1', 3],
  ] as const) {
    it(`follows every move to finished with --interval ${interval} (seed ${seed})`, async () => {
      const sb = await sandbox({ projects: 20_000, moveMs: 5, moveConcurrency: 100, seed });
      const before = idsOn(sb, 'project', 'default');
      const r = await svc(
        ['storage-move', 'schedule', '--from', 'default', '--to', 'storage2', '--kind', 'projects', '--wait', '--interval', interval],
        { env: env(sb) },
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
