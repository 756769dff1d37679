import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, isolatedEnv, tempDir } from '../support/harness.js';
import { spawnPty } from '../support/pty.js';
import { sandboxEnv } from '../support/sandbox.js';
import { onlyRequest, useSandbox } from './support.js';

const suite = useSandbox({ projects: 2 });
const dir = tempDir();

/** Creates a snippet through the API itself (several files need `files[]`, which `svc snippets create` does not send). */
async function created(body: Record<string, unknown>, token = suite.sandbox.tokens.user): Promise<number> {
  const res = await fetch(`${suite.sandbox.url}/api/v4/snippets`, {
    method: 'POST',
    headers: { 'PRIVATE-TOKEN': token, 'Content-Type': 'application/json' },
    body: JSON.stringify({ visibility: 'private', ...body }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: number }).id;
}

const TWO_FILES = [
  { file_path: 'conf/nginx.conf', content: 'server { listen 80; }\n' },
  { file_path: 'b.sh', content: 'echo b\n' },
];

describe('snippets raw', () => {
  it('writes the first file byte for byte, with one request', async () => {
    const content = 'héllo ✓ — tabs\there\n';
    const id = await created({ title: 'utf8', file_name: 'a.txt', content });
    const result = await suite.run(['snippets', 'raw', String(id)], { token: suite.sandbox.tokens.user });
    expect(result.exitCode).toBe(0);
    expect(Buffer.from(result.stdout).equals(Buffer.from(content))).toBe(true);
    expect(result.stderr).toBe('');
    expect(suite.requests().map((r) => `${r.method} ${r.rawPath}`)).toEqual([`GET /api/v4/snippets/${id}/raw`]);
  });

  it('writes the file --file names, read from the branch its raw URL names', async () => {
    const id = await created({ title: 'two', files: TWO_FILES });
    const result = await suite.run(['snippets', 'raw', String(id), '--file', 'conf/nginx.conf'], { token: suite.sandbox.tokens.user });
    expect([result.exitCode, result.stdout, result.stderr]).toEqual([0, 'server { listen 80; }\n', '']);
    expect(suite.requests().map((r) => `${r.method} ${r.rawPath}`)).toEqual([
      `GET /api/v4/snippets/${id}`,
      `GET /api/v4/snippets/${id}/files/main/conf%2Fnginx.conf/raw`,
    ]);

    const unknown = await suite.run(['snippets', 'raw', String(id), '--file', 'c.sh'], { token: suite.sandbox.tokens.user });
    expect(unknown).toEqual({ exitCode: 5, stdout: '', stderr: `svc: snippet ${id} has no file c.sh; its files: conf/nginx.conf, b.sh\n` });
  });

  it('answers a private snippet to an anonymous caller with exit 5', async () => {
    const id = await created({ title: 'hidden', file_name: 'h.txt', content: 'h\n' });
    const result = await suite.run(['snippets', 'raw', String(id)], { env: { SVC_TOKEN: undefined } });
    expect(result).toEqual({ exitCode: 5, stdout: '', stderr: `svc: GET /snippets/${id}/raw failed: 404 Snippet Not Found\n` });
  });

  it('pipes binary content exactly but refuses to write it to a terminal (exit 2)', async () => {
    const content = '\u0000PNG binary\u0001\u0002\n';
    const id = await created({ title: 'bin', file_name: 'logo.bin', content, visibility: 'public' });
    const piped = await suite.run(['snippets', 'raw', String(id)]);
    expect(piped.exitCode).toBe(0);
    expect(Buffer.from(piped.stdout).equals(Buffer.from(content))).toBe(true);

    const env = isolatedEnv({ env: { ...sandboxEnv(suite.sandbox), TERM: 'dumb' } });
    const term = spawnPty(['node', BIN, 'snippets', 'raw', String(id)], { env });
    const end = await term.exit();
    expect([end.exitCode, end.output]).toEqual([
      2,
      `svc: snippet ${id}: refusing to write binary content to a terminal; redirect stdout to a file\r\n`,
    ]);
  });

  it('shows the control characters of a text snippet as escapes on a terminal, and pipes them exactly', async () => {
    const content = 'title\u001b[2J\tcleared?\r\n';
    const id = await created({ title: 'ansi', file_name: 'a.txt', content, visibility: 'public' });
    const piped = await suite.run(['snippets', 'raw', String(id)]);
    expect(piped.stdout).toBe(content);
    const env = isolatedEnv({ env: { ...sandboxEnv(suite.sandbox), TERM: 'dumb' } });
    const end = await spawnPty(['node', BIN, 'snippets', 'raw', String(id)], { env }).exit();
    expect([end.exitCode, end.output]).toEqual([0, 'title\\e[2J\tcleared?\\r\r\n']);
  });
});

describe('snippets update', () => {
  it('sends the title, description and visibility, says what changed and prints the snippet', async () => {
    const id = await created({ title: 'before', file_name: 'a.txt', content: 'a\n' });
    const result = await suite.run(
      ['snippets', 'update', String(id), '--title', 'after', '--description', 'now described', '--visibility', 'internal', '-o', 'json'],
      { token: suite.sandbox.tokens.user },
    );
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe(`updated snippet ${id}: title, description, visibility\n`);
    expect(JSON.parse(result.stdout)).toMatchObject({ id, title: 'after', description: 'now described', visibility: 'internal' });
    expect(onlyRequest(suite, 'PUT', /snippets/).bodyJson).toEqual({
      title: 'after',
      description: 'now described',
      visibility: 'internal',
    });
  });

  it("replaces the only file's content from a file, and renames it with content from stdin", async () => {
    const id = await created({ title: 'conf', file_name: 'a.txt', content: 'old\n' });
    const file = join(dir, 'new.conf');
    writeFileSync(file, 'new content\n');
    const replaced = await suite.run(['snippets', 'update', String(id), '--content-file', file, '-q'], {
      token: suite.sandbox.tokens.user,
    });
    expect(replaced).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(onlyRequest(suite, 'PUT', /snippets/).bodyJson).toEqual({
      files: [{ action: 'update', file_path: 'a.txt', content: 'new content\n' }],
    });

    const renamed = await suite.run(
      ['snippets', 'update', String(id), '--file-name', 'b.conf', '--content-file', '-', '--fields', 'file_name'],
      {
        token: suite.sandbox.tokens.user,
        input: 'from stdin\n',
      },
    );
    expect(renamed).toEqual({ exitCode: 0, stdout: 'file_name\nb.conf\n', stderr: `updated snippet ${id}: file name (b.conf), content\n` });
    expect(onlyRequest(suite, 'PUT', /snippets/).bodyJson).toEqual({
      files: [{ action: 'move', previous_path: 'a.txt', file_path: 'b.conf', content: 'from stdin\n' }],
    });
    const raw = await suite.run(['snippets', 'raw', String(id)], { token: suite.sandbox.tokens.user });
    expect(raw.stdout).toBe('from stdin\n');
  });

  it('needs --file for a snippet with several files, and changes the one it names', async () => {
    const id = await created({ title: 'two', files: TWO_FILES });
    const file = join(dir, 'b.sh');
    writeFileSync(file, 'echo B\n');
    const unsaid = await suite.run(['snippets', 'update', String(id), '--content-file', file], { token: suite.sandbox.tokens.user });
    expect(unsaid).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: `svc: snippet ${id} has 2 files (conf/nginx.conf, b.sh): say which one with --file\n`,
    });
    expect(suite.requests().filter((r) => r.method === 'PUT')).toEqual([]);

    const said = await suite.run(['snippets', 'update', String(id), '--file', 'b.sh', '--content-file', file, '-q'], {
      token: suite.sandbox.tokens.user,
    });
    expect(said.exitCode).toBe(0);
    expect(suite.requests().map((r) => `${r.method} ${r.rawPath}`)).toEqual([`PUT /api/v4/snippets/${id}`]);
    const raw = await suite.run(['snippets', 'raw', String(id), '--file', 'b.sh'], { token: suite.sandbox.tokens.user });
    expect(raw.stdout).toBe('echo B\n');
  });

  it("answers someone else's snippet with exit 5, as the service hides it", async () => {
    const id = await created({ title: 'jdoe owns', file_name: 'a.txt', content: 'a\n' });
    const result = await suite.run(['snippets', 'update', String(id), '--title', 'taken']);
    expect(result).toEqual({ exitCode: 5, stdout: '', stderr: `svc: PUT /snippets/${id} failed: 404 Snippet Not Found\n` });
  });

  it('refuses nothing to change, --file alone and empty content before any request (exit 2)', async () => {
    const empty = join(dir, 'empty.txt');
    writeFileSync(empty, '');
    const cases: Array<[string[], string]> = [
      [[], 'svc: nothing to change: give --title, --description, --visibility, --file-name or --content-file\n'],
      [['--file', 'a.txt', '--title', 't'], 'svc: --file names the file that --file-name or --content-file change\n'],
      [['--content-file', empty], `svc: --content-file ${empty} is empty\n`],
      [['--content-file', '-'], 'svc: nothing on stdin for --content-file -\n'],
    ];
    for (const [args, stderr] of cases) {
      expect(await suite.run(['snippets', 'update', '1', ...args], { input: '' })).toEqual({ exitCode: 2, stdout: '', stderr });
      expect(suite.requests()).toEqual([]);
    }
  });
});

