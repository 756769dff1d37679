// service-behaviour.md §2.1 (offset pagination) and service-endpoints.md §4, §7 (uncounted lists).
import { describe, expect, it } from 'vitest';
import { parseLink, pathOf } from '../helpers.js';
import { useSandbox } from './setup.js';

const c = useSandbox();

describe('§2.1 offset headers', () => {
  it('sends every header, Link in the order prev, next, first, last with sorted query keys', async () => {
    const r = await c.call('/projects/1/issues/1/notes?per_page=10&page=2', { as: 'user' });
    expect(r.status).toBe(200);
    expect(r.headers['x-page']).toBe('2');
    expect(r.headers['x-per-page']).toBe('10');
    expect(r.headers['x-prev-page']).toBe('1');
    expect(r.headers['x-next-page']).toBe('3');
    expect(r.headers['x-total']).toBe('45');
    expect(r.headers['x-total-pages']).toBe('5');
    const base = `${c.sb.url}/api/v4/projects/1/issues/1/notes`;
    expect(r.headers.link).toBe(
      `<${base}?page=1&per_page=10>; rel="prev", <${base}?page=3&per_page=10>; rel="next", <${base}?page=1&per_page=10>; rel="first", <${base}?page=5&per_page=10>; rel="last"`,
    );
  });

  it('sends no previous page past the last page', async () => {
    const r = await c.call('/projects/1/issues/1/notes?per_page=10&page=9', { as: 'user' });
    expect(r.status).toBe(200);
    expect(r.json).toEqual([]);
    expect(r.headers['x-prev-page']).toBe('');
    expect(r.headers['x-next-page']).toBe('');
    expect(Object.keys(parseLink(r.headers.link))).toEqual(['first', 'last']);
  });

  it('clamps per_page above 100 to 100', async () => {
    const r = await c.call('/projects?per_page=500', { as: 'admin' });
    expect(r.headers['x-per-page']).toBe('100');
    expect(r.json.length).toBe(30);
  });

  it('refuses per_page=0 with {"error":"per_page has a value not allowed"}', async () => {
    const r = await c.call('/projects?per_page=0', { as: 'admin' });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ error: 'per_page has a value not allowed' });
  });

  it('refuses a non-integer page with {"error":"page is invalid"}', async () => {
    const r = await c.call('/projects?page=abc', { as: 'admin' });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ error: 'page is invalid' });
  });

  it('has X-Total-Pages 1 for an empty result', async () => {
    const r = await c.call('/projects?search=no-such-project-anywhere', { as: 'admin' });
    expect(r.json).toEqual([]);
    expect(r.headers['x-total']).toBe('0');
    expect(r.headers['x-total-pages']).toBe('1');
  });
});

describe('endpoints §7 the commit list is never counted', () => {
  it('sends no X-Total, X-Total-Pages or rel="last"', async () => {
    const r = await c.call('/projects/1/repository/commits?per_page=5', { as: 'user' });
    expect(r.status).toBe(200);
    expect(r.json.length).toBe(5);
    expect(r.headers['x-total']).toBeUndefined();
    expect(r.headers['x-total-pages']).toBeUndefined();
    expect(Object.keys(parseLink(r.headers.link))).toEqual(['next', 'first']);
  });

  it('reports a next page whenever a page is full, even if the next one is empty', async () => {
    const r = await c.call('/projects/1/repository/commits?per_page=12', { as: 'user' });
    expect(r.json.length).toBe(12);
    expect(r.headers['x-next-page']).toBe('2');
    const next = await c.call(pathOf(parseLink(r.headers.link).next!).replace('/api/v4', ''), { as: 'user' });
    expect(next.json).toEqual([]);
    expect(next.headers['x-next-page']).toBe('');
  });
});

describe('endpoints §4 the project job list is never counted', () => {
  it('sends no X-Total, X-Total-Pages or rel="last"', async () => {
    const r = await c.call('/projects/1/jobs?per_page=2', { as: 'admin' });
    expect(r.status).toBe(200);
    expect(r.json.length).toBe(2);
    expect(r.headers['x-total']).toBeUndefined();
    expect(r.headers['x-total-pages']).toBeUndefined();
    expect(Object.keys(parseLink(r.headers.link))).toEqual(['next', 'first']);
  });
});
