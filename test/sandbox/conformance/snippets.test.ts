// Snippets: service-endpoints.md §14.
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
});
