import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { cleanupTempDirs, spawnSvc, svc, tempDir } from '../support/harness.js';
import { startTestSandbox } from '../support/sandbox.js';

const UPDATER = fileURLToPath(new URL('./fixtures/credential-update.mjs', import.meta.url));

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox({ projects: 2 });
});
afterAll(async () => {
  await sandbox.close();
  cleanupTempDirs();
});

function readConfig(dir: string) {
  return JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
}

function updater(...args: string[]) {
  return execa(process.execPath, [UPDATER, ...args], { reject: false, timeout: 240_000 });
}

describe('concurrent config writes lose nothing (#10 item 7)', () => {
  it('ten `svc auth login --profile pN` at once keep all ten profiles', async () => {
    const dir = tempDir();
    const names = Array.from({ length: 10 }, (_, i) => `p${i}`);
    const results = await Promise.all(
      names.map((name) =>
        svc(['auth', 'login', '--url', sandbox.url, '--profile', name], { configDir: dir, input: `${sandbox.tokens.user}\n` }),
      ),
    );
    expect(results.map((r) => r.exitCode)).toEqual(names.map(() => 0));
    const saved = readConfig(dir);
    expect(Object.keys(saved.profiles).sort()).toEqual(names);
    for (const name of names) expect(saved.profiles[name]).toEqual({ url: sandbox.url, token: sandbox.tokens.user, tokenType: 'private' });
    expect(names).toContain(saved.activeProfile);
  });

  it('read-modify-write through the credential store from 6 processes loses no update, beside logins of other profiles', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({
        activeProfile: 'ci',
        profiles: { ci: { url: sandbox.url, token: '0', refreshToken: 'keep-me', tokenType: 'oauth' } },
      }),
      { mode: 0o600 },
    );
    const bumps = Array.from({ length: 6 }, () => updater('bump', dir, 'ci', '15'));
    const logins = ['a', 'b', 'c'].map((name) =>
      svc(['auth', 'login', '--url', sandbox.url, '--profile', name, '--no-verify'], {
        configDir: dir,
        input: `token-of-${name}-123456\n`,
      }),
    );
    const bumped = await Promise.all(bumps);
    expect(bumped.map((r) => [r.exitCode, r.stderr])).toEqual(bumped.map(() => [0, '']));
    expect((await Promise.all(logins)).map((r) => r.exitCode)).toEqual([0, 0, 0]);
    const saved = readConfig(dir);
    expect(saved.profiles.ci).toEqual({ url: sandbox.url, token: '90', refreshToken: 'keep-me', tokenType: 'oauth' });
    expect(Object.keys(saved.profiles).sort()).toEqual(['a', 'b', 'c', 'ci']);
  });

  it('of 8 processes that saw the same expired token, one refreshes and the 7 others take its result', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({
        profiles: { default: { url: sandbox.url, token: 'expired-access', refreshToken: 'old-refresh', tokenType: 'oauth' } },
      }),
      { mode: 0o600 },
    );
    const results = await Promise.all(Array.from({ length: 8 }, () => updater('refresh', dir, 'default', 'expired-access')));
    expect(results.map((r) => [r.exitCode, r.stderr])).toEqual(results.map(() => [0, '']));
    const tokens = new Set(results.map((r) => r.stdout));
    expect(tokens.size).toBe(1);
    const [winner] = [...tokens];
    const pid = /^refreshed-by-(\d+)$/.exec(winner ?? '')?.[1];
    expect(readConfig(dir).profiles.default).toEqual({
      url: sandbox.url,
      token: `refreshed-by-${pid}`,
      refreshToken: `refresh-from-${pid}`,
      tokenType: 'oauth',
    });
  });
});

describe('the config file lock', () => {
  it('takes over a lock left by a process that died', async () => {
    const dir = tempDir();
    const gone = execa(process.execPath, ['-e', '']);
    await gone;
    writeFileSync(join(dir, 'config.json.lock'), `${gone.pid} ${hostname()} left-behind\n`);
    const result = await svc(['auth', 'login', '--url', sandbox.url, '--no-verify'], {
      configDir: dir,
      input: 'after-a-crash-0123456789\n',
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(readConfig(dir).profiles.default.token).toBe('after-a-crash-0123456789');
    expect(existsSync(join(dir, 'config.json.lock'))).toBe(false);
  });

  it('is waited for while its holder runs, and Ctrl-C ends the wait with exit 130', async () => {
    const dir = tempDir();
    const lock = `${process.pid} ${hostname()} held-by-the-test\n`;
    writeFileSync(join(dir, 'config.json.lock'), lock);
    const child = spawnSvc(['auth', 'login', '--url', sandbox.url, '--no-verify'], {
      configDir: dir,
      input: 'waiting-token-0123456789\n',
      env: { SVC_DEBUG: '1' },
    });
    // Interrupted once it says it waits for the lock (a debug line), not after a guessed delay.
    let stderr = '';
    await new Promise<void>((resolve) =>
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
        if (stderr.includes(`waiting for the config file lock ${join(dir, 'config.json')}.lock, held by pid ${process.pid}`)) resolve();
      }),
    );
    child.kill('SIGINT');
    const result = await child;
    expect([result.exitCode, result.stdout, String(result.stderr).split('\n').slice(-2)]).toEqual([130, '', ['svc: interrupted', '']]);
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
    expect(readFileSync(join(dir, 'config.json.lock'), 'utf8')).toBe(lock);
  });
});
