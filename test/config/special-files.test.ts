import { lstatSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { svc, tempDir } from '../support/harness.js';
import { sandboxEnv } from '../support/sandbox.js';
import { useSandbox } from '../commands/support.js';

const suite = useSandbox({ projects: 1 });

async function fifoConfig(): Promise<{ dir: string; path: string }> {
  const dir = tempDir();
  const path = join(dir, 'config.json');
  await execa('mkfifo', ['-m', '600', path]);
  return { dir, path };
}

describe('a config file that is not a regular file never hangs (#22 item 7)', () => {
  it('a FIFO is refused in one line, exit 2, by a reading and by a writing command; it stays a FIFO', async () => {
    const { dir, path } = await fifoConfig();
    const line = `svc: refusing the config file ${path}: it is a FIFO, not a regular file (replace or remove it)\n`;
    expect(await svc(['config', 'list'], { configDir: dir, process: true })).toEqual({ exitCode: 2, stdout: '', stderr: line });
    const login = await svc(['auth', 'login', '--url', suite.sandbox.url, '--no-verify'], {
      configDir: dir,
      input: 'some-token-0123456789\n',
      process: true,
    });
    expect(login).toEqual({ exitCode: 2, stdout: '', stderr: line });
    expect(lstatSync(path).isFIFO()).toBe(true);
  });

  it('with URL and token from the environment the FIFO is left aside with one warning', async () => {
    const { dir, path } = await fifoConfig();
    const expected = await svc(['projects', 'list', '-o', 'json'], { env: sandboxEnv(suite.sandbox) });
    const result = await svc(['projects', 'list', '-o', 'json'], { configDir: dir, env: sandboxEnv(suite.sandbox), process: true });
    expect(result).toEqual({
      exitCode: 0,
      stdout: expected.stdout,
      stderr:
        `warning: refusing the config file ${path}: it is a FIFO, not a regular file (replace or remove it); ` +
        'left aside, as flags and environment give the URL and token\n',
    });
  });

  it('a FIFO in the place of the lock file is refused in one line, exit 2, and the config stays as it was', async () => {
    const dir = tempDir();
    const before = JSON.stringify({ activeProfile: 'a', profiles: { a: { url: suite.sandbox.url } } });
    writeFileSync(join(dir, 'config.json'), before, { mode: 0o600 });
    await execa('mkfifo', ['-m', '600', join(dir, 'config.json.lock')]);
    expect(await svc(['config', 'set', 'url', suite.sandbox.url], { configDir: dir, process: true })).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: `svc: refusing the lock file ${dir}/config.json.lock: it is not a regular file (remove it)\n`,
    });
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(before);
  });

  it('a directory in the place of config.json is refused the same way', async () => {
    const dir = tempDir();
    await execa('mkdir', ['-m', '700', join(dir, 'config.json')]);
    expect(await svc(['config', 'get', 'url'], { configDir: dir })).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: `svc: refusing the config file ${dir}/config.json: it is a directory, not a regular file (replace or remove it)\n`,
    });
  });
});

describe('a huge config file is refused by its size before it is read (#22 item 10)', () => {
  it('a sparse 1 GiB file: one line, exit 2', async () => {
    const dir = tempDir();
    const path = join(dir, 'config.json');
    writeFileSync(path, '{"profiles":{}}', { mode: 0o600 });
    truncateSync(path, 1024 ** 3);
    expect(await svc(['config', 'list'], { configDir: dir, process: true })).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: `svc: refusing the config file ${path}: it is 1073741824 bytes, more than the 1048576 a config file may have (fix or remove it)\n`,
    });
  });

  it('a file of exactly the limit is still read', async () => {
    const dir = tempDir();
    const path = join(dir, 'config.json');
    const body = '{"profiles":{"a":{"url":"http://127.0.0.1:1"}}}';
    writeFileSync(path, body + ' '.repeat(1024 * 1024 - body.length), { mode: 0o600 });
    const list = await svc(['config', 'list', '-o', 'json'], { configDir: dir });
    expect(list.exitCode).toBe(0);
    expect(JSON.parse(list.stdout).map((p: { profile: string }) => p.profile)).toEqual(['a']);
  });
});
