import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer } from '../drills/scripted-server.js';
import { svc } from '../support/harness.js';

const TOKEN = 'hostile-token-1234';
const ALL = Array.from({ length: 5000 }, (_, i) => 5000 - i);

interface Flaws {
  /** Most records a page holds, whatever `per_page` asked. */
  cap?: number;
  /** Always newest first, whatever `sort` asked. */
  ignoreSort?: boolean;
  /** Oldest first when asked for newest, and the other way round. */
  invertSort?: boolean;
  /** Nothing at all when asked for oldest first. */
  emptyAscending?: boolean;
  /** Pages from the top of the whole listing, whatever `id_after` and `id_before` asked. */
  ignoreIdFilters?: boolean;
  /** Each page of a range (both bounds given) also carries the record just below the range. */
  strayBelow?: boolean;
}

const ids = (stdout: string) =>
  stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => (JSON.parse(line) as { id: number }).id);

/**
 * `GET /projects` by keyset over the given ids, with `Link: rel="next"` on every page that has a
 * last record (as the real service's pager does), flawed as asked.
 */
function keysetProjects(records: number[], flaws: Flaws, asked: URLSearchParams[] = []) {
  return (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse, ctx: { base: string }) => {
    const query = new URL(req.url ?? '/', 'http://x').searchParams;
    let existing = records;
    asked.push(query);
    const after = flaws.ignoreIdFilters ? Number.NEGATIVE_INFINITY : Number(query.get('id_after') ?? Number.NEGATIVE_INFINITY);
    const before = flaws.ignoreIdFilters ? Number.POSITIVE_INFINITY : Number(query.get('id_before') ?? Number.POSITIVE_INFINITY);
    const ascending = !flaws.ignoreSort && (query.get('sort') === 'asc') !== Boolean(flaws.invertSort);
    if (flaws.emptyAscending && query.get('sort') === 'asc') existing = [];
    const perPage = Math.min(Number(query.get('per_page') ?? 20), flaws.cap ?? 100);
    const inRange = existing.filter((id) => id > after && id < before).sort((a, b) => (ascending ? a - b : b - a));
    const page = inRange.slice(0, perPage);
    if (flaws.strayBelow && query.has('id_after') && query.has('id_before')) {
      const below = existing.filter((id) => id <= after).sort((a, b) => b - a)[0];
      if (below !== undefined) page.push(below);
    }
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const last = page[page.length - 1];
    if (last !== undefined) {
      const next = new URLSearchParams(query);
      next.delete('id_after');
      next.delete('id_before');
      next.set(ascending ? 'id_after' : 'id_before', String(last));
      headers.link = `<${ctx.base}/api/v4/projects?${next.toString()}>; rel="next"`;
    }
    res.writeHead(200, headers).end(JSON.stringify(page.map((id) => ({ id, path_with_namespace: `group/project-${id}` }))));
  };
}

