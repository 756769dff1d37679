// A project's snippets: lib/api/project_snippets.rb (requires title and visibility; content or files,
// mutually exclusive; `authorize! :update_snippet` / `:admin_snippet`), entities/project_snippet.rb.
import { describe, expect, it } from 'vitest';
import { useSandbox } from './setup.js';

const c = useSandbox({ projects: 5 });
const call = (method: string, path: string, json: Record<string, unknown> = {}, as: 'admin' | 'user' = 'admin') =>
  c.call(path, { as, method, json });

describe('project snippets', () => {
  it('creates a snippet with files, lists it, reads its raw files, updates and deletes it', async () => {
    const made = await call('POST', '/projects/1/snippets', {
      title: 'Setup',
      visibility: 'internal',
      files: [
        { file_path: 'setup.sh', content: 'make setup\n' },
        { file_path: 'README.md', content: '# How\n' },
      ],
    });
    const id = made.json.id as number;
    const web = `${c.sb.url}/acme/platform/icy-tiger-1/-/snippets/${id}`;
    expect([made.status, id, made.json.project_id, made.json.web_url, made.json.file_name, made.json.files]).toEqual([
      201,
      1_000_001,
      1,
      web,
      'setup.sh',
      [
        { path: 'setup.sh', raw_url: `${web}/raw/main/setup.sh` },
        { path: 'README.md', raw_url: `${web}/raw/main/README.md` },
      ],
    ]);
    expect((await c.call('/projects/1/snippets', { as: 'user' })).json.map((s: { id: number }) => s.id)).toEqual([id]);
    expect((await c.call(`/projects/1/snippets/${id}/raw`, { as: 'user' })).text).toBe('make setup\n');
    expect((await c.call(`/projects/1/snippets/${id}/files/main/README.md/raw`, { as: 'user' })).text).toBe('# How\n');
    expect((await c.call(`/projects/1/snippets/${id}/files/dev/README.md/raw`, { as: 'user' })).json).toEqual({
      message: '404 Reference Not Found',
    });
    const moved = await call('PUT', `/projects/1/snippets/${id}`, {
      files: [{ action: 'move', previous_path: 'README.md', file_path: 'HOWTO.md' }],
    });
    expect(moved.json.files.map((f: { path: string }) => f.path)).toEqual(['setup.sh', 'HOWTO.md']);
    expect((await call('PUT', `/projects/1/snippets/${id}`, { files: [{ action: 'delete', file_path: 'nope' }] })).json).toEqual({
      message: { error: 'A file with the name nope does not exist' },
    });
    expect((await call('DELETE', `/projects/1/snippets/${id}`)).status).toBe(204);
    expect((await c.call(`/projects/1/snippets/${id}`, { as: 'admin' })).json).toEqual({ message: '404 Snippet Not Found' });
  });

  it('gives Grape’s texts for missing and clashing parameters, and refuses by role', async () => {
    expect((await call('POST', '/projects/1/snippets', {})).json).toEqual({ error: 'title is missing, visibility is missing' });
    expect((await call('POST', '/projects/1/snippets', { title: 't', visibility: 'public' })).json).toEqual({
      error: 'content, files are missing, exactly one parameter must be provided',
    });
    expect((await call('POST', '/projects/1/snippets', { title: 't', visibility: 'secret', content: 'x' })).json).toEqual({
      error: 'visibility does not have a valid value',
    });
    const one = await call('POST', '/projects/4/snippets', { title: 't', visibility: 'public', content: 'x', file_name: 'a.txt' });
    expect([one.json.file_name, one.json.files.length]).toEqual(['a.txt', 1]);
    expect((await call('PUT', `/projects/4/snippets/${one.json.id}`, { title: 'u' }, 'user')).status).toBe(403);
    expect((await call('POST', '/projects/4/snippets', { title: 't', visibility: 'public', content: 'x' }, 'user')).status).toBe(403);
    expect((await call('PUT', `/projects/4/snippets/${one.json.id}`, {})).json).toEqual({
      error: 'content, description, file_name, files, title, visibility are missing, at least one parameter must be provided',
    });
  });
});

describe('project snippet notes (lib/api/notes.rb, noteable_type snippets)', () => {
  it('comments (201) with noteable_type Snippet and no noteable_iid, lists newest first, reads, edits (200) and deletes (204)', async () => {
    const s = await call('POST', '/projects/3/snippets', { title: 'noted', visibility: 'internal', content: 'x' });
    const base = `/projects/3/snippets/${s.json.id}/notes`;
    const first = await call('POST', base, { body: 'first' });
    expect(first.status).toBe(201);
    expect(first.json).toMatchObject({
      body: 'first',
      noteable_id: s.json.id,
      noteable_type: 'Snippet',
      noteable_iid: null,
      system: false,
    });
    expect(first.json.author.username).toBe('root');
    const second = await call('POST', base, { body: 'second' }, 'user');
    const listed = await c.call(base, { as: 'admin' });
    expect([listed.json.map((n: { body: string }) => n.body), listed.headers['x-total']]).toEqual([['second', 'first'], '2']);
    expect((await c.call(`${base}?sort=asc`, { as: 'admin' })).json.map((n: { body: string }) => n.body)).toEqual(['first', 'second']);
    expect((await c.call(`${base}/${first.json.id}`, { as: 'user' })).json.body).toBe('first');
    const edited = await call('PUT', `${base}/${second.json.id}`, { body: 'second, edited' }, 'user');
    expect([edited.status, edited.json.body]).toEqual([200, 'second, edited']);
    expect((await call('DELETE', `${base}/${first.json.id}`)).status).toBe(204);
    const gone = await c.call(`${base}/${first.json.id}`, { as: 'admin' });
    expect([gone.status, gone.json]).toEqual([404, { message: '404 Not found' }]);
  });

  it('refuses a blank body, an unknown snippet (404 Snippet Not Found), and an edit by someone else without the maintainer role', async () => {
    const s = await call('POST', '/projects/3/snippets', { title: 'noted too', visibility: 'internal', content: 'x' });
    const base = `/projects/3/snippets/${s.json.id}/notes`;
    const blank = await call('POST', base, { body: '  ' });
    expect([blank.status, blank.json]).toEqual([400, { message: '400 Bad request - Note {:note=>["can\'t be blank"]}' }]);
    const none = await call('POST', '/projects/3/snippets/999/notes', { body: 'x' });
    expect([none.status, none.json]).toEqual([404, { message: '404 Snippet Not Found' }]);
    const note = await call('POST', base, { body: 'mine' });
    const reporter = await c.call('/projects/3/members', { as: 'admin', method: 'POST', json: { user_id: 8, access_level: 20 } });
    expect(reporter.status).toBe(201);
    const refused = await c.call(`${base}/${note.json.id}`, {
      as: 'admin',
      method: 'PUT',
      json: { body: 'theirs' },
      headers: { Sudo: reporter.json.username },
    });
    expect([refused.status, refused.json]).toEqual([403, { message: '403 Forbidden' }]);
  });
});