describe('snippets list --scope', () => {
  it('lists yours by default, public ones with --public or --scope public, and every visible one with --scope all', async () => {
    const paths: Array<[string[], string]> = [
      [[], '/api/v4/snippets'],
      [['--public'], '/api/v4/snippets/public'],
      [['--scope', 'public'], '/api/v4/snippets/public'],
      [['--scope', 'all', '--all'], '/api/v4/snippets/all'],
      [['--scope', 'mine'], '/api/v4/snippets'],
    ];
    for (const [args, path] of paths) {
      const result = await suite.run(['snippets', 'list', ...args, '-o', 'ndjson'], { token: suite.sandbox.tokens.user });
      expect(result.exitCode).toBe(0);
      expect(suite.requests().map((r) => r.rawPath)).toEqual([path]);
    }
    const all = await suite.run(['snippets', 'list', '--scope', 'all', '--all', '-o', 'json', '--fields', 'id'], {
      token: suite.sandbox.tokens.user,
    });
    const visible = await fetch(`${suite.sandbox.url}/api/v4/snippets/all?per_page=100`, {
      headers: { 'PRIVATE-TOKEN': suite.sandbox.tokens.user },
    });
    expect(JSON.parse(all.stdout)).toEqual(((await visible.json()) as Array<{ id: number }>).map(({ id }) => ({ id })));
  });

  it('refuses --public with another scope (exit 2)', async () => {
    expect(await suite.run(['snippets', 'list', '--public', '--scope', 'mine'])).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: 'svc: --public and --scope mine ask for different snippets; give one of them\n',
    });
  });
});

