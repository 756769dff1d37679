import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { BIN, cleanupTempDirs, svc, tempDir } from '../support/harness.js';
import { sandboxEnv, startTestSandbox } from '../support/sandbox.js';
import { svcAsUser } from './run-as.js';

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox({ projects: 5 });
});
afterAll(async () => {
  await sandbox.close();
  cleanupTempDirs();
});

/** A directory everyone may read and only root may write (the suite runs as root in CI). */
function readOnlyForOthers(): string {
  const dir = tempDir();
  chmodSync(dir, 0o755);
  return dir;
}

const READING_COMMANDS = [
  ['projects', 'list', '-o', 'json'],
  ['releases', 'list', '2', '-o', 'json'],
  ['auth', 'status', '-o', 'json'],
  ['config', 'list', '-o', 'json'],
];

describe('a CI container: no config directory needed when none is used (#9 item 5)', () => {
  it('a non-root user with a missing HOME runs every reading command from SVC_URL/SVC_TOKEN and creates nothing', async () => {
    const root = readOnlyForOthers();
    const home = join(root, 'missing-home');
    for (const args of READING_COMMANDS) {
      const expected = await svc(args, { env: sandboxEnv(sandbox) });
      expect(expected.exitCode, args.join(' ')).toBe(0);
      const result = await svcAsUser(args, { HOME: home, ...sandboxEnv(sandbox) });
      expect(result, args.join(' ')).toEqual({ exitCode: 0, stdout: expected.stdout, stderr: '' });
    }
    expect(readdirSync(root)).toEqual([]);
  });

  it('a non-root user with an unwritable HOME runs from CI_SERVER_URL/CI_JOB_TOKEN and creates nothing', async () => {
    const home = readOnlyForOthers();
    const ci = { CI: 'true', CI_SERVER_URL: sandbox.url, CI_JOB_TOKEN: sandbox.tokens.job };
    for (const args of [
      ['releases', 'list', '2', '-o', 'json'],
      ['auth', 'status', '-o', 'json'],
    ]) {
      const expected = await svc(args, { env: ci });
      expect(expected.exitCode, args.join(' ')).toBe(0);
      const result = await svcAsUser(args, { HOME: home, ...ci });
      expect(result, args.join(' ')).toEqual({ exitCode: 0, stdout: expected.stdout, stderr: '' });
    }
    expect(JSON.parse((await svcAsUser(['auth', 'status', '-o', 'json'], { HOME: home, ...ci })).stdout)).toMatchObject({
      token_source: 'CI_JOB_TOKEN',
      token_type: 'job',
    });
    expect(readdirSync(home)).toEqual([]);
  });

  it('as root, a reading command does not create a missing HOME', async () => {
    const root = readOnlyForOthers();
    const home = join(root, 'missing-home');
    const result = await execa(process.execPath, [BIN, 'releases', 'list', '2', '-o', 'json'], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, ...sandboxEnv(sandbox) },
      extendEnv: false,
      reject: false,
    });
    expect(result.exitCode).toBe(0);
    expect(existsSync(home)).toBe(false);
    expect(readdirSync(root)).toEqual([]);
  });

  it('auth login, which must write, fails in one line (exit 2, with the fix) when HOME is not writable', async () => {
    const home = readOnlyForOthers();
    const result = await svcAsUser(['auth', 'login', '--url', sandbox.url, '--no-verify'], { HOME: home }, 'some-token-0123456789\n');
    expect(result).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: `svc: cannot write the config file ${home}/.config/svc/config.json: EACCES; set SVC_CONFIG_DIR to a directory you can write (or fix that one)\n`,
    });
    expect(readdirSync(home)).toEqual([]);
  });
});

describe('a broken config file does not stop a command that does not need it', () => {
  const garbage = '{"profiles": {"default": {"url": "http://x"';

  it('warns in one line and runs when environment or flags give URL and token; the file stays as it was', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'config.json'), garbage, { mode: 0o600 });
    const expected = await svc(['releases', 'list', '2', '-o', 'json'], { env: sandboxEnv(sandbox) });
    const warning =
      `warning: cannot read the config file ${dir}/config.json: Expected ',' or '}' after property value in JSON at position 43 (fix or remove it); ` +
      'left aside, as flags and environment give the URL and token\n';
    const fromEnv = await svc(['releases', 'list', '2', '-o', 'json'], { configDir: dir, env: sandboxEnv(sandbox) });
    expect(fromEnv).toEqual({ exitCode: 0, stdout: expected.stdout, stderr: warning });
    const fromFlags = await svc(['releases', 'list', '2', '-o', 'json', '--url', sandbox.url, '--token', sandbox.tokens.admin], {
      configDir: dir,
    });
    expect(fromFlags).toEqual({ exitCode: 0, stdout: expected.stdout, stderr: warning });
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(garbage);
  });

  it('still fails (exit 2, one line) when the config is needed: a profile asked for, or no token elsewhere', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'config.json'), garbage, { mode: 0o600 });
    const message = `svc: cannot read the config file ${dir}/config.json: Expected ',' or '}' after property value in JSON at position 43 (fix or remove it)\n`;
    const withProfile = await svc(['releases', 'list', '2'], { configDir: dir, env: { ...sandboxEnv(sandbox), SVC_PROFILE: 'default' } });
    expect(withProfile).toEqual({ exitCode: 2, stdout: '', stderr: message });
    const noToken = await svc(['releases', 'list', '2'], { configDir: dir, env: { SVC_URL: sandbox.url } });
    expect(noToken).toEqual({ exitCode: 2, stdout: '', stderr: message });
  });
});
