import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { parseLink, pathOf, req } from './helpers.js';

let sb: Sandbox;
let big: Sandbox;

beforeAll(async () => {
  sb = await startSandbox({ projects: 45 });
  big = await startSandbox({ projects: 10_050 });
});
afterAll(async () => {
  await sb.close();
  await big.close();
});

const api = (p: string) => `/api/v4${p}`;

describe('offset pagination', () => {
  it('sends every header in title case and order on a middle page', async () => {
    const r = await req(sb.url, api('/projects?per_page=10&page=2'), { token: sb.tokens.admin });
    expect(r.status).toBe(200);
    const names = r.rawHeaderNames.filter((n) => n.startsWith('X-') && /Page|Total/.test(n) || n === 'Link');
    expect(names).toEqual(['X-Per-Page', 'X-Page', 'X-Next-Page', 'X-Prev-Page', 'Link', 'X-Total', 'X-Total-Pages']);
    expect(r.headers['x-per-page']).toBe('10');
    expect(r.headers['x-page']).toBe('2');
    expect(r.headers['x-next-page']).toBe('3');
    expect(r.headers['x-prev-page']).toBe('1');
    expect(r.headers['x-total']).toBe('45');
    expect(r.headers['x-total-pages']).toBe('5');
    const rels = r.headers.link!.split(', ').map((p) => /rel="(\w+)"/.exec(p)![1]);
    expect(rels).toEqual(['prev', 'next', 'first', 'last']);
  });

  it('keeps X-Prev-Page present but empty on the first page', async () => {
    const r = await req(sb.url, api('/projects?per_page=10'), { token: sb.tokens.admin });
    expect(r.headers['x-prev-page']).toBe('');
    expect(r.rawHeaderNames).toContain('X-Prev-Page');
    expect(Object.keys(parseLink(r.headers.link))).toEqual(['next', 'first', 'last']);
  });

  it('keeps X-Next-Page present but empty on the last page', async () => {
    const r = await req(sb.url, api('/projects?per_page=10&page=5'), { token: sb.tokens.admin });
    expect(r.json).toHaveLength(5);
    expect(r.headers['x-next-page']).toBe('');
    expect(r.rawHeaderNames).toContain('X-Next-Page');
    expect(Object.keys(parseLink(r.headers.link))).toEqual(['prev', 'first', 'last']);
  });

  it('builds Link URLs on the Host the client used, with sorted query keys', async () => {
    const port = new URL(sb.url).port;
    const r = await req(sb.url, api('/projects?sort=asc&per_page=10&order_by=id&page=2'), {
      token: sb.tokens.admin,
      headers: { Host: `localhost:${port}` },
    });
    const links = parseLink(r.headers.link);
    expect(links.next).toBe(`http://localhost:${port}/api/v4/projects?order_by=id&page=3&per_page=10&sort=asc`);
    expect(links.first).toBe(`http://localhost:${port}/api/v4/projects?order_by=id&page=1&per_page=10&sort=asc`);
  });

  it('follows Link rel="next" through every project exactly once', async () => {
    let path: string | null = api('/projects?per_page=7');
    const seen = new Set<number>();
    while (path) {
      const r = await req(sb.url, path, { token: sb.tokens.admin });
      for (const p of r.json) {
        expect(seen.has(p.id)).toBe(false);
        seen.add(p.id);
      }
      const next = parseLink(r.headers.link).next;
      path = next ? pathOf(next) : null;
    }
    expect(seen.size).toBe(45);
  });

  it('defaults per_page to 20 and clamps it to 100', async () => {
    const d = await req(sb.url, api('/projects'), { token: sb.tokens.admin });
    expect(d.headers['x-per-page']).toBe('20');
    expect(d.json).toHaveLength(20);
    const c = await req(big.url, api('/projects?per_page=500'), { token: big.tokens.admin });
    expect(c.headers['x-per-page']).toBe('100');
    expect(c.json).toHaveLength(100);
  });

  it('rejects per_page=0', async () => {
    const r = await req(sb.url, api('/projects?per_page=0'), { token: sb.tokens.admin });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ error: 'per_page has a value not allowed' });
  });

  it('rejects a non-integer per_page', async () => {
    const r = await req(sb.url, api('/projects?per_page=abc'), { token: sb.tokens.admin });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ error: 'per_page is invalid' });
  });

  it('paginates issue notes', async () => {
    const r = await req(sb.url, api('/projects/1/issues/1/notes?per_page=20&page=3'));
    expect(r.status).toBe(200);
    expect(r.json).toHaveLength(5);
    expect(r.headers['x-total']).toBe('45');
  });

  it('lists only public projects to anonymous callers', async () => {
    const r = await req(sb.url, api('/projects?per_page=100'));
    expect(r.json.length).toBeGreaterThan(0);
    expect(r.json.every((p: { visibility: string }) => p.visibility === 'public')).toBe(true);
    expect(Number(r.headers['x-total'])).toBeLessThan(45);
  });
});

