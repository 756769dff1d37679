// Tag writes and Gitaly keyset pages: service-endpoints.md §7 (Tags).
import { describe, expect, it } from 'vitest';
import { useSandbox } from './setup.js';

const c = useSandbox({ projects: 10 });
const names = (r: { json: Array<{ name: string }> }) => r.json.map((t) => t.name);

describe('§7 tags: writes', () => {
  it('POST with message makes an annotated tag: 201 with the tag', async () => {
    const r = await c.call('/projects/1/repository/tags', {
      as: 'user',
      method: 'POST',
      json: { tag_name: 'x/1', ref: 'main', message: 'm' },
    });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ name: 'x/1', message: 'm', protected: false });
  });

  it('POST without tag_name and ref: 400 {"error":"tag_name is missing, ref is missing"}', async () => {
    const r = await c.call('/projects/1/repository/tags', { as: 'user', method: 'POST', json: {} });
    expect([r.status, r.json]).toEqual([400, { error: 'tag_name is missing, ref is missing' }]);
  });

  it('POST of a name git refuses as a ref: 400 {"message":"Tag name invalid"}, and no tag is made', async () => {
    for (const name of ['a..b', 'with space', 'esc\u001b[31m']) {
      const r = await c.call('/projects/1/repository/tags', { as: 'user', method: 'POST', json: { tag_name: name, ref: 'main' } });
      expect([name, r.status, r.json]).toEqual([name, 400, { message: 'Tag name invalid' }]);
    }
    const listed = await c.call('/projects/1/repository/tags?order_by=name', { as: 'user' });
    expect(names(listed).filter((n) => /\.\.| |\u001b/.test(n))).toEqual([]);
  });

  it('DELETE answers 204, then 404 Tag Not Found', async () => {
    await c.call('/projects/1/repository/tags', { as: 'user', method: 'POST', json: { tag_name: 'x/2', ref: 'main' } });
    const r = await c.call('/projects/1/repository/tags/x%2F2', { as: 'user', method: 'DELETE' });
    expect([r.status, r.text]).toEqual([204, '']);
    const again = await c.call('/projects/1/repository/tags/x%2F2', { as: 'user', method: 'DELETE' });
    expect([again.status, again.json]).toEqual([404, { message: '404 Tag Not Found' }]);
  });

  it('POST of a protected tag by a developer: 400 {"message":"You are not allowed to create this tag as it is protected."}', async () => {
    // olivia.garcia is a developer of project 1; v* tags are protected, x* are not.
    const sudo = { Sudo: 'olivia.garcia' };
    const r = await c.call('/projects/1/repository/tags', {
      as: 'admin',
      method: 'POST',
      headers: sudo,
      json: { tag_name: 'v7.7.7', ref: 'main' },
    });
    expect([r.status, r.json]).toEqual([400, { message: 'You are not allowed to create this tag as it is protected.' }]);
    expect((await c.call('/projects/1/repository/tags/v7.7.7', { as: 'admin' })).status).toBe(404);
    const open = await c.call('/projects/1/repository/tags', {
      as: 'admin',
      method: 'POST',
      headers: sudo,
      json: { tag_name: 'x7.7.7', ref: 'main' },
    });
    expect([open.status, open.json.name]).toEqual([201, 'x7.7.7']);
  });

  it('DELETE of a protected tag by a developer: 400 {"message":"You don\'t have access to delete the tag"}', async () => {
    // olivia.garcia is a developer of project 1; v* tags are protected.
    const r = await c.call('/projects/1/repository/tags/v1.1.0', { as: 'admin', method: 'DELETE', headers: { Sudo: 'olivia.garcia' } });
    expect([r.status, r.json]).toEqual([400, { message: "You don't have access to delete the tag" }]);
  });
});

describe('§7 tags: a seeded name deleted and created again', () => {
  it('is listed once, at its new target, and a second delete removes it', async () => {
    expect((await c.call('/projects/3/repository/tags/v2.0.0-rc.1', { as: 'admin', method: 'DELETE' })).status).toBe(204);
    const made = await c.call('/projects/3/repository/tags', {
      as: 'admin',
      method: 'POST',
      json: { tag_name: 'v2.0.0-rc.1', ref: 'main' },
    });
    const main = await c.call('/projects/3/repository/branches/main', { as: 'admin' });
    expect([made.status, made.json.commit.id]).toEqual([201, main.json.commit.id]);
    const listed = await c.call('/projects/3/repository/tags?search=rc', { as: 'admin' });
    expect(listed.json.map((t: { name: string; commit: { id: string } }) => [t.name, t.commit.id])).toEqual([
      ['v2.0.0-rc.1', main.json.commit.id],
    ]);
    expect((await c.call('/projects/3/repository/tags/v2.0.0-rc.1', { as: 'admin', method: 'DELETE' })).status).toBe(204);
    expect(names(await c.call('/projects/3/repository/tags?search=rc', { as: 'admin' }))).toEqual([]);
  });
});

describe('§7 tags: keyset pages', () => {
  it('pagination=keyset: rel="next" with page_token=<last name> after a full page; an unknown token is 422', async () => {
    const first = await c.call('/projects/2/repository/tags?order_by=name&sort=asc&pagination=keyset&per_page=2', { as: 'user' });
    expect(names(first)).toEqual(['v1.0.0', 'v1.0.0+build.5']);
    expect(first.headers.link).toBe(
      `<${c.sb.url}/api/v4/projects/2/repository/tags?order_by=name&page_token=v1.0.0%2Bbuild.5&pagination=keyset&per_page=2&sort=asc>; rel="next"`,
    );
    const bad = await c.call('/projects/2/repository/tags?pagination=keyset&page_token=nope', { as: 'user' });
    expect([bad.status, bad.json]).toEqual([422, { message: 'could not find page token: nope' }]);
  });
});
