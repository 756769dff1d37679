// Snippets' content and updates: service-endpoints.md §14 (raw, files raw, PUT).
import { beforeAll, describe, expect, it } from 'vitest';
import { useSandbox } from './setup.js';

const c = useSandbox({ projects: 2 });
let single: number;
let multi: number;

beforeAll(async () => {
  const one = await c.call('/snippets', { as: 'user', method: 'POST', json: { title: 'one', file_name: 'a.txt', content: 'héllo ✓\n' } });
  single = one.json.id as number;
  const files = [
    { file_path: 'conf/nginx.conf', content: 'server {}\n' },
    { file_path: 'b.sh', content: 'echo b\n' },
  ];
  const two = await c.call('/snippets', { as: 'user', method: 'POST', json: { title: 'two', files, visibility: 'private' } });
  multi = two.json.id as number;
});

describe('§14 GET /snippets/:id/raw and …/files/:ref/:file_path/raw', () => {
  it('answers the plain text of the first file', async () => {
    const r = await c.call(`/snippets/${multi}/raw`, { as: 'user' });
    expect([r.status, r.headers['content-type'], r.text]).toEqual([200, 'text/plain; charset=utf-8', 'server {}\n']);
    const utf8 = await c.call(`/snippets/${single}/raw`, { as: 'user' });
    expect(utf8.buf.equals(Buffer.from('héllo ✓\n'))).toBe(true);
  });

  it('answers one file by its URL-encoded path on the branch main', async () => {
    const r = await c.call(`/snippets/${multi}/files/main/conf%2Fnginx.conf/raw`, { as: 'user' });
    expect([r.status, r.text]).toEqual([200, 'server {}\n']);
  });

  it('lists every file in the record, with its raw URL', async () => {
    const r = await c.call(`/snippets/${multi}`, { as: 'user' });
    expect(r.json.file_name).toBe('conf/nginx.conf');
    expect(r.json.files).toEqual([
      { path: 'conf/nginx.conf', raw_url: `${c.sb.url}/-/snippets/${multi}/raw/main/conf/nginx.conf` },
      { path: 'b.sh', raw_url: `${c.sb.url}/-/snippets/${multi}/raw/main/b.sh` },
    ]);
  });

  it('answers a private snippet to an anonymous caller 404 Snippet Not Found', async () => {
    const anonymous = await c.call(`/snippets/${multi}/raw`);
    expect([anonymous.status, anonymous.json]).toEqual([404, { message: '404 Snippet Not Found' }]);
  });

  it('answers an unknown branch 404 Reference Not Found and an unknown file 404 File Not Found', async () => {
    const ref = await c.call(`/snippets/${multi}/files/master/b.sh/raw`, { as: 'user' });
    expect([ref.status, ref.json]).toEqual([404, { message: '404 Reference Not Found' }]);
    const file = await c.call(`/snippets/${multi}/files/main/c.sh/raw`, { as: 'user' });
    expect([file.status, file.json]).toEqual([404, { message: '404 File Not Found' }]);
  });
});

describe('§14 PUT /snippets/:id', () => {
  it("answers another user's snippet 404 Snippet Not Found, administrators included, and changes nothing", async () => {
    const r = await c.call(`/snippets/${single}`, { as: 'admin', method: 'PUT', json: { title: 'x', content: 'taken' } });
    expect([r.status, r.json]).toEqual([404, { message: '404 Snippet Not Found' }]);
    expect([c.sb.state.snippet(single)?.title, c.sb.state.snippet(single)?.content]).toEqual(['one', 'héllo ✓\n']);
  });

  it('needs at least one parameter', async () => {
    const r = await c.call(`/snippets/${single}`, { as: 'user', method: 'PUT', json: {} });
    expect([r.status, r.json]).toEqual([
      400,
      { error: 'content, description, files, file_name, title, visibility are missing, at least one parameter must be provided' },
    ]);
  });

  it('refuses content or file_name for a snippet with several files', async () => {
    const r = await c.call(`/snippets/${multi}`, { as: 'user', method: 'PUT', json: { content: 'x' } });
    expect([r.status, r.json]).toEqual([
      400,
      { message: { error: 'To update Snippets with multiple files, you must use the `files` parameter' } },
    ]);
  });

  it('answers 200 with the snippet after files[] update and move', async () => {
    const files = [
      { action: 'update', file_path: 'b.sh', content: 'echo B\n' },
      { action: 'move', previous_path: 'conf/nginx.conf', file_path: 'nginx.conf' },
    ];
    const r = await c.call(`/snippets/${multi}`, { as: 'user', method: 'PUT', json: { title: 'renamed', files } });
    expect([r.status, r.json.title, r.json.files.map((f: { path: string }) => f.path)]).toEqual([200, 'renamed', ['nginx.conf', 'b.sh']]);
    expect((await c.call(`/snippets/${multi}/files/main/b.sh/raw`, { as: 'user' })).text).toBe('echo B\n');
    expect((await c.call(`/snippets/${multi}/raw`, { as: 'user' })).text).toBe('server {}\n');
  });

  it('answers a files[] action on a file the snippet lacks with the service error body', async () => {
    const r = await c.call(`/snippets/${multi}`, {
      as: 'user',
      method: 'PUT',
      json: { files: [{ action: 'update', file_path: 'nope.txt', content: 'x' }] },
    });
    expect([r.status, r.json]).toEqual([400, { message: { error: 'A file with the name nope.txt does not exist' } }]);
  });

  it('refuses an unknown files[] action and a blank title', async () => {
    const action = await c.call(`/snippets/${multi}`, {
      as: 'user',
      method: 'PUT',
      json: { files: [{ action: 'copy', file_path: 'b.sh' }] },
    });
    expect([action.status, action.json]).toEqual([400, { error: 'files[0][action] does not have a valid value' }]);
    const title = await c.call(`/snippets/${single}`, { as: 'user', method: 'PUT', json: { title: ' ' } });
    expect([title.status, title.json]).toEqual([400, { error: 'title is empty' }]);
  });
});
