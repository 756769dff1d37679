// Snippets: service-endpoints.md §14. Reads answer whatever the caller can see (an administrator sees
// every snippet); PUT and DELETE look only among the caller's own, administrators included.
import { describe, expect, it } from 'vitest';
import { ids, useSandbox } from './setup.js';

const c = useSandbox();

describe('§14 snippets', () => {
  it("GET /snippets lists the caller's own snippets, newest first", async () => {
    const r = await c.call('/snippets?per_page=100', { as: 'user' });
    expect(r.json.every((s: { author: { id: number } }) => s.author.id === 2)).toBe(true);
    expect(ids(r).slice(-2)).toEqual([2, 1]);
  });

  it('GET /snippets/public lists public snippets only', async () => {
    const r = await c.call('/snippets/public?per_page=100', { as: 'user' });
    expect(r.status).toBe(200);
    const every = await Promise.all(Array.from({ length: 10 }, (_, i) => c.call(`/snippets/${i + 1}`, { as: 'admin' })));
    expect(ids(r)).toEqual(
      every
        .filter((s) => s.json.visibility === 'public')
        .map((s) => s.json.id as number)
        .reverse(),
    );
  });

  it('GET /snippets/all lists every snippet the caller can see', async () => {
    const r = await c.call('/snippets/all?per_page=100', { as: 'user' });
    const every = await Promise.all(Array.from({ length: 10 }, (_, i) => c.call(`/snippets/${i + 1}`, { as: 'user' })));
    expect(ids(r)).toEqual(
      every
        .filter((s) => s.status === 200)
        .map((s) => s.json.id as number)
        .reverse(),
    );
  });

  it("POST /snippets without visibility makes an internal snippet (the route's default)", async () => {
    const r = await c.call('/snippets', { as: 'user', method: 'POST', json: { title: 't', file_name: 'd.txt', content: 'd' } });
    expect([r.status, r.json.visibility]).toEqual([201, 'internal']);
  });

  it('answers an unknown snippet {"message":"404 Snippet Not Found"}', async () => {
    const r = await c.call('/snippets/999', { as: 'user' });
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ message: '404 Snippet Not Found' });
  });

  it("DELETE /snippets/:id: the author's own 204, then 404 Snippet Not Found", async () => {
    const made = await c.call('/snippets', {
      as: 'user',
      method: 'POST',
      json: { title: 't', file_name: 'a.txt', content: 'x', visibility: 'public' },
    });
    expect(made.status).toBe(201);
    const deleted = await c.call(`/snippets/${made.json.id}`, { as: 'user', method: 'DELETE' });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    const again = await c.call(`/snippets/${made.json.id}`, { as: 'user', method: 'DELETE' });
    expect(again.status).toBe(404);
    expect(again.json).toEqual({ message: '404 Snippet Not Found' });
  });

  it("DELETE /snippets/:id of another user's snippet is 404 Snippet Not Found, and it stays", async () => {
    const theirs = await c.call('/snippets', {
      as: 'admin',
      method: 'POST',
      json: { title: 't', file_name: 'c.txt', content: 'z', visibility: 'public' },
    });
    const refused = await c.call(`/snippets/${theirs.json.id}`, { as: 'user', method: 'DELETE' });
    expect([refused.status, refused.json]).toEqual([404, { message: '404 Snippet Not Found' }]);
    expect((await c.call(`/snippets/${theirs.json.id}`, { as: 'admin' })).status).toBe(200);
  });

  it("DELETE /snippets/:id of another user's snippet is 404 Snippet Not Found to an administrator too, and it stays", async () => {
    const id = await privateSnippetOfUser('kept');
    const refused = await c.call(`/snippets/${id}`, { as: 'admin', method: 'DELETE' });
    expect([refused.status, refused.json]).toEqual([404, { message: '404 Snippet Not Found' }]);
    expect(c.sb.state.snippet(id)?.title).toBe('kept');
  });

  it("GET /snippets/:id answers an administrator another user's private snippet", async () => {
    const id = await privateSnippetOfUser('readable');
    const r = await c.call(`/snippets/${id}`, { as: 'admin' });
    expect([r.status, r.json.id, r.json.title, r.json.visibility, r.json.author.id]).toEqual([200, id, 'readable', 'private', 2]);
  });

  it("GET /snippets/:id/raw answers an administrator another user's private snippet", async () => {
    const id = await privateSnippetOfUser('raw');
    const r = await c.call(`/snippets/${id}/raw`, { as: 'admin' });
    expect([r.status, r.text]).toEqual([200, 'mine\n']);
  });

  it("GET /snippets/:id and /raw answer another user's private snippet 404 Snippet Not Found to a non-administrator", async () => {
    const made = await c.call('/snippets', {
      as: 'admin',
      method: 'POST',
      json: { title: 'hidden', file_name: 'h.txt', content: 'h', visibility: 'private' },
    });
    const record = await c.call(`/snippets/${made.json.id}`, { as: 'user' });
    const raw = await c.call(`/snippets/${made.json.id}/raw`, { as: 'user' });
    expect([record.status, record.json, raw.status, raw.json]).toEqual([
      404,
      { message: '404 Snippet Not Found' },
      404,
      { message: '404 Snippet Not Found' },
    ]);
  });
});

/** A private snippet of the regular user (id 2), with the content `mine\n`. */
async function privateSnippetOfUser(title: string): Promise<number> {
  const made = await c.call('/snippets', {
    as: 'user',
    method: 'POST',
    json: { title, file_name: 'm.txt', content: 'mine\n', visibility: 'private' },
  });
  expect([made.status, made.json.author.id]).toEqual([201, 2]);
  return made.json.id as number;
}
