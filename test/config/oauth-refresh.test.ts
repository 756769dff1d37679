import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { cleanupTempDirs, svc, tempDir } from '../support/harness.js';
import { startTestSandbox } from '../support/sandbox.js';

/** Long enough for 8 loaded processes to use the refreshed token, short enough to wait out once. */
const TTL_SECONDS = 5;
let sandbox: Sandbox;
let issuedAt: number;

beforeAll(async () => {
  issuedAt = Date.now();
  sandbox = await startTestSandbox({ projects: 2, oauthTtlSeconds: TTL_SECONDS });
});
afterAll(async () => {
  await sandbox.close();
  cleanupTempDirs();
});

describe('an OAuth refresh by one process is picked up by the others (#10 item 7)', () => {
  it('8 parallel commands with an expired token: one refresh at the server, all succeed, the profile keeps the new pair', async () => {
    const dir = tempDir();
    const { access, refresh } = sandbox.tokens.oauth;
    const login = await svc(['auth', 'login', '--url', sandbox.url, '--token-type', 'oauth', '--no-verify'], {
      configDir: dir,
      input: `${access}\n${refresh}\n`,
    });
    expect(login.exitCode).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, issuedAt + TTL_SECONDS * 1000 + 500 - Date.now()));
    sandbox.clearRequests();
    const runs = await Promise.all(
      Array.from({ length: 8 }, () => svc(['projects', 'get', '1', '--fields', 'id', '-o', 'json'], { configDir: dir })),
    );
    expect(runs.map((r) => [r.exitCode, r.stdout, r.stderr])).toEqual(runs.map(() => [0, '{\n  "id": 1\n}\n', '']));
    expect(sandbox.requests().filter((r) => r.rawPath === '/oauth/token')).toHaveLength(1);
    const saved = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.default;
    expect([saved.token === access, saved.refreshToken === refresh, saved.tokenType]).toEqual([false, false, 'oauth']);
    const status = await svc(['auth', 'status', '-o', 'json', '--fields', 'check'], { configDir: dir });
    expect([status.exitCode, status.stderr]).toEqual([0, '']);
  });
});
