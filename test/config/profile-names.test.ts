import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { svc, tempDir } from '../support/harness.js';
import { useSandbox } from '../commands/support.js';

const suite = useSandbox({ projects: 1 });

describe('profile names (#22 item 10)', () => {
  it('--profile "" is a usage error, not the active profile', async () => {
    const dir = tempDir();
    const login = await svc(['auth', 'login', '--url', suite.sandbox.url], { configDir: dir, input: `${suite.sandbox.tokens.admin}\n` });
    expect(login.exitCode).toBe(0);
    const line = 'svc: --profile needs a profile name (it was empty)\n';
    for (const args of [
      ['auth', 'status', '--profile', ''],
      ['projects', 'list', '--profile='],
      ['config', 'set', 'url', suite.sandbox.url, '--profile', ' '],
    ]) {
      expect(await svc(args, { configDir: dir, process: true }), args.join(' ')).toEqual({ exitCode: 2, stdout: '', stderr: line });
    }
  });

  it('a profile named __proto__ is really saved, listed and used', async () => {
    const dir = tempDir();
    const login = await svc(['auth', 'login', '--url', suite.sandbox.url, '--profile', '__proto__'], {
      configDir: dir,
      input: `${suite.sandbox.tokens.admin}\n`,
    });
    expect(login.exitCode).toBe(0);
    const saved = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    expect(Object.keys(saved.profiles)).toEqual(['__proto__']);
    expect(saved.profiles['__proto__']).toEqual({ url: suite.sandbox.url, token: suite.sandbox.tokens.admin, tokenType: 'private' });
    const list = await svc(['config', 'list', '-o', 'json'], { configDir: dir });
    expect(JSON.parse(list.stdout).map((p: { profile: string; active: boolean }) => [p.profile, p.active])).toEqual([['__proto__', true]]);
    const set = await svc(['config', 'set', 'oauthClientId', 'abc', '--profile', '__proto__'], { configDir: dir });
    expect(set).toEqual({ exitCode: 0, stdout: '', stderr: "set oauthClientId in profile '__proto__'\n" });
    const status = await svc(['auth', 'status', '-o', 'json', '--profile', '__proto__'], { configDir: dir });
    expect(status.exitCode).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({
      profile: '__proto__',
      url: suite.sandbox.url,
      token_source: "profile '__proto__' in the config file",
    });
  });

  it('names of Object methods are no profiles until saved', async () => {
    const dir = tempDir();
    const login = await svc(['auth', 'login', '--url', suite.sandbox.url], { configDir: dir, input: `${suite.sandbox.tokens.admin}\n` });
    expect(login.exitCode).toBe(0);
    for (const name of ['constructor', 'toString', 'hasOwnProperty']) {
      expect(await svc(['auth', 'status', '--profile', name], { configDir: dir }), name).toEqual({
        exitCode: 2,
        stdout: '',
        stderr: `svc: no profile named '${name}' (known: default); create it with \`svc auth login --profile ${name}\`\n`,
      });
    }
  });
});
