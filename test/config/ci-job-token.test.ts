import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { cleanupTempDirs, svc, tempDir } from '../support/harness.js';
import { startTestSandbox } from '../support/sandbox.js';

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox({ projects: 5 });
});
afterAll(async () => {
  await sandbox.close();
  cleanupTempDirs();
});

describe('CI_JOB_TOKEN is never silently ignored (#9 item 6)', () => {
  const ci = () => ({ CI_SERVER_URL: sandbox.url, CI_JOB_TOKEN: sandbox.tokens.job });

  it('says once on stderr that the stored profile token was used instead', async () => {
    const dir = tempDir();
    expect(
      (await svc(['auth', 'login', '--url', sandbox.url, '--profile', 'ops'], { configDir: dir, input: `${sandbox.tokens.admin}\n` }))
        .exitCode,
    ).toBe(0);
    sandbox.clearRequests();
    const result = await svc(['releases', 'list', '2', '-o', 'json'], { configDir: dir, env: ci() });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe(
      "warning: using the token of profile 'ops' from the config file; CI_JOB_TOKEN is set but not used " +
        '(SVC_TOKEN="$CI_JOB_TOKEN" SVC_TOKEN_TYPE=job would use it)\n',
    );
    const sent = sandbox.requests();
    expect(sent.map((r) => [r.headers['private-token'], r.headers['job-token']])).toEqual(
      sent.map(() => [sandbox.tokens.admin, undefined]),
    );

    const status = await svc(['auth', 'status', '-o', 'json'], { configDir: dir, env: ci() });
    expect(status.stderr).toBe(result.stderr);
    expect(JSON.parse(status.stdout).token_source).toBe("profile 'ops' in the config file");
  });

  it('says nothing when SVC_TOKEN was chosen, or when the job token is the one used', async () => {
    const dir = tempDir();
    expect((await svc(['auth', 'login', '--url', sandbox.url], { configDir: dir, input: `${sandbox.tokens.admin}\n` })).exitCode).toBe(0);
    const chosen = await svc(['releases', 'list', '2', '-o', 'json'], { configDir: dir, env: { ...ci(), SVC_TOKEN: sandbox.tokens.user } });
    expect([chosen.exitCode, chosen.stderr]).toEqual([0, '']);
    const jobOnly = await svc(['releases', 'list', '2', '-o', 'json'], { env: ci() });
    expect([jobOnly.exitCode, jobOnly.stderr]).toEqual([0, '']);
  });
});
