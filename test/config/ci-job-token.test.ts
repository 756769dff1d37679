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
    // Outside a job (no CI=true) the saved profile still comes first, as on a workstation, and says so.
    const { CI: _ci, ...outside } = job();
    expect(await sent([], dir, outside)).toEqual({
      exitCode: 0,
      stderr:
        `warning: CI_JOB_TOKEN is not sent to ${other.url} (profile 'ops' in the config file), only to the CI job's server ` +
        `${sandbox.url} (CI_SERVER_URL); using the token of profile 'ops' in the config file (SVC_URL="$CI_SERVER_URL" would use it)\n`,
      job: [],
      other: ['private'],
    });
    expect(await sent([], dir, { ...outside, SVC_URL: sandbox.url })).toEqual({ exitCode: 0, stderr: '', job: ['job-token'], other: [] });
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

  it('the job token never goes to another server that SVC_URL names; the token used there instead is named', async () => {
    const dir = await loggedIn(other.url);
    expect(await sent([], dir, { ...job(), SVC_URL: other.url })).toEqual({
      exitCode: 0,
      stderr:
        `warning: CI_JOB_TOKEN is not sent to ${other.url} (SVC_URL), only to the CI job's server ${sandbox.url} (CI_SERVER_URL); ` +
        "using the token of profile 'ops' in the config file\n",
      job: [],
      other: ['private'],
    });
    // Without a profile for that server, nothing is sent with the request, and that is said too.
    expect(await sent([], tempDir(), { ...job(), SVC_URL: other.url })).toEqual({
      exitCode: 5,
      stderr:
        `warning: CI_JOB_TOKEN is not sent to ${other.url} (SVC_URL), only to the CI job's server ${sandbox.url} (CI_SERVER_URL); using no token\n` +
        'svc: GET /projects/2/releases failed: 404 Project Not Found\n',
      job: [],
      other: ['none'],
    });
  });
});

describe('one server is one origin: localhost and 127.0.0.1 are two', () => {
  /** The sandbox as written another way: the same socket, another origin. */
  const localhost = () => sandbox.url.replace('127.0.0.1', 'localhost');
  const jobOn = (url: string) => ({ CI_SERVER_URL: url, CI_JOB_TOKEN: sandbox.tokens.job });

  async function loggedIn(): Promise<string> {
    const dir = tempDir();
    expect((await svc(['auth', 'login', '--url', sandbox.url], { configDir: dir, input: `${sandbox.tokens.admin}\n` })).exitCode).toBe(0);
    return dir;
  }

  async function tokensSeen(args: string[], dir: string, env: Record<string, string>) {
    sandbox.clearRequests();
    const result = await svc(args, { configDir: dir, env });
    const seen = sandbox
      .requests()
      .map((r) => (r.headers['job-token'] ? 'job' : r.headers['private-token'] === sandbox.tokens.admin ? 'admin' : 'none'));
    return { exitCode: result.exitCode, stderr: result.stderr, seen };
  }

  it('outside a job, a profile for 127.0.0.1 and a job on localhost disagree, and that is said', async () => {
    const dir = await loggedIn();
    expect(await tokensSeen(['projects', 'get', '1', '-o', 'json'], dir, jobOn(localhost()))).toEqual({
      exitCode: 0,
      stderr:
        `warning: CI_JOB_TOKEN is not sent to ${sandbox.url} (profile 'default' in the config file), only to the CI job's server ` +
        `${localhost()} (CI_SERVER_URL); using the token of profile 'default' in the config file (SVC_URL="$CI_SERVER_URL" would use it)\n`,
      seen: ['admin'],
    });
    // The same origin written with its default spelling differences is one server: the usual line.
    const sameOrigin = sandbox.url.replace('http://', 'HTTP://') + '/';
    expect(await tokensSeen(['projects', 'get', '1', '-o', 'json'], dir, jobOn(sameOrigin))).toEqual({
      exitCode: 0,
      stderr:
        "warning: using the token of profile 'default' from the config file; CI_JOB_TOKEN is set but not used " +
        '(SVC_TOKEN="$CI_JOB_TOKEN" SVC_TOKEN_TYPE=job would use it)\n',
      seen: ['admin'],
    });
  });

  it('inside a job, SVC_URL away from the job server keeps the job token back and names the admin token used', async () => {
    const dir = await loggedIn();
    const env = { ...jobOn(localhost()), CI: 'true', SVC_URL: sandbox.url };
    const line =
      `warning: CI_JOB_TOKEN is not sent to ${sandbox.url} (SVC_URL), only to the CI job's server ${localhost()} (CI_SERVER_URL); ` +
      "using the token of profile 'default' in the config file\n";
    expect(await tokensSeen(['releases', 'list', '2', '-o', 'json', '--debug'], dir, env)).toMatchObject({ exitCode: 0, seen: ['admin'] });
    expect((await tokensSeen(['releases', 'list', '2', '-o', 'json'], dir, env)).stderr).toBe(line);
    const status = await svc(['auth', 'status', '-o', 'json'], { configDir: dir, env });
    expect(status.stderr).toBe(line);
    expect(JSON.parse(status.stdout)).toMatchObject({ url_source: 'SVC_URL', token_source: "profile 'default' in the config file" });
  });
});
