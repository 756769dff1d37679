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

describe('inside a CI job the job server wins over a saved profile (#21 item 2)', () => {
  let other: Sandbox;
  beforeAll(async () => {
    other = await startTestSandbox({ projects: 5 });
  });
  afterAll(async () => {
    await other.close();
  });

  /** A runner's home where `svc auth login --profile ops` saved a profile for the other instance. */
  async function loggedIn(url: string): Promise<string> {
    const dir = tempDir();
    const login = await svc(['auth', 'login', '--url', url, '--profile', 'ops'], { configDir: dir, input: `${sandbox.tokens.admin}\n` });
    expect(login.exitCode).toBe(0);
    return dir;
  }

  /** Which instance got the requests of one run, and with which header. */
  async function sent(args: string[], dir: string, env: Record<string, string>) {
    sandbox.clearRequests();
    other.clearRequests();
    const result = await svc(['releases', 'list', '2', '-o', 'json', ...args], { configDir: dir, env, process: true });
    const headers = (s: Sandbox) =>
      s.requests().map((r) => (r.headers['job-token'] ? 'job-token' : r.headers['private-token'] ? 'private' : 'none'));
    return { exitCode: result.exitCode, stderr: result.stderr, job: headers(sandbox), other: headers(other) };
  }

  const job = () => ({ CI: 'true', CI_SERVER_URL: sandbox.url, CI_JOB_TOKEN: sandbox.tokens.job });
  const why = "inside a CI job (CI=true) the job's variables come before a saved profile (--profile ops would use it)";

  it('the precedence matrix: flags, SVC_*, the job, an explicit profile, the saved profile', async () => {
    const dir = await loggedIn(other.url);
    expect(await sent([], dir, job())).toEqual({
      exitCode: 0,
      stderr: `warning: using the CI job's server ${sandbox.url} (CI_SERVER_URL) with CI_JOB_TOKEN, not profile 'ops' (${other.url}): ${why}\n`,
      job: ['job-token'],
      other: [],
    });
    const chosen = `warning: using profile 'ops' (${other.url}) as --profile asks, not the CI job's server ${sandbox.url} (CI_SERVER_URL)\n`;
    expect(await sent(['--profile', 'ops'], dir, job())).toEqual({ exitCode: 0, stderr: chosen, job: [], other: ['private'] });
    expect(await sent([], dir, { ...job(), SVC_PROFILE: 'ops' })).toEqual({
      exitCode: 0,
      stderr: chosen.replace('--profile', 'SVC_PROFILE'),
      job: [],
      other: ['private'],
    });
    expect(await sent([], dir, { ...job(), SVC_URL: other.url, SVC_TOKEN: sandbox.tokens.admin })).toEqual({
      exitCode: 0,
      stderr: '',
      job: [],
      other: ['private'],
    });
    expect(await sent(['--url', other.url, '--token', sandbox.tokens.admin], dir, job())).toEqual({
      exitCode: 0,
      stderr: '',
      job: [],
      other: ['private'],
    });
    // Outside a job (no CI=true) the saved profile still comes first, as on a workstation.
    const { CI: _ci, ...outside } = job();
    expect(await sent([], dir, outside)).toEqual({ exitCode: 0, stderr: '', job: [], other: ['private'] });
  });

  it('CI_API_V4_URL names the same server as a profile without /api/v4: only the token differs, and that is said', async () => {
    const dir = await loggedIn(sandbox.url);
    const env = { CI: 'true', CI_API_V4_URL: `${sandbox.url}/api/v4`, CI_JOB_TOKEN: sandbox.tokens.job };
    expect(await sent([], dir, env)).toEqual({
      exitCode: 0,
      stderr: `warning: using CI_JOB_TOKEN for the CI job's server ${sandbox.url}/api/v4 (CI_API_V4_URL), not the token of profile 'ops': ${why}\n`,
      job: ['job-token'],
      other: [],
    });
    const status = await svc(['auth', 'status', '-o', 'json'], { configDir: dir, env });
    expect(JSON.parse(status.stdout)).toMatchObject({ url_source: 'CI_API_V4_URL', token_source: 'CI_JOB_TOKEN', token_type: 'job' });
  });

  it('the job token never goes to another server that SVC_URL names; the profile of that server is used, silently', async () => {
    const dir = await loggedIn(other.url);
    expect(await sent([], dir, { ...job(), SVC_URL: other.url })).toEqual({ exitCode: 0, stderr: '', job: [], other: ['private'] });
  });
});