describe('10,000 record cutoff and maximum offset', () => {
  it('omits X-Total, X-Total-Pages and rel="last" above 10,000 records', async () => {
    const r = await req(big.url, api('/projects?per_page=100&page=2'), { token: big.tokens.admin });
    expect(r.status).toBe(200);
    expect(r.headers).not.toHaveProperty('x-total');
    expect(r.headers).not.toHaveProperty('x-total-pages');
    expect(Object.keys(parseLink(r.headers.link))).toEqual(['prev', 'next', 'first']);
    expect(r.headers['x-next-page']).toBe('3');
  });

  it('still counts a filtered list under 10,000', async () => {
    const r = await req(sb.url, api('/projects?repository_storage=default&per_page=5'), { token: sb.tokens.admin });
    expect(r.headers['x-total']).toBe('45');
  });

  it('answers the maximum offset with the 405 body (page*per_page > 50000, raw per_page)', async () => {
    const ok = await req(big.url, api('/projects?per_page=100&page=500'), { token: big.tokens.admin });
    expect(ok.status).toBe(200);
    const r = await req(big.url, api('/projects?per_page=100&page=501'), { token: big.tokens.admin });
    expect(r.status).toBe(405);
    expect(r.json).toEqual({
      error: 'Offset pagination has a maximum allowed offset of 50000 for requests that return objects of type Project. Remaining records can be retrieved using keyset pagination.',
    });
    const raw = await req(big.url, api('/projects?per_page=1000&page=51'), { token: big.tokens.admin });
    expect(raw.status).toBe(405);
  });

  it('applies the maximum offset to users too', async () => {
    const r = await req(sb.url, api('/users?per_page=100&page=501'), { token: sb.tokens.admin });
    expect(r.status).toBe(405);
    expect(r.json.error).toContain('objects of type User');
  });
});

describe('keyset pagination', () => {
  it('pages projects by id with id_after and only a Link rel="next"', async () => {
    const r = await req(sb.url, api('/projects?pagination=keyset&order_by=id&sort=asc&per_page=20'), { token: sb.tokens.admin });
    expect(r.json.map((p: { id: number }) => p.id)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(r.headers).not.toHaveProperty('x-total');
    expect(r.headers).not.toHaveProperty('x-page');
    expect(r.headers).not.toHaveProperty('x-per-page');
    const links = parseLink(r.headers.link);
    expect(Object.keys(links)).toEqual(['next']);
    expect(links.next).toContain('id_after=20');
    expect(pathOf(links.next!)).toBe('/api/v4/projects?id_after=20&order_by=id&pagination=keyset&per_page=20&sort=asc');
  });

  it('walks projects by id desc (id_before) to an empty page with no Link', async () => {
    let path: string | null = api('/projects?pagination=keyset&order_by=id&per_page=20');
    const ids: number[] = [];
    let last: { json: unknown[]; link?: string } | null = null;
    while (path) {
      const r = await req(sb.url, path, { token: sb.tokens.admin });
      ids.push(...r.json.map((p: { id: number }) => p.id));
      last = { json: r.json, link: r.headers.link };
      const next = parseLink(r.headers.link).next;
      path = next ? pathOf(next) : null;
    }
    expect(ids).toEqual(Array.from({ length: 45 }, (_, i) => 45 - i));
    expect(last!.json).toEqual([]);
    expect(last!.link).toBeUndefined();
  });

  it('refuses keyset on projects ordered by anything but id', async () => {
    const r = await req(sb.url, api('/projects?pagination=keyset&order_by=name&sort=asc'), { token: sb.tokens.admin });
    expect(r.status).toBe(405);
    expect(r.json).toEqual({ error: 'Keyset pagination is not yet available for this type of request' });
  });

  it('pages users by name with an opaque cursor, covering everyone once in order', async () => {
    let path: string | null = api('/users?pagination=keyset&order_by=name&sort=asc&per_page=5');
    const names: string[] = [];
    const ids = new Set<number>();
    while (path) {
      const r = await req(sb.url, path, { token: sb.tokens.admin });
      for (const u of r.json) {
        names.push(u.name);
        ids.add(u.id);
      }
      const next = parseLink(r.headers.link).next;
      if (next) expect(new URL(next).searchParams.get('cursor')).toMatch(/^[A-Za-z0-9+/]+$/);
      path = next ? pathOf(next) : null;
    }
    const total = (await req(sb.url, api('/users?per_page=1'), { token: sb.tokens.admin })).headers['x-total'];
    expect(ids.size).toBe(Number(total));
    expect([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(names);
  });

  it('pages users by created_at desc with a cursor', async () => {
    const first = await req(sb.url, api('/users?pagination=keyset&order_by=created_at&sort=desc&per_page=3'), { token: sb.tokens.admin });
    const next = parseLink(first.headers.link).next!;
    const second = await req(sb.url, pathOf(next), { token: sb.tokens.admin });
    const all = [...first.json, ...second.json].map((u: { created_at: string }) => u.created_at);
    expect([...all].sort().reverse()).toEqual(all);
    expect(new Set([...first.json, ...second.json].map((u: { id: number }) => u.id)).size).toBe(6);
  });

  it('pages groups by name asc with a cursor and refuses other orders', async () => {
    const r = await req(sb.url, api('/groups?pagination=keyset&order_by=name&sort=asc&per_page=3'));
    expect(r.status).toBe(200);
    const cursor = new URL(parseLink(r.headers.link).next!).searchParams.get('cursor')!;
    const decoded = JSON.parse(Buffer.from(cursor, 'base64').toString());
    expect(decoded).toEqual({ name: r.json[2].name, id: String(r.json[2].id), _kd: 'n' });
    const bad = await req(sb.url, api('/groups?pagination=keyset&order_by=id&sort=desc'));
    expect(bad.status).toBe(405);
  });
});

describe('large instance', () => {
  it('lists the projects on a storage through the index', async () => {
    const r = await req(big.url, api('/projects?repository_storage=storage2'), { token: big.tokens.admin });
    expect(r.status).toBe(200);
    expect(r.json).toEqual([]);
    expect(r.headers['x-total']).toBe('0');
    expect(r.headers['x-total-pages']).toBe('1');
  });
});
