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

  it('answers a new tag name git refuses as a ref 400 {"message":"Tag name invalid"} (the tag service\'s answer), making neither', async () => {
    const r = await c.call('/projects/1/releases', { as: 'admin', method: 'POST', json: { tag_name: 'bad..name', ref: 'main' } });
    expect([r.status, r.json]).toEqual([400, { message: 'Tag name invalid' }]);
    expect((await c.call('/projects/1/releases/bad..name', { as: 'admin' })).status).toBe(404);
    expect((await c.call('/projects/1/repository/tags/bad..name', { as: 'admin' })).status).toBe(404);
  });

  it('answers a missing tag without ref 422 {"message":"Ref is not specified"}', async () => {
    const r = await c.call('/projects/1/releases', { as: 'admin', method: 'POST', json: { tag_name: 'v3.0.0' } });
    expect(r.status).toBe(422);
    expect(r.json).toEqual({ message: 'Ref is not specified' });
  });
});

describe('§6 release writes', () => {
  it('creates with links and milestones, and reads them back', async () => {
    const r = await c.call('/projects/1/releases', {
      as: 'user',
      method: 'POST',
      json: {
        tag_name: 'v5.0.0',
        ref: 'main',
        name: 'Five',
        description: 'notes',
        milestones: ['v1.0'],
        assets: { links: [{ name: 'linux-amd64', url: 'https://example.com/bin', direct_asset_path: '/bin/app' }] },
      },
    });
    expect(r.status).toBe(201);
    expect(r.json.assets.count).toBe(5);
    expect(r.json.assets.links).toEqual([
      {
        id: r.json.assets.links[0].id,
        name: 'linux-amd64',
        url: 'https://example.com/bin',
        direct_asset_url: `${c.sb.url}/${c.sb.state.project(1)!.fullPath}/-/releases/v5.0.0/downloads/bin/app`,
        link_type: 'other',
      },
    ]);
    expect(r.json.milestones.map((m: { title: string }) => m.title)).toEqual(['v1.0']);
    const back = await c.call('/projects/1/releases/v5.0.0', { as: 'user' });
    expect(back.json.assets.links).toEqual(r.json.assets.links);
  });

  it('answers an unknown milestone 400 "Milestone(s) not found: v9.9" and both milestone params with the error key', async () => {
    const r = await c.call('/projects/1/releases', {
      as: 'admin',
      method: 'POST',
      json: { tag_name: 'v1.1.0-x', ref: 'main', milestones: ['v9.9'] },
    });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ message: 'Milestone(s) not found: v9.9' });
    const both = await c.call('/projects/1/releases', {
      as: 'admin',
      method: 'POST',
      json: { tag_name: 'v1.1.0-x', ref: 'main', milestones: ['v1.0'], milestone_ids: [1] },
    });
    expect(both.status).toBe(400);
    expect(both.json).toEqual({ error: 'Cannot specify milestones and milestone_ids at the same time' });
  });

  it('updates 200; milestones [] clears them', async () => {
    const r = await c.call('/projects/1/releases/v5.0.0', { as: 'user', method: 'PUT', json: { name: 'Five!', milestones: [] } });
    expect(r.status).toBe(200);
    expect(r.json.name).toBe('Five!');
    expect('milestones' in r.json).toBe(false);
  });

  it('redirects permalink/latest 302 to the numeric id, keeping the query but order_by', async () => {
    const latest = await c.call('/projects/1/releases/permalink/latest?order_by=created_at&include_html_description=true', { as: 'user' });
    expect(latest.status).toBe(302);
    expect(latest.headers.location).toBe('/api/v4/projects/1/releases/v5.0.0?include_html_description=true');
    expect(latest.headers['content-type']).toBe('text/plain');
    expect(latest.text).toBe(
      'This resource has been moved temporarily to /api/v4/projects/1/releases/v5.0.0?include_html_description=true.',
    );
  });

  it('answers permalink/latest 404 when the project has no release', async () => {
    await c.call('/projects/3/releases/v1.0.0', { as: 'admin', method: 'DELETE' });
    await c.call('/projects/3/releases/v1.1.0', { as: 'admin', method: 'DELETE' });
    const r = await c.call('/projects/3/releases/permalink/latest', { as: 'admin' });
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ message: '404 Not Found' });
  });

  it('deletes 200 with the deleted release and keeps the tag', async () => {
    const r = await c.call('/projects/1/releases/v5.0.0', { as: 'user', method: 'DELETE' });
    expect(r.status).toBe(200);
    expect(r.json.tag_name).toBe('v5.0.0');
    expect(r.json.name).toBe('Five!');
    expect((await c.call('/projects/1/releases/v5.0.0', { as: 'user' })).status).toBe(404);
    expect((await c.call('/projects/1/repository/tags/v5.0.0', { as: 'user' })).status).toBe(200);
  });

  it('answers a developer releasing a protected tag 403 {"message":"You are not allowed to create this tag as it is protected."}', async () => {
    // olivia.garcia is a developer of project 1; v* tags are protected there, x* are not.
    const sudo = { Sudo: 'olivia.garcia' };
    const made = await c.call('/projects/1/releases', {
      as: 'admin',
      method: 'POST',
      headers: sudo,
      json: { tag_name: 'v8.0.0', ref: 'main' },
    });
    expect([made.status, made.json]).toEqual([403, { message: 'You are not allowed to create this tag as it is protected.' }]);
    expect((await c.call('/projects/1/repository/tags/v8.0.0', { as: 'admin' })).status).toBe(404);
    const existing = await c.call('/projects/1/releases', { as: 'admin', method: 'POST', headers: sudo, json: { tag_name: 'v1.0.0' } });
    expect([existing.status, existing.json]).toEqual([403, { message: 'You are not allowed to create this tag as it is protected.' }]);
    const open = await c.call('/projects/1/releases', {
      as: 'admin',
      method: 'POST',
      headers: sudo,
      json: { tag_name: 'x8.0.0', ref: 'main' },
    });
    expect(open.status).toBe(201);
  });

  it('accepts the job token on release writes of its own project', async () => {
    const r = await c.call('/projects/2/releases', {
      method: 'POST',
      headers: { 'JOB-TOKEN': c.sb.tokens.job },
      json: { tag_name: 'v7.0.0', ref: 'main' },
    });
    expect(r.status).toBe(201);
    const other = await c.call('/projects/4/releases/v1.0.0', {
      method: 'PUT',
      headers: { 'JOB-TOKEN': c.sb.tokens.job },
      json: { name: 'x' },
    });
    expect([other.status, other.json]).toEqual([
      403,
      {
        message:
          '403 Forbidden - Authentication by CI/CD job token not allowed from acme/platform/eager-lynx-2 to initech/backend/lucky-beacon-4.',
      },
    ]);
  });
});

