import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { cleanupTempDirs, svc, tempDir, type RunResult } from '../support/harness.js';
import { sandboxEnv, startTestSandbox } from '../support/sandbox.js';

// Every token the sandbox issues is registered with the harness, which fails any run that
// prints one. Here the runs are the chattiest ones: --debug on every kind of command and token.
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox({ projects: 250, faults: '503=0.1,429=0.05', faultSeed: 3 });
});
afterAll(async () => {
  await sandbox.close();
  cleanupTempDirs();
});

function allTokens(): string[] {
  const t = sandbox.tokens;
  return [t.admin, t.adminNoSudo, t.user, t.readApi, t.job, t.oauth.access, t.oauth.refresh];
}

function expectNoToken(result: RunResult): void {
  for (const token of allTokens()) {
    expect(result.stdout).not.toContain(token);
    expect(result.stderr).not.toContain(token);
  }
}

describe('no token in any output, even with --debug', () => {
  const commands: Array<[string, string[], (s: Sandbox) => Record<string, string>]> = [
    ['projects list --all (with retried 503 and 429)', ['projects', 'list', '--all', '-o', 'ndjson'], (s) => sandboxEnv(s)],
    ['projects get', ['projects', 'get', '1', '-o', 'json'], (s) => sandboxEnv(s)],
    ['api user with an OAuth token', ['api', 'user'], (s) => sandboxEnv(s, s.tokens.oauth.access, 'oauth')],
    ['api with a job token on a refused endpoint', ['api', 'user'], (s) => sandboxEnv(s, s.tokens.job, 'job')],
    ['api -i (headers shown)', ['api', '-i', 'projects/1'], (s) => sandboxEnv(s)],
    ['sudo with a read_api token', ['--sudo', 'jdoe', 'api', 'user'], (s) => sandboxEnv(s, s.tokens.readApi)],
    ['storage-move list', ['storage-move', 'list', '--limit', '5'], (s) => sandboxEnv(s)],
    ['auth status', ['auth', 'status'], (s) => sandboxEnv(s)],
  ];

  it.each(commands)('%s', async (_name, args, env) => {
    const result = await svc([...args, '--debug'], { env: env(sandbox) });
    expect(result.stderr).toMatch(/\[debug\]/);
    expectNoToken(result);
  });

  it('a token given as a -H header stays out of the output', async () => {
    const result = await svc(['api', 'user', '-i', '-H', `Private-Token: ${sandbox.tokens.user}`, '--debug'], {
      env: { SVC_URL: sandbox.url },
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expectNoToken(result);
  });

  it('--token on the command line stays out of the output', async () => {
    const result = await svc(['--url', sandbox.url, '--token', sandbox.tokens.user, 'api', 'user', '--debug'], {});
    expect(result.exitCode, result.stderr).toBe(0);
    expectNoToken(result);
  });

  it('a bad token is not echoed back when the service refuses it', async () => {
    const wrong = 'glpat-not-a-real-token-0123456789';
    const result = await svc(['projects', 'list', '--debug'], { env: sandboxEnv(sandbox, wrong), secrets: [wrong] });
    expect(result.exitCode).toBe(3);
  });
});

describe('stored credentials', () => {
  it('auth login keeps the config file at mode 0600 and auth status shows only the last 4 characters', async () => {
    const dir = tempDir('svc-drill-secrets-');
    const configDir = join(dir, 'config');
    const token = sandbox.tokens.admin;
    const login = await svc(['auth', 'login', '--url', sandbox.url, '--debug'], { configDir, input: `${token}\n` });
    expect(login.exitCode, login.stderr).toBe(0);
    expectNoToken(login);

    const file = join(configDir, 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toContain(token);

    const status = await svc(['auth', 'status', '-o', 'json'], { configDir });
    expect(status.exitCode, status.stderr).toBe(0);
    expectNoToken(status);
    const shown = (JSON.parse(status.stdout) as { token: string }).token;
    expect(shown).toBe(`****${token.slice(-4)}`);

    const listed = await svc(['config', 'list', '--debug'], { configDir });
    expectNoToken(listed);
  });
});
