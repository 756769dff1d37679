// More routes real clients reach: lib/api/ci/triggers.rb (one trigger), personal_access_tokens.rb
// (`POST /user/personal_access_tokens`, `k8s_proxy` only), projects.rb `uploads` (entities/project_upload.rb),
// search.rb (helpers/search_helpers.rb scopes) and commits.rb (`comments`, `signature`).
import { describe, expect, it } from 'vitest';
import { useSandbox } from './setup.js';
import { TestClock } from '../../support/clock.js';

const clock = new TestClock();
const c = useSandbox({ projects: 5, clock: clock.now });
const post = (path: string, json: Record<string, unknown> = {}, as: 'admin' | 'user' = 'admin') =>
  c.call(path, { as, method: 'POST', json });

function upload(name: string, type: string, data: Buffer): { body: Buffer; headers: Record<string, string> } {
  const boundary = 'sandbox-boundary';
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` } };
}

describe('one pipeline trigger', () => {
  it('reads, renames and deletes a trigger; an unknown one is 404 Not found', async () => {
    const made = await post('/projects/1/triggers', { description: 'nightly' });
    const id = made.json.id as number;
    expect((await c.call(`/projects/1/triggers/${id}`, { as: 'admin' })).json.description).toBe('nightly');
    const renamed = await c.call(`/projects/1/triggers/${id}`, { as: 'admin', method: 'PUT', json: { description: 'weekly' } });
    expect([renamed.status, renamed.json.description]).toEqual([200, 'weekly']);
    expect((await c.call(`/projects/1/triggers/${id}`, { as: 'admin', method: 'DELETE' })).status).toBe(204);
    expect((await c.call(`/projects/1/triggers/${id}`, { as: 'admin' })).json).toEqual({ message: '404 Not found' });
    expect((await c.call(`/projects/4/triggers/${id}`, { as: 'user' })).status).toBe(403);
  });
});

describe('a personal access token for oneself', () => {
  it('creates one with k8s_proxy only, answering the token once', async () => {
    const made = await post('/user/personal_access_tokens', { name: 'agent', scopes: ['k8s_proxy'] }, 'user');
    expect([made.status, made.json.name, made.json.scopes, made.json.user_id, typeof made.json.token]).toEqual([
      201,
      'agent',
      ['k8s_proxy'],
      2,
      'string',
    ]);
    expect((await post('/user/personal_access_tokens', { name: 'x', scopes: ['api'] }, 'user')).json).toEqual({
      error: 'scopes does not have a valid value',
    });
    expect((await post('/user/personal_access_tokens', {}, 'user')).json).toEqual({ error: 'name is missing, scopes is missing' });
  });
});

describe('project uploads', () => {
  it('takes a file and answers its markdown; maintainers list, download and delete it', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    const { body, headers } = upload('screen shot.png', 'image/png', png);
    const made = await c.call('/projects/1/uploads', { as: 'user', method: 'POST', body, headers });
    expect(made.status).toBe(201);
    const secret = (made.json.url as string).split('/')[2]!;
    expect(secret).toMatch(/^[0-9a-f]{32}$/);
    expect(made.json).toEqual({
      id: 1,
      alt: 'screen_shot',
      url: `/uploads/${secret}/screen_shot.png`,
      full_path: `/-/project/1/uploads/${secret}/screen_shot.png`,
      markdown: `![screen_shot](/uploads/${secret}/screen_shot.png)`,
    });
    const text = upload('notes.txt', 'text/plain', Buffer.from('hello'));
    const second = await c.call('/projects/1/uploads', { as: 'admin', method: 'POST', ...text });
    expect(second.json.markdown).toBe(`[notes.txt](${second.json.url})`);
    const list = await c.call('/projects/1/uploads', { as: 'admin' });
    expect(list.json.map((u: { id: number; size: number; filename: string }) => [u.id, u.size, u.filename])).toEqual([
      [1, 11, 'screen_shot.png'],
      [2, 5, 'notes.txt'],
    ]);
    expect(list.json[0].created_at).toBe(new Date(clock.now()).toISOString());
    expect((await c.call(`/projects/1/uploads/${secret}/screen_shot.png`, { as: 'admin' })).buf.equals(png)).toBe(true);
    expect((await c.call('/projects/1/uploads/2', { as: 'admin' })).text).toBe('hello');
    expect((await c.call('/projects/1/uploads/2', { as: 'admin', method: 'DELETE' })).status).toBe(204);
    expect((await c.call('/projects/1/uploads/2', { as: 'admin' })).json).toEqual({ message: '404 Upload Not Found' });
    expect((await c.call('/projects/1/uploads', { as: 'admin', method: 'POST', json: {} })).json).toEqual({ error: 'file is missing' });
  });
});

describe('search', () => {
  it('requires search and a scope of the level, and finds what the caller can see', async () => {
    expect((await c.call('/search', { as: 'user' })).json).toEqual({ error: 'search is missing, scope is missing' });
    expect((await c.call('/search?search=x&scope=blobs', { as: 'user' })).json).toEqual({ error: 'scope does not have a valid value' });
    const projects = await c.call('/search?scope=projects&search=TIGER', { as: 'user' });
    expect(projects.json.map((p: { id: number }) => p.id)).toEqual([1]);
    const users = await c.call('/search?scope=users&search=jdoe', { as: 'user' });
    expect(users.json.map((u: { username: string }) => u.username)).toEqual(['jdoe']);
    const issues = await c.call('/projects/1/search?scope=issues&search=dark%20mode', { as: 'user' });
    const direct = (await c.call('/projects/1/issues?per_page=100', { as: 'user' })).json as Array<{ iid: number; title: string }>;
    expect(issues.json.map((i: { iid: number }) => i.iid)).toEqual(
      direct
        .filter((i) => i.title.toLowerCase().includes('dark mode'))
        .map((i) => i.iid)
        .sort((a, b) => a - b),
    );
  });

  it('finds blobs and commits in a project, at the default branch', async () => {
    const blobs = await c.call('/projects/2/search?scope=blobs&search=welcome', { as: 'user' });
    expect(blobs.json).toEqual([
      {
        basename: 'docs/guide/intro',
        data: '\nWelcome to Eager Lynx 2.\n\n',
        path: 'docs/guide/intro.md',
        filename: 'docs/guide/intro.md',
        id: null,
        ref: 'main',
        startline: 2,
        project_id: 2,
      },
    ]);
    const commits = await c.call('/projects/2/search?scope=commits&search=update%20docs', { as: 'user' });
    const all = (await c.call('/projects/2/repository/commits?ref_name=main&per_page=100', { as: 'user' })).json as Array<{
      id: string;
      title: string;
    }>;
    expect(commits.json.map((x: { id: string }) => x.id)).toEqual(all.filter((x) => x.title.startsWith('Update docs')).map((x) => x.id));
    expect(commits.json[0].project_id).toBe(2);
  });
});

describe('commit comments and signature', () => {
  it('comments on a commit, lists the comment and its discussion; signatures are absent', async () => {
    const sha = (await c.call('/projects/1/repository/commits/main', { as: 'user' })).json.id as string;
    const made = await post(
      `/projects/1/repository/commits/${sha}/comments`,
      { note: 'Nice', path: 'README.md', line: 1, line_type: 'new' },
      'user',
    );
    expect(made.json).toEqual({
      note: 'Nice',
      path: 'README.md',
      line: 1,
      line_type: 'new',
      author: { id: 2, username: 'jdoe', name: 'Jane Doe', state: 'active', locked: false, avatar_url: null, web_url: `${c.sb.url}/jdoe` },
      created_at: new Date(clock.now()).toISOString(),
    });
    expect((await c.call(`/projects/1/repository/commits/${sha}/comments`, { as: 'user' })).json).toEqual([made.json]);
    const discussions = await c.call(`/projects/1/repository/commits/${sha}/discussions`, { as: 'user' });
    expect([
      discussions.json.length,
      discussions.json[0].individual_note,
      discussions.json[0].notes[0].body,
      discussions.json[0].notes[0].commit_id,
    ]).toEqual([1, true, 'Nice', sha]);
    expect((await c.call(`/projects/1/repository/commits/${'f'.repeat(40)}/comments`, { as: 'user' })).json).toEqual({
      message: '404 Commit Not Found',
    });
    expect((await c.call(`/projects/1/repository/commits/${sha}/signature`, { as: 'user' })).json).toEqual({
      message: '404 Signature Not Found',
    });
    expect((await post(`/projects/1/repository/commits/${sha}/comments`, {}, 'user')).json).toEqual({ error: 'note is missing' });
  });
});
