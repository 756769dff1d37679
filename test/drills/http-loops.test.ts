import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allItems, client, outcome } from '../http/support.js';
import { projects, startScriptedServer } from './scripted-server.js';

// Issue #10, case 8: every request loop a server can set up ends, with one line. Each server
// gives up on its own after LOOP_GUARD requests with an empty last page, so that a client that
// loops finishes "successfully" instead of hanging the suite.
const LOOP_GUARD = 60;
const MAX_OFFSET = 'Offset pagination has a maximum allowed offset of 2 for requests that return objects of type Project.';
let server: Awaited<ReturnType<typeof startScriptedServer>>;

beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());

function page(res: ServerResponse, items: unknown[], next?: string): void {
  res.writeHead(200, { 'content-type': 'application/json', ...(next ? { link: `<${next}>; rel="next"` } : {}) }).end(JSON.stringify(items));
}

describe('request loops end (case 8)', () => {
  it('(a) the keyset fallback after a maximum-offset 405 is tried once per listing', async () => {
    const base = server.add('offset', (req, res, { base }) => {
      if (server.hits('offset') > LOOP_GUARD) return page(res, []);
      // The second offset page, and every keyset request after it, are refused as past the maximum.
      if (/[?&]page=2|pagination=keyset/.test(req.url ?? '')) {
        return res.writeHead(405, { 'content-type': 'application/json' }).end(JSON.stringify({ error: MAX_OFFSET }));
      }
      page(res, projects(1, 2), `${base}/api/v4/projects?page=2&per_page=2`);
    });
    const http = client(base);
    const listing = http.pages<{ id: number }>(
      '/projects',
      { per_page: 2 },
      {
        keysetFallback: (last) => ({ path: '/projects', query: { pagination: 'keyset', order_by: 'id', id_after: last.id } }),
      },
    );
    const result = await outcome(() => allItems(listing));
    expect(result).toEqual({
      exitCode: 6,
      name: 'ApiError',
      message: `GET /projects failed: 405 Method Not Allowed: ${MAX_OFFSET}`,
    });
    expect(server.hits('offset')).toBe(3);
  });

  it('(b) next-page links that differ only in their #fragment are the same page', async () => {
    const base = server.add('fragment', (req, res, { base }) => {
      const hit = server.hits('fragment');
      if (hit > LOOP_GUARD) return page(res, []);
      if (/[?&]page=2/.test(req.url ?? '')) return page(res, projects(10 + hit, 1), `${base}/api/v4/projects?page=2#seen-${hit}`);
      page(res, projects(1, 1), `${base}/api/v4/projects?page=2#first`);
    });
    const result = await outcome(() => allItems(client(base).pages('/projects')));
    expect(result).toEqual({
      exitCode: 1,
      name: 'SvcError',
      message: `the server's next-page link repeats a page already read (${base}/api/v4/projects?page=2)`,
    });
    expect(server.hits('fragment')).toBe(2);
  });

  it('(c) pages that only repeat records already read stop the listing, whatever their links say', async () => {
    const base = server.add('same-records', (_req, res, { base }) => {
      const hit = server.hits('same-records');
      if (hit > LOOP_GUARD) return page(res, []);
      page(res, projects(1, 3), `${base}/api/v4/projects?page=${hit + 1}&per_page=3`);
    });
    const result = await outcome(() => allItems(client(base).pages('/projects', { per_page: 3 })));
    expect(result).toEqual({
      exitCode: 1,
      name: 'SvcError',
      message: 'GET /projects returned the same records as page 1 of this listing; stopping after 2 pages',
    });
    expect(server.hits('same-records')).toBe(2);
  });

  it('(d) a page served again with its records touched since is still a page already read', async () => {
    const base = server.add('touched', (_req, res, { base }) => {
      const hit = server.hits('touched');
      if (hit > LOOP_GUARD) return page(res, []);
      const touched = projects(1, 3).map((p) => ({ ...p, last_activity_at: `2026-11-27T10:00:0${hit}.000Z` }));
      page(res, touched, `${base}/api/v4/projects?page=${hit + 1}&per_page=3`);
    });
    const result = await outcome(() => allItems(client(base).pages('/projects', { per_page: 3 })));
    expect(result).toEqual({
      exitCode: 1,
      name: 'SvcError',
      message: 'GET /projects returned the same records as page 1 of this listing; stopping after 2 pages',
    });
    expect(server.hits('touched')).toBe(2);
  });

  it('records without numeric ids repeat by their content', async () => {
    const base = server.add('no-ids', (_req, res, { base }) => {
      const hit = server.hits('no-ids');
      if (hit > LOOP_GUARD) return page(res, []);
      page(res, [{ name: 'a' }, { name: 'b' }], `${base}/api/v4/projects?page=${hit + 1}`);
    });
    const result = await outcome(() => allItems(client(base).pages('/projects')));
    expect(result).toEqual({
      exitCode: 1,
      name: 'SvcError',
      message: 'GET /projects returned the same records as page 1 of this listing; stopping after 2 pages',
    });
    expect(server.hits('no-ids')).toBe(2);
  });

  it('a listing whose pages are all new is read to the end', async () => {
    const base = server.add('honest', (req, res, { base }) => {
      const n = Number(/page=(\d+)/.exec(req.url ?? '')?.[1] ?? 1);
      page(res, projects(n * 10, 2), n < 4 ? `${base}/api/v4/projects?page=${n + 1}#top` : undefined);
    });
    const ids = (await allItems(client(base).pages<{ id: number }>('/projects'))).map((p) => p.id);
    expect(ids).toEqual([10, 11, 20, 21, 30, 31, 40, 41]);
    expect(server.hits('honest')).toBe(4);
  });
});
