import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { req } from '../sandbox/helpers.js';
import { BIN, isolatedEnv, tempDir, type RunResult } from '../support/harness.js';
import { useSandbox } from '../commands/support.js';

const suite = useSandbox({ projects: 1 });

/** The built CLI with exactly `env` (plus PATH), after `shell` (such as a ulimit) in the same process. */
async function svcAfter(shell: string, args: string[], env: Record<string, string>, input = ''): Promise<RunResult> {
  const result = await execa('sh', ['-c', `${shell}; exec "$0" "$@"`, process.execPath, BIN, ...args], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
    extendEnv: false,
    reject: false,
    input,
    stripFinalNewline: false,
    timeout: 240_000,
  });
  return { exitCode: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr) };
}

describe('auth login where the config cannot be written (#21 item 6)', () => {
  it('a HOME under a regular file: exit 2, the path and the fix, nothing created', async () => {
    const root = tempDir();
    writeFileSync(join(root, 'not-a-dir'), '');
    const home = join(root, 'not-a-dir', 'home');
    const result = await svcAfter(
      ':',
      ['auth', 'login', '--url', suite.sandbox.url, '--no-verify'],
      { HOME: home },
      'some-token-0123456789\n',
    );
    expect(result).toEqual({
      exitCode: 2,
      stdout: '',
      stderr:
        `svc: cannot write the config file ${home}/.config/svc/config.json: ENOTDIR; ` +
        'set SVC_CONFIG_DIR to a directory you can write (or fix that one)\n',
    });
    expect(readdirSync(root)).toEqual(['not-a-dir']);
  });
});

describe('tokens rotate --self when the config file cannot be saved (#22 item 10)', () => {
  it('says in one line that the new token, printed on stdout, was not saved; the file keeps the old one', async () => {
    const day = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const created = await req(suite.sandbox.url, '/api/v4/users/2/personal_access_tokens', {
      token: suite.sandbox.tokens.admin,
      method: 'POST',
      json: { name: 'full-disk', scopes: ['api'], expires_at: day },
    });
    const old = created.json as { token: string };
    const dir = tempDir();
    // Bigger than the 512 bytes `ulimit -f 1` lets a process write to one file: rewriting it fails with EFBIG.
    const profile = { url: suite.sandbox.url, token: old.token, tokenType: 'private', oauthClientId: 'x'.repeat(600) };
    const before = JSON.stringify({ activeProfile: 'work', profiles: { work: profile } });
    writeFileSync(join(dir, 'config.json'), before, { mode: 0o600 });
    const result = await svcAfter('ulimit -f 1', ['tokens', 'rotate', '--self', '-o', 'json'], isolatedEnv({ configDir: dir }));
    expect(result.exitCode).toBe(1);
    const successor = JSON.parse(result.stdout) as { id: number; token: string };
    expect(successor.token).toMatch(/^glpat-/);
    const lines = result.stderr.split('\n');
    expect(lines.slice(1)).toEqual([
      `svc: the new token (printed on stdout) was NOT saved to profile work: cannot write the config file ${dir}/config.json: EFBIG ` +
        '(SVC_CONFIG_DIR chooses another directory); keep it, and save it with `svc auth login --profile work`',
      '',
    ]);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(before);
    expect(readdirSync(dir)).toEqual(['config.json']);
  });
});