describe('§6 release links', () => {
  const links = '/projects/1/releases/v1.0.0/assets/links';

  it('creates 201 (link_type other by default), reads, updates 200, deletes 200 with the link', async () => {
    const created = await c.call(links, { as: 'user', method: 'POST', json: { name: 'docs', url: 'https://example.com/docs' } });
    expect(created.status).toBe(201);
    const id = created.json.id;
    expect(created.json).toEqual({
      id,
      name: 'docs',
      url: 'https://example.com/docs',
      direct_asset_url: 'https://example.com/docs',
      link_type: 'other',
    });
    expect((await c.call(`${links}/${id}`, { as: 'user' })).json).toEqual(created.json);
    expect((await c.call(links, { as: 'user' })).json).toEqual([created.json]);
    const updated = await c.call(`${links}/${id}`, { as: 'user', method: 'PUT', json: { link_type: 'runbook', name: 'runbook' } });
    expect(updated.status).toBe(200);
    expect(updated.json).toMatchObject({ name: 'runbook', link_type: 'runbook' });
    const deleted = await c.call(`${links}/${id}`, { as: 'user', method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(deleted.json).toEqual(updated.json);
    expect((await c.call(links, { as: 'user' })).json).toEqual([]);
  });

  it('answers a duplicate name 400, an update without name or url 400, unknown tag or link 404 "404 Not found"', async () => {
    const first = await c.call(links, { as: 'user', method: 'POST', json: { name: 'a', url: 'https://example.com/a' } });
    const dup = await c.call(links, { as: 'user', method: 'POST', json: { name: 'a', url: 'https://example.com/b' } });
    expect(dup.status).toBe(400);
    expect(dup.json).toEqual({ message: 'Name has already been taken' });
    const empty = await c.call(`${links}/${first.json.id}`, { as: 'user', method: 'PUT', json: {} });
    expect(empty.status).toBe(400);
    expect(empty.json).toEqual({ error: 'name, url are missing, at least one parameter must be provided' });
    for (const path of ['/projects/1/releases/v9.9.9/assets/links', `${links}/999999`]) {
      const r = await c.call(path, { as: 'user' });
      expect(r.status).toBe(404);
      expect(r.json).toEqual({ message: '404 Not found' });
    }
  });
});