describe('snippets delete asks first', () => {
  it('needs --yes without a terminal (exit 2, nothing sent)', async () => {
    const id = await created({ title: 'keep', file_name: 'k.txt', content: 'k\n' });
    const result = await suite.run(['snippets', 'delete', String(id)], { token: suite.sandbox.tokens.user });
    expect(result).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: `svc: Delete snippet ${id}: pass --yes to confirm (stdin is not a terminal, so there is no one to ask)\n`,
    });
    expect(suite.requests()).toEqual([]);
    expect(suite.sandbox.state.snippet(id)).not.toBeNull();
  });

  it('deletes on a terminal once the answer is yes', async () => {
    const id = await created({ title: 'go', file_name: 'g.txt', content: 'g\n' });
    const env = isolatedEnv({ env: { ...sandboxEnv(suite.sandbox, suite.sandbox.tokens.user), TERM: 'dumb' } });
    const term = spawnPty(['node', BIN, 'snippets', 'delete', String(id)], { env });
    await term.waitFor('? [y/N] ');
    term.write('y\r');
    const end = await term.exit();
    expect([end.exitCode, end.output]).toEqual([0, `Delete snippet ${id}? [y/N] y\r\ndeleted snippet ${id}\r\n`]);
    expect(suite.sandbox.state.snippet(id)).toBeNull();
  });

  it("refuses another user's snippet as not found (exit 5), and keeps it", async () => {
    const id = await created({ title: 'hers', file_name: 'h.txt', content: 'h\n', visibility: 'public' }, suite.sandbox.tokens.admin);
    const result = await suite.run(['snippets', 'delete', String(id), '--yes'], { token: suite.sandbox.tokens.user });
    expect(result).toEqual({ exitCode: 5, stdout: '', stderr: `svc: DELETE /snippets/${id} failed: 404 Snippet Not Found\n` });
    expect(suite.sandbox.state.snippet(id)?.title).toBe('hers');
  });
});

describe('snippet content is text', () => {
  it('refuses a --content-file that is not UTF-8 before any request (exit 2), for update and create', async () => {
    const id = await created({ title: 'text', file_name: 't.txt', content: 't\n' });
    const path = join(dir, 'latin1.txt');
    writeFileSync(path, Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    const update = await suite.run(['snippets', 'update', String(id), '--content-file', path], { token: suite.sandbox.tokens.user });
    const message = `svc: --content-file ${path} is not UTF-8 text (the service keeps snippets as text): convert it first, e.g. with iconv\n`;
    expect(update).toEqual({ exitCode: 2, stdout: '', stderr: message });
    expect(suite.requests()).toEqual([]);
    const create = await suite.run(['snippets', 'create', '--title', 't', '--file-name', 't.txt', '--content-file', path], {
      token: suite.sandbox.tokens.user,
    });
    expect(create).toEqual({ exitCode: 2, stdout: '', stderr: message });
    expect(suite.requests()).toEqual([]);
    expect(suite.sandbox.state.snippet(id)?.content).toBe('t\n');
  });
});
