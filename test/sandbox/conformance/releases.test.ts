// Releases: service-endpoints.md §6 and service-behaviour.md §6 (Release entity).
import { describe, expect, it } from 'vitest';
import { useSandbox } from './setup.js';

const c = useSandbox();

describe('§6 releases', () => {
  it('has no description_html unless include_html_description=true', async () => {
    const r = await c.call('/projects/1/releases', { as: 'user' });
    expect(r.json.map((x: Record<string, unknown>) => 'description_html' in x)).toEqual([false, false]);
    const one = await c.call('/projects/1/releases/v1.0.0', { as: 'user' });
    expect('description_html' in one.json).toBe(false);
  });

  it('renders description_html with include_html_description=true', async () => {
    const r = await c.call('/projects/1/releases/v1.0.0?include_html_description=true', { as: 'user' });
    expect(r.json.description).toBe('Changes in v1.0.0.');
    expect(r.json.description_html).toBe('<p data-sourcepos="1:1-1:18" dir="auto">Changes in v1.0.0.</p>');
  });

  it('orders by released_at, newest first, by default; sort=asc reverses', async () => {
    const desc = await c.call('/projects/1/releases', { as: 'user' });
    const asc = await c.call('/projects/1/releases?sort=asc', { as: 'user' });
    expect(desc.json.map((x: { tag_name: string }) => x.tag_name)).toEqual(['v1.1.0', 'v1.0.0']);
    expect(asc.json.map((x: { tag_name: string }) => x.tag_name)).toEqual(['v1.0.0', 'v1.1.0']);
  });

  it('refuses an unknown order_by', async () => {
    const r = await c.call('/projects/1/releases?order_by=name', { as: 'user' });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ error: 'order_by does not have a valid value' });
  });

  it('answers an unknown tag {"message":"404 Not Found"}', async () => {
    const r = await c.call('/projects/1/releases/v9.9.9', { as: 'user' });
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ message: '404 Not Found' });
  });

  it('answers an existing release 409 {"message":"Release already exists"}', async () => {
    const r = await c.call('/projects/1/releases', { as: 'admin', method: 'POST', json: { tag_name: 'v1.0.0' } });
    expect(r.status).toBe(409);
    expect(r.json).toEqual({ message: 'Release already exists' });
  });

  it('answers a missing tag without ref 422 {"message":"Ref is not specified"}', async () => {
    const r = await c.call('/projects/1/releases', { as: 'admin', method: 'POST', json: { tag_name: 'v3.0.0' } });
    expect(r.status).toBe(422);
    expect(r.json).toEqual({ message: 'Ref is not specified' });
  });
});
