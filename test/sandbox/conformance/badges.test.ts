// Project and group badges: lib/api/badges.rb (`find_source_if_admin`, `find_badge` → `find`),
// helpers/badges_helpers.rb (a group's placeholders from its first project), entities/basic_badge_details.rb
// and badge.rb (the fields, in order), app/models/badge.rb (URL validation, placeholders).
import { describe, expect, it } from 'vitest';
import { useSandbox } from './setup.js';

const c = useSandbox({ projects: 5 });
const post = (path: string, json: Record<string, unknown>, as: 'admin' | 'user' = 'admin') => c.call(path, { as, method: 'POST', json });

describe('badges', () => {
  it('a project lists its groups’ badges with its own, placeholders rendered from the project', async () => {
    const group = await post('/groups/acme/badges', {
      link_url: 'https://ci.example/%{project_path}',
      image_url: 'https://img.example/b.svg',
      name: 'ci',
    });
    expect([group.status, group.json]).toEqual([
      201,
      {
        name: 'ci',
        link_url: 'https://ci.example/%{project_path}',
        image_url: 'https://img.example/b.svg',
        rendered_link_url: 'https://ci.example/acme/platform/icy-tiger-1',
        rendered_image_url: 'https://img.example/b.svg',
        id: 1,
        kind: 'group',
      },
    ]);
    const own = await post('/projects/2/badges', {
      link_url: 'https://x.example/%{project_id}/%{default_branch}',
      image_url: 'https://i.example/x',
    });
    expect([own.status, own.json.rendered_link_url, own.json.kind, own.json.name]).toEqual([
      201,
      'https://x.example/2/main',
      'project',
      null,
    ]);
    const list = await c.call('/projects/2/badges', { as: 'user' });
    expect([list.headers['x-total'], list.json.map((b: { id: number; kind: string }) => [b.id, b.kind])]).toEqual([
      '2',
      [
        [1, 'group'],
        [2, 'project'],
      ],
    ]);
    expect(list.json[0].rendered_link_url).toBe('https://ci.example/acme/platform/eager-lynx-2');
    expect((await c.call('/projects/2/badges?name=ci', { as: 'user' })).json.map((b: { id: number }) => b.id)).toEqual([1]);
    expect((await c.call('/groups/acme/badges', { as: 'user' })).json.map((b: { id: number }) => b.id)).toEqual([1]);
  });

  it('validates URLs, renders a preview, updates and deletes; an unknown id is 404 Not found', async () => {
    expect((await post('/projects/3/badges', { link_url: 'x' })).json).toEqual({ error: 'image_url is missing' });
    expect((await post('/projects/3/badges', { link_url: 'nope', image_url: 'https://i.example' })).json).toEqual({
      message: { link_url: ['must be a valid URL'] },
    });
    const preview = await c.call(
      '/projects/3/badges/render?link_url=https://a.example/%25%7Bproject_title%7D&image_url=https://b.example',
      {
        as: 'admin',
      },
    );
    expect(preview.json).toEqual({
      name: null,
      link_url: 'https://a.example/%{project_title}',
      image_url: 'https://b.example',
      rendered_link_url: 'https://a.example/Nice Lynx 3',
      rendered_image_url: 'https://b.example',
    });
    const made = await post('/projects/3/badges', { link_url: 'https://a.example', image_url: 'https://b.example' });
    const changed = await c.call(`/projects/3/badges/${made.json.id}`, { as: 'admin', method: 'PUT', json: { name: 'docs' } });
    expect([changed.status, changed.json.name, changed.json.link_url]).toEqual([200, 'docs', 'https://a.example']);
    expect((await c.call(`/projects/3/badges/${made.json.id}`, { as: 'admin', method: 'DELETE' })).status).toBe(204);
    expect((await c.call(`/projects/3/badges/${made.json.id}`, { as: 'admin' })).json).toEqual({ message: '404 Not found' });
  });

  it('refuses writes below maintainer on a project and below owner on a group, and anonymous writes', async () => {
    const body = { link_url: 'https://a.example', image_url: 'https://b.example' };
    expect((await post('/projects/4/badges', body, 'user')).json).toEqual({ message: '403 Forbidden' });
    expect((await post('/groups/acme/badges', body, 'user')).json).toEqual({ message: '403 Forbidden' });
    expect((await c.call('/projects/4/badges/render?link_url=https://a.example&image_url=https://b.example', { as: 'user' })).status).toBe(
      403,
    );
    expect((await c.call('/projects/1/badges', { method: 'POST', json: body })).status).toBe(401);
  });
});