describe('svc projects list --all --parallel N against services that bend the paging rules (#22 item 2)', () => {
  let server: Awaited<ReturnType<typeof startScriptedServer>>;
  const env = (url: string) => ({ env: { SVC_URL: url, SVC_TOKEN: TOKEN }, secrets: [TOKEN] });

  beforeAll(async () => {
    server = await startScriptedServer();
  });
  afterAll(() => server.close());

  it('a service that serves 50 records per page when 100 are asked: every record once, newest first', async () => {
    const asked: URLSearchParams[] = [];
    const url = server.add('capped', keysetProjects(ALL, { cap: 50 }, asked));
    const result = await svc(['projects', 'list', '--all', '--parallel', '4', '--per-page', '100', '-o', 'ndjson'], env(url));
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(ids(result.stdout)).toEqual(ALL);
    // Two bound requests, then 50 records a page: 16 ranges of 300 ids and one of 200, each walked to its edge.
    expect(asked.length).toBe(2 + 16 * 6 + 4);
  });

  it('the same with --sort asc: every record once, oldest first', async () => {
    const url = server.add('capped-asc', keysetProjects(ALL, { cap: 50 }));
    const result = await svc(['projects', 'list', '--all', '--parallel', '4', '--sort', 'asc', '-o', 'ndjson'], env(url));
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(ids(result.stdout)).toEqual([...ALL].reverse());
  });

  it('a service that ignores sort: a note, then every record once by the sequential listing', async () => {
    const url = server.add('unsorted', keysetProjects(ALL, { ignoreSort: true }));
    const result = await svc(['projects', 'list', '--all', '--parallel', '4', '-o', 'ndjson'], env(url));
    expect(result.stderr).toBe(
      'the service gave the same lowest and highest id (5000) though it holds more; listing one page after another instead of in parallel\n',
    );
    expect(result.exitCode).toBe(0);
    expect(ids(result.stdout)).toEqual(ALL);
  });

  it('a service that ignores sort, asked for oldest first: the note, then one line and exit 1 before any record', async () => {
    const url = server.add('unsorted-asc', keysetProjects(ALL, { ignoreSort: true }));
    const result = await svc(['projects', 'list', '--all', '--parallel', '4', '--sort', 'asc', '-o', 'ndjson'], env(url));
    expect(result.stderr).toBe(
      'the service gave the same lowest and highest id (5000) though it holds more; listing one page after another instead of in parallel\n' +
        'svc: GET /projects returned id 4999 after id 5000: the keyset page goes back over records already read; stopping\n',
    );
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
  });

  it('a service whose sort is the wrong way round: the note, then one line and exit 1 before any record', async () => {
    const url = server.add('inverted', keysetProjects(ALL, { invertSort: true }));
    const result = await svc(['projects', 'list', '--all', '--parallel', '4', '-o', 'ndjson'], env(url));
    expect(result.stderr).toBe(
      'the service gave a lowest id (5000) above its highest (1); listing one page after another instead of in parallel\n' +
        'svc: GET /projects returned id 2 after id 1: the keyset page goes back over records already read; stopping\n',
    );
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
  });

  it('a service that lists nothing oldest first: the note, then every record once by the sequential listing', async () => {
    const url = server.add('empty-asc', keysetProjects(ALL, { emptyAscending: true }));
    const result = await svc(['projects', 'list', '--all', '--parallel', '4', '-o', 'ndjson'], env(url));
    expect(result.stderr).toBe(
      'the service listed records in one id order and none in the other; listing one page after another instead of in parallel\n',
    );
    expect(result.exitCode).toBe(0);
    expect(ids(result.stdout)).toEqual(ALL);
  });

  it('a service that ignores id_after and id_before: one line, exit 1, and no record written twice', async () => {
    const url = server.add('unfiltered', keysetProjects(ALL, { ignoreIdFilters: true }));
    const result = await svc(['projects', 'list', '--all', '--parallel', '4', '-o', 'ndjson'], env(url));
    expect(result.stderr).toBe('svc: GET /projects returned id 5000 after 4901, against the order asked for; list without --parallel\n');
    expect(result.exitCode).toBe(1);
    // The first page of the newest range was whole and in order; its second page went back to the top.
    expect(ids(result.stdout)).toEqual(ALL.slice(0, 100));
  });

  it('a service that returns a record outside the range asked for: one line, exit 1, nothing written', async () => {
    const url = server.add('stray', keysetProjects(ALL, { strayBelow: true }));
    const result = await svc(['projects', 'list', '--all', '--parallel', '4', '-o', 'ndjson'], env(url));
    expect(result.stderr).toBe('svc: GET /projects returned id 4800, outside the ids 4801..5000 asked for; list without --parallel\n');
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
  });

  it('a listing of one record, linked onwards like every page of the service: that record, no note', async () => {
    const url = server.add('single', keysetProjects([42], {}));
    const result = await svc(['projects', 'list', '--all', '--parallel', '4', '-o', 'ndjson'], env(url));
    expect(result).toEqual({ exitCode: 0, stdout: '{"id":42,"path_with_namespace":"group/project-42"}\n', stderr: '' });
  });
});
