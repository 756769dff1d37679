import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allItems, client, outcome } from '../http/support.js';
import { startScriptedServer } from '../drills/scripted-server.js';
import { svc } from '../support/harness.js';

const TOKEN = 'overlap-token-1234';
let server: Awaited<ReturnType<typeof startScriptedServer>>;

beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());

/**
 * `GET /projects` by keyset over ids 1..20 whose next link starts `back` ids short of the page's last
 * record, as a service with an off-by-some cursor would: each page repeats part of the one before.
 */
function overlapping(back: number) {
  return server.add(`overlap-${back}`, (req, res, { base }) => {
    const query = new URL(req.url ?? '/', 'http://x').searchParams;
    const ascending = query.get('sort') === 'asc';
    const perPage = Number(query.get('per_page') ?? 20);
    const after = Number(query.get('id_after') ?? 0);
    const before = Number(query.get('id_before') ?? 21);
    const all = Array.from({ length: 20 }, (_, i) => i + 1).filter((id) => id > after && id < before);
    const page = (ascending ? all : all.reverse()).slice(0, perPage);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const last = page[page.length - 1];
    if (last !== undefined) {
      const next = new URLSearchParams(query);
      next.set(ascending ? 'id_after' : 'id_before', String(ascending ? last - back : last + back));
      headers.link = `<${base}/api/v4/projects?${next.toString()}>; rel="next"`;
    }
    res.writeHead(200, headers).end(JSON.stringify(page.map((id) => ({ id, path_with_namespace: `group/project-${id}` }))));
  });
}

describe('keyset pages that overlap the page before (#22 item 10)', () => {
  it('svc projects list --all: the first page once, then one line and exit 1', async () => {
    const url = overlapping(2);
    const result = await svc(['projects', 'list', '--all', '--per-page', '5', '-o', 'ndjson'], {
      env: { SVC_URL: url, SVC_TOKEN: TOKEN },
      secrets: [TOKEN],
    });
    expect(result.stderr).toBe(
      'svc: GET /projects returned id 17 after id 16: the keyset page goes back over records already read; stopping\n',
    );
    expect(result.exitCode).toBe(1);
    expect(
      result.stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as { id: number }).id),
    ).toEqual([20, 19, 18, 17, 16]);
  });

  it('ascending: the overlapping page is not handed on', async () => {
    const pages: number[][] = [];
    const listing = client(overlapping(1)).pages<{ id: number }>('/projects', {
      pagination: 'keyset',
      order_by: 'id',
      sort: 'asc',
      per_page: 4,
    });
    const result = await outcome(async () => {
      for await (const page of listing) pages.push(page.items.map((item) => item.id));
    });
    expect(result).toEqual({
      exitCode: 1,
      name: 'SvcError',
      message: 'GET /projects returned id 4 after id 4: the keyset page goes back over records already read; stopping',
    });
    expect(pages).toEqual([[1, 2, 3, 4]]);
  });

  it('a keyset listing whose links continue after the last record is read to the end, once', async () => {
    const ids = (
      await allItems(client(overlapping(0)).pages<{ id: number }>('/projects', { pagination: 'keyset', order_by: 'id', per_page: 6 }))
    ).map((item) => item.id);
    expect(ids).toEqual(Array.from({ length: 20 }, (_, i) => 20 - i));
  });
});
