// service-behaviour.md §0 (how responses are built) and §5 (error bodies by status).
import { describe, expect, it } from 'vitest';
import { req } from '../helpers.js';
import { useSandbox } from './setup.js';

const c = useSandbox();

describe('§0 headers on every API response', () => {
  it('sends X-Frame-Options SAMEORIGIN, X-Content-Type-Options nosniff and application/json', async () => {
    const r = await c.call('/projects/1');
    expect(r.status).toBe(200);
    expect(r.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['content-type']).toBe('application/json');
  });

  it('sends them on errors too', async () => {
    const r = await c.call('/projects/999999');
    expect(r.status).toBe(404);
    expect(r.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(r.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('§0 router answers use the "error" key', () => {
  it('answers an unmatched route 404 {"error":"404 Not Found"}', async () => {
    const r = await c.call('/no/such/route', { as: 'admin' });
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ error: '404 Not Found' });
  });

  it('answers an unencoded slash in :id as an unmatched route', async () => {
    const r = await c.call('/projects/acme/platform', { as: 'admin' });
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ error: '404 Not Found' });
  });

  it('answers a wrong method 405 {"error":"405 Not Allowed"} with Allow', async () => {
    const r = await c.call('/version', { as: 'admin', method: 'DELETE' });
    expect(r.status).toBe(405);
    expect(r.json).toEqual({ error: '405 Not Allowed' });
    expect(r.headers.allow).toBe('GET, HEAD, OPTIONS');
  });

  it('answers API v3 410 with the "error" body', async () => {
    const r = await req(c.sb.url, '/api/v3/projects');
    expect(r.status).toBe(410);
    expect(r.json).toEqual({ error: 'API V3 is no longer supported. Use API V4 instead.' });
  });
});

describe('§0 route matching does not depend on registration order', () => {
  it('matches the literal /projects/import before /projects/:id', async () => {
    const r = await c.call('/projects/import', { as: 'user', method: 'POST', json: {} });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ error: 'path is missing, file is missing' });
  });

  it('matches /snippets/public before /snippets/:id', async () => {
    const r = await c.call('/snippets/public', { as: 'user' });
    expect(r.status).toBe(200);
  });
});

describe('§5 400 bodies', () => {
  it('answers a wrong type with {"error":"<param> is invalid"}', async () => {
    const r = await c.call('/projects/1/issues/abc', { as: 'user' });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ error: 'issue_iid is invalid' });
  });

  it('answers a bad enum with {"error":"<param> does not have a valid value"}', async () => {
    const r = await c.call('/projects?visibility=secret', { as: 'user' });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ error: 'visibility does not have a valid value' });
  });

  it('answers a missing required parameter with {"error":"<param> is missing"}', async () => {
    const r = await c.call('/projects/1/issues', { as: 'admin', method: 'POST', json: {} });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ error: 'title is missing' });
  });
});
