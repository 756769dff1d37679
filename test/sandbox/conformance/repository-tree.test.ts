// Repository tree: service-endpoints.md §7 (Tree).
import { describe, expect, it } from 'vitest';
import { useSandbox } from './setup.js';

const c = useSandbox({ projects: 4 });
const paths = (r: { json: Array<{ path: string }> }) => r.json.map((e) => e.path);

describe('§7 tree', () => {
  it('entries carry id, name, type, path and mode', async () => {
    const r = await c.call('/projects/1/repository/tree?path=docs', { as: 'user' });
    expect(r.status).toBe(200);
    expect(r.json[0]).toEqual({ id: r.json[0].id, name: 'c++', type: 'tree', path: 'docs/c++', mode: '040000' });
    expect(r.json[0].id).toMatch(/^[0-9a-f]{40}$/);
    expect(r.json[2]).toMatchObject({ name: 'release notes.md', type: 'blob', path: 'docs/release notes.md', mode: '100644' });
  });

  it('a blob id is the git blob id of the file', async () => {
    const r = await c.call('/projects/1/repository/tree', { as: 'user' });
    const readme = r.json.find((e: { path: string }) => e.path === 'README.md');
    const meta = await c.call('/projects/1/repository/files/README.md?ref=main', { as: 'user' });
    expect(readme.id).toBe(meta.json.blob_id);
  });

  it('the default (legacy) pagination is counted offset pages', async () => {
    const r = await c.call('/projects/1/repository/tree?recursive=true&per_page=5', { as: 'user' });
    expect([r.headers['x-total'], r.headers['x-total-pages'], r.headers['x-next-page']]).toEqual(['17', '4', '2']);
  });

  it('pagination=keyset: rel="next" with page_token=<last entry id> only after a full page', async () => {
    const first = await c.call('/projects/1/repository/tree?recursive=true&per_page=16&pagination=keyset', { as: 'user' });
    const last = first.json[15].id as string;
    expect(first.headers.link).toBe(
      `<${c.sb.url}/api/v4/projects/1/repository/tree?page_token=${last}&pagination=keyset&per_page=16&recursive=true>; rel="next"`,
    );
    expect(first.headers['x-total']).toBeUndefined();
    const second = await c.call(`/projects/1/repository/tree?recursive=true&per_page=16&pagination=keyset&page_token=${last}`, {
      as: 'user',
    });
    expect([paths(second), second.headers.link]).toEqual([['src/lib/util.ts'], undefined]);
  });

  it('pagination=none needs recursive=true (400), and then answers every entry unpaged', async () => {
    const bad = await c.call('/projects/1/repository/tree?pagination=none', { as: 'user' });
    expect([bad.status, bad.json]).toEqual([400, { message: 'pagination=none is only allowed with recursive=true' }]);
    const all = await c.call('/projects/1/repository/tree?pagination=none&recursive=true&per_page=2', { as: 'user' });
    expect([all.json.length, all.headers.link]).toEqual([17, undefined]);
  });

  it('an unknown ref: 404 {"message":"404 Tree Not Found"}; a missing path: 200 []', async () => {
    const ref = await c.call('/projects/1/repository/tree?ref=nope', { as: 'user' });
    expect([ref.status, ref.json]).toEqual([404, { message: '404 Tree Not Found' }]);
    const path = await c.call('/projects/1/repository/tree?path=nope', { as: 'user' });
    expect([path.status, path.json]).toEqual([200, []]);
  });
});
