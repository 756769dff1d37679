// Repository: service-endpoints.md §7 (branches, tags, commits, files).
import { describe, expect, it } from 'vitest';
import { useSandbox } from './setup.js';

const c = useSandbox();
const names = (r: { json: Array<{ name: string }> }) => r.json.map((b) => b.name);

describe('§7 branches', () => {
  it('lists branches ordered by name', async () => {
    const r = await c.call('/projects/1/repository/branches', { as: 'user' });
    expect(names(r)).toEqual(['develop', 'fail/broken-build', 'feature/login', 'feature/search-v2', 'fix/issue-1', 'main']);
  });

  it('search=^feature matches a prefix', async () => {
    expect(names(await c.call('/projects/1/repository/branches?search=^feature', { as: 'user' }))).toEqual([
      'feature/login',
      'feature/search-v2',
    ]);
  });

  it('search=build$ matches a suffix', async () => {
    expect(names(await c.call('/projects/1/repository/branches?search=build$', { as: 'user' }))).toEqual(['fail/broken-build']);
  });

  it('search without anchors matches a substring', async () => {
    expect(names(await c.call('/projects/1/repository/branches?search=i', { as: 'user' }))).toEqual([
      'fail/broken-build',
      'feature/login',
      'fix/issue-1',
      'main',
    ]);
  });

  it('answers an unknown branch {"message":"404 Branch Not Found"}', async () => {
    const r = await c.call('/projects/1/repository/branches/nope', { as: 'user' });
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ message: '404 Branch Not Found' });
  });
});

describe('§7 tags', () => {
  it('orders by last update, newest first, by default', async () => {
    expect(names(await c.call('/projects/1/repository/tags', { as: 'user' }))).toEqual([
      'v1.1.0',
      'v2.0.0-rc.1',
      'v1.0.0+build.5',
      'v1.0.0',
    ]);
  });

  it('order_by=name&sort=asc orders by name', async () => {
    expect(names(await c.call('/projects/1/repository/tags?order_by=name&sort=asc', { as: 'user' }))).toEqual([
      'v1.0.0',
      'v1.0.0+build.5',
      'v1.1.0',
      'v2.0.0-rc.1',
    ]);
  });

  it('order_by=version orders numerically, highest first', async () => {
    expect(names(await c.call('/projects/1/repository/tags?order_by=version', { as: 'user' }))).toEqual([
      'v2.0.0-rc.1',
      'v1.1.0',
      'v1.0.0+build.5',
      'v1.0.0',
    ]);
  });

  it('search=^v1.0 matches a prefix', async () => {
    expect(names(await c.call('/projects/1/repository/tags?search=^v1.0', { as: 'user' }))).toEqual(['v1.0.0+build.5', 'v1.0.0']);
  });

  it('refuses an unknown order_by', async () => {
    const r = await c.call('/projects/1/repository/tags?order_by=created_at', { as: 'user' });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ error: 'order_by does not have a valid value' });
  });

  it('answers an unknown tag {"message":"404 Tag Not Found"}', async () => {
    const r = await c.call('/projects/1/repository/tags/v9', { as: 'user' });
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ message: '404 Tag Not Found' });
  });
});

describe('§7 commits', () => {
  it('answers an unknown ref_name with 200 []', async () => {
    const r = await c.call('/projects/1/repository/commits?ref_name=no-such-branch', { as: 'user' });
    expect(r.status).toBe(200);
    expect(r.json).toEqual([]);
  });

  it('path keeps the commits that changed the path (the first commit adds every file)', async () => {
    const r = await c.call('/projects/1/repository/commits?path=src/app/main.ts', { as: 'user' });
    expect(r.json.map((x: { title: string }) => x.title)).toEqual([
      'Update main module (9)',
      'Update main module (5)',
      'Update main module (1)',
      'Initial commit',
    ]);
  });

  it('since and until bound the commit time, inclusive', async () => {
    const every = (await c.call('/projects/1/repository/commits?per_page=100', { as: 'user' })).json as Array<{
      id: string;
      committed_date: string;
    }>;
    const since = every[8]!.committed_date;
    const until = every[3]!.committed_date;
    const r = await c.call(`/projects/1/repository/commits?since=${since}&until=${until}`, { as: 'user' });
    expect(r.json.map((x: { id: string }) => x.id)).toEqual(every.slice(3, 9).map((x) => x.id));
  });

  it('author matches the author name or email', async () => {
    const r = await c.call('/projects/1/repository/commits?per_page=100&author=jane', { as: 'user' });
    expect(new Set(r.json.map((x: { author_name: string }) => x.author_name))).toEqual(new Set(['Jane Doe']));
    expect(r.json.length).toBe(4);
  });

  it('all=true lists the commits of every branch once, newest first', async () => {
    const r = await c.call('/projects/1/repository/commits?per_page=100&all=true', { as: 'user' });
    const shas = r.json.map((x: { id: string }) => x.id);
    expect(new Set(shas).size).toBe(shas.length);
    expect(shas.length).toBe(12 + 5 * 3);
  });
});

describe('§7 files', () => {
  it('answers an unknown file {"message":"404 File Not Found"}', async () => {
    const r = await c.call('/projects/1/repository/files/nope.md?ref=main', { as: 'user' });
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ message: '404 File Not Found' });
  });

  it('creates a file with 201 {file_path, branch}; it can then be read raw', async () => {
    const r = await c.call('/projects/1/repository/files/notes%2Fnew.txt', {
      as: 'admin',
      method: 'POST',
      json: { branch: 'main', commit_message: 'add', content: 'hello' },
    });
    expect(r.status).toBe(201);
    expect(r.json).toEqual({ file_path: 'notes/new.txt', branch: 'main' });
    const raw = await c.call('/projects/1/repository/files/notes%2Fnew.txt/raw?ref=main', { as: 'admin' });
    expect(raw.text).toBe('hello');
  });

  it("a branch made from a branch has the files written there; a name made again starts without the old branch's writes", async () => {
    const write = (branch: string) =>
      c.call('/projects/1/repository/files/ci%2Fbuilt.txt', {
        as: 'admin',
        method: 'POST',
        json: { branch, commit_message: 'add', content: `on ${branch}` },
      });
    const branch = (name: string, ref: string) =>
      c.call('/projects/1/repository/branches', { as: 'admin', method: 'POST', json: { branch: name, ref } });
    const read = (ref: string) => c.call(`/projects/1/repository/files/ci%2Fbuilt.txt/raw?ref=${encodeURIComponent(ref)}`, { as: 'admin' });
    expect((await write('develop')).status).toBe(201);
    expect((await branch('topic/a', 'develop')).status).toBe(201);
    const inherited = await read('topic/a');
    expect([inherited.status, inherited.text]).toEqual([200, 'on develop']);
    expect((await branch('topic/b', 'topic/a')).status).toBe(201);
    expect((await read('topic/b')).text).toBe('on develop');
    expect((await c.call('/projects/1/repository/branches/topic%2Fa', { as: 'admin', method: 'DELETE' })).status).toBe(204);
    expect((await branch('topic/a', 'main')).status).toBe(201);
    const fresh = await read('topic/a');
    expect([fresh.status, fresh.json]).toEqual([404, { message: '404 File Not Found' }]);
  });

  it('answers a create without branch and commit_message with both missing', async () => {
    const r = await c.call('/projects/1/repository/files/x.txt', { as: 'admin', method: 'POST', json: { content: 'x' } });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ error: 'branch is missing, commit_message is missing' });
  });
});
