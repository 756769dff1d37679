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
    const names = r.rawHeaderNames.filter((n) => (n.startsWith('X-') && /Page|Total/.test(n)) || n === 'Link');
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
    const publicIds: number[] = [];
    for (let id = sb.state.projectCount(); id >= 1; id--) if (sb.state.project(id)!.visibility === 'public') publicIds.push(id);
    expect(r.json.map((p: { id: number }) => p.id)).toEqual(publicIds);
    expect(r.headers['x-total']).toBe(String(publicIds.length));
  });
});

interface ListedProject {
  id: number;
  name: string;
  path: string;
  created_at: string;
  last_activity_at: string;
  repository_storage?: string;
}

/** Every project of a listing, following Link rel="next". */
async function listAll(s: Sandbox, query: string, token?: string): Promise<ListedProject[]> {
  let path: string | null = api(`/projects?${query}`);
  const out: ListedProject[] = [];
  while (path) {
    const r = await req(s.url, path, { token });
    expect(r.status).toBe(200);
    out.push(...(r.json as ListedProject[]));
    const next = parseLink(r.headers.link).next;
    path = next ? pathOf(next) : null;
  }
  return out;
}

const SORT_VALUE: Record<string, (p: ListedProject) => string> = {
  name: (p) => p.name.toLowerCase(),
  path: (p) => p.path.toLowerCase(),
  created_at: (p) => p.created_at,
  last_activity_at: (p) => p.last_activity_at,
  updated_at: (p) => p.last_activity_at,
};

/** Whether `list` is ordered by `value` then id, ascending or descending. */
function isOrdered(list: ListedProject[], value: (p: ListedProject) => string | number, sort: 'asc' | 'desc'): boolean {
  const sign = sort === 'asc' ? 1 : -1;
  return list.every((p, i) => {
    if (i === 0) return true;
    const prev = list[i - 1]!;
    const a = value(prev);
    const b = value(p);
    const c = a < b ? -1 : a > b ? 1 : prev.id - p.id;
    return c * sign < 0;
  });
}

describe('project ordering (offset)', () => {
  it('defaults to created_at desc, newest first', async () => {
    const d = await listAll(sb, 'per_page=20', sb.tokens.admin);
    const explicit = await listAll(sb, 'order_by=created_at&sort=desc&per_page=20', sb.tokens.admin);
    expect(d.map((p) => p.id)).toEqual(explicit.map((p) => p.id));
    expect(d).toHaveLength(45);
    expect(isOrdered(d, SORT_VALUE.created_at!, 'desc')).toBe(true);
  });

  for (const orderBy of ['id', 'name', 'path', 'created_at', 'updated_at', 'last_activity_at']) {
    for (const sort of ['asc', 'desc'] as const) {
      it(`orders every project by ${orderBy} ${sort} across pages`, async () => {
        const list = await listAll(sb, `order_by=${orderBy}&sort=${sort}&per_page=8`, sb.tokens.admin);
        expect(new Set(list.map((p) => p.id)).size).toBe(45);
        expect(isOrdered(list, SORT_VALUE[orderBy] ?? ((p) => p.id), sort)).toBe(true);
      });
    }
  }

  it('orders by name differently from id (the order is real, not the id order relabelled)', async () => {
    const byName = await listAll(sb, 'order_by=name&sort=asc&per_page=100', sb.tokens.admin);
    const byId = await listAll(sb, 'order_by=id&sort=asc&per_page=100', sb.tokens.admin);
    expect(byName.map((p) => p.id)).not.toEqual(byId.map((p) => p.id));
  });

  it('orders only what a regular user and an anonymous caller may see', async () => {
    for (const token of [sb.tokens.user, undefined]) {
      const visible = await listAll(sb, 'order_by=id&per_page=100', token);
      const byPath = await listAll(sb, 'order_by=path&sort=asc&per_page=10', token);
      expect(byPath.map((p) => p.id).sort((a, b) => a - b)).toEqual(visible.map((p) => p.id).sort((a, b) => a - b));
      expect(isOrdered(byPath, SORT_VALUE.path!, 'asc')).toBe(true);
    }
  });

  it('keeps a storage filter ordered as projects move between storages', async () => {
    const s = await startSandbox({ projects: 30 });
    try {
      const before = await listAll(s, 'repository_storage=default&order_by=name&sort=asc', s.tokens.admin);
      expect(before).toHaveLength(30);
      const moved = before[10]!;
      s.state.setProjectStorage(moved.id, 'storage2');
      const left = await listAll(s, 'repository_storage=default&order_by=name&sort=asc', s.tokens.admin);
      expect(left.map((p) => p.id)).toEqual(before.filter((p) => p.id !== moved.id).map((p) => p.id));
      const other = await listAll(s, 'repository_storage=storage2&order_by=name&sort=desc', s.tokens.admin);
      expect(other.map((p) => p.id)).toEqual([moved.id]);
      s.state.setProjectStorage(moved.id, 'default');
      const back = await listAll(s, 'repository_storage=default&order_by=name&sort=asc', s.tokens.admin);
      expect(back.map((p) => p.id)).toEqual(before.map((p) => p.id));
    } finally {
      await s.close();
    }
  });

  it('places a created project in every ordering already built', async () => {
    const s = await startSandbox({ projects: 30 });
    try {
      // build the orderings first, so the new project must be inserted, not found by a fresh sort
      await listAll(s, 'order_by=name&sort=asc', s.tokens.admin);
      await listAll(s, 'order_by=path&sort=desc', s.tokens.user);
      await listAll(s, 'repository_storage=default&order_by=last_activity_at', s.tokens.admin);
      const c = await req(s.url, api('/projects'), {
        method: 'POST',
        token: s.tokens.user,
        json: { name: 'Aardvark Zone', path: 'zz-aardvark', visibility: 'public' },
      });
      expect(c.status).toBe(201);
      const byName = await listAll(s, 'order_by=name&sort=asc', s.tokens.admin);
      expect(byName[0]!.id).toBe(c.json.id);
      expect(byName).toHaveLength(31);
      const byPath = await listAll(s, 'order_by=path&sort=desc', s.tokens.user);
      expect(byPath[0]!.id).toBe(c.json.id);
      const recent = await listAll(s, 'repository_storage=default&order_by=last_activity_at&sort=desc', s.tokens.admin);
      expect(recent[0]!.id).toBe(c.json.id);
      const newest = await req(s.url, api('/projects?per_page=1'), { token: s.tokens.user });
      expect(newest.json[0].id).toBe(c.json.id);
    } finally {
      await s.close();
    }
  });

  it('rejects other order_by values and sorts with the Grape body', async () => {
    for (const orderBy of ['storage_size', 'bogus']) {
      const r = await req(sb.url, api(`/projects?order_by=${orderBy}`), { token: sb.tokens.admin });
      expect(r.status).toBe(400);
      expect(r.json).toEqual({ error: 'order_by does not have a valid value' });
    }
    const bad = await req(sb.url, api('/projects?order_by=name&sort=up'), { token: sb.tokens.admin });
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ error: 'sort does not have a valid value' });
  });

  it('orders 10,050 projects by name on a deep page', async () => {
    const r = await req(big.url, api('/projects?order_by=name&sort=desc&per_page=100&page=60'), { token: big.tokens.admin });
    expect(r.status).toBe(200);
    expect(r.json).toHaveLength(100);
    expect(isOrdered(r.json as ListedProject[], SORT_VALUE.name!, 'desc')).toBe(true);
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
      error:
        'Offset pagination has a maximum allowed offset of 50000 for requests that return objects of type Project. Remaining records can be retrieved using keyset pagination.',
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
