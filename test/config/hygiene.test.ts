import { chmodSync, chownSync, lstatSync, mkdirSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, svc, tempDir } from '../support/harness.js';
import { NOBODY } from './run-as.js';

afterAll(() => cleanupTempDirs());

const TOKEN = 'hygiene-token-0123456789';
const PROFILE = JSON.stringify({ activeProfile: 'default', profiles: { default: { url: 'http://127.0.0.1:9', token: TOKEN } } });

function login(configDir: string) {
  return svc(['auth', 'login', '--url', 'http://127.0.0.1:9', '--no-verify'], { configDir, input: `${TOKEN}\n` });
}

describe('config path hygiene (#10 item 13)', () => {
  it('creates missing directories 0700 and the file 0600', async () => {
    const base = tempDir();
    const configDir = join(base, 'a', 'b');
    expect((await login(configDir)).exitCode).toBe(0);
    expect(statSync(join(base, 'a')).mode & 0o777).toBe(0o700);
    expect(statSync(configDir).mode & 0o777).toBe(0o700);
    expect(statSync(join(configDir, 'config.json')).mode & 0o777).toBe(0o600);
  });

  it('never writes through a symlink at the config file: refused in one line, the target untouched', async () => {
    const dir = tempDir();
    const target = join(tempDir(), 'elsewhere.json');
    writeFileSync(target, PROFILE, { mode: 0o600 });
    symlinkSync(target, join(dir, 'config.json'));
    const result = await login(dir);
    expect(result).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: `svc: refusing to write the config file ${dir}/config.json: it is a symbolic link (replace it with a regular file)\n`,
    });
    expect(readFileSync(target, 'utf8')).toBe(PROFILE);
    expect(readlinkSync(join(dir, 'config.json'))).toBe(target);
    // Reading through it stays possible (a dotfile manager's link).
    expect((await svc(['config', 'get', 'url'], { configDir: dir })).stdout).toBe('http://127.0.0.1:9\n');
  });

  it('refuses a config directory or file that group or others may write, for reading and for writing', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'config.json'), PROFILE, { mode: 0o600 });
    chmodSync(dir, 0o777);
    const dirMessage = `svc: refusing the config directory ${dir}: it is writable by group or others (mode 0777); fix it with chmod go-w ${dir}\n`;
    expect(await svc(['config', 'list'], { configDir: dir })).toEqual({ exitCode: 2, stdout: '', stderr: dirMessage });
    expect(await login(dir)).toEqual({ exitCode: 2, stdout: '', stderr: dirMessage });
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(PROFILE);

    chmodSync(dir, 0o700);
    chmodSync(join(dir, 'config.json'), 0o620);
    const fileMessage = `svc: refusing the config file ${dir}/config.json: it is writable by group or others (mode 0620); fix it with chmod go-w ${dir}/config.json\n`;
    expect(await svc(['config', 'get', 'url'], { configDir: dir })).toEqual({ exitCode: 2, stdout: '', stderr: fileMessage });
    expect(await login(dir)).toEqual({ exitCode: 2, stdout: '', stderr: fileMessage });
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(PROFILE);
  });

  it('refuses a config directory that belongs to another user (not root)', async () => {
    const dir = join(tempDir(), 'theirs');
    mkdirSync(dir, { mode: 0o700 });
    writeFileSync(join(dir, 'config.json'), PROFILE, { mode: 0o600 });
    chownSync(dir, NOBODY, NOBODY);
    const uid = process.getuid?.();
    const message = `svc: refusing the config directory ${dir}: it belongs to uid ${NOBODY}, not to you (uid ${uid}) or root\n`;
    expect(await svc(['config', 'list'], { configDir: dir })).toEqual({ exitCode: 2, stdout: '', stderr: message });
    expect(await login(dir)).toEqual({ exitCode: 2, stdout: '', stderr: message });
    expect(lstatSync(join(dir, 'config.json')).size).toBe(PROFILE.length);
  });
});
