import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { cleanupTempDirs, svc, tempDir } from '../support/harness.js';
import { startTestSandbox } from '../support/sandbox.js';

let sandbox: Sandbox;
let configDir: string;

beforeAll(async () => {
  sandbox = await startTestSandbox({ projects: 2 });
  // The token lives only in the profile: no variable or flag of the run names it.
  configDir = tempDir();
  const login = await svc(['auth', 'login', '--url', sandbox.url], { configDir, input: `${sandbox.tokens.admin}\n` });
  expect(login.exitCode).toBe(0);
});
afterAll(async () => {
  await sandbox.close();
  cleanupTempDirs();
});

/** Stderr with the one figure that changes from run to run, a duration, made constant. */
const steady = (stderr: string) => stderr.replace(/ in \d+ ms /g, ' in N ms ');

describe('--debug redacts tokens as error lines do', () => {
  it('a profile token in a path is redacted in the request line and in the error line alike', async () => {
    sandbox.clearRequests();
    const result = await svc(['projects', 'get', sandbox.tokens.admin, '--debug'], { configDir });
    expect(result.exitCode).toBe(5);
    expect(steady(result.stderr)).toBe(
      `[debug] → GET ${sandbox.url}/api/v4/projects/[redacted] (attempt 1/5)\n` +
        '[debug] ← 404 in N ms (attempt 1)\n' +
        'svc: GET /projects/[redacted] failed: 404 Project Not Found\n',
    );
    // Only what is printed is redacted: the server got the path as typed.
    expect(sandbox.requests().map((r) => r.rawPath)).toEqual([`/api/v4/projects/${sandbox.tokens.admin}`]);
  });

  it('a token as a query value is redacted in the request line', async () => {
    sandbox.clearRequests();
    const result = await svc(['issues', 'list', '1', '--search', sandbox.tokens.admin, '-o', 'json', '--debug'], { configDir });
    expect([result.exitCode, result.stdout]).toEqual([0, '[]\n']);
    expect(steady(result.stderr)).toBe(
      `[debug] → GET ${sandbox.url}/api/v4/projects/1/issues?search=[redacted]&per_page=100 (attempt 1/5)\n` +
        '[debug] ← 200 in N ms (attempt 1)\n' +
        '[debug] 0 records in 1 pages\n',
    );
    expect(sandbox.requests().map((r) => `${r.rawPath}?${r.rawQuery}`)).toEqual([
      `/api/v4/projects/1/issues?search=${sandbox.tokens.admin}&per_page=100`,
    ]);
  });

  it('SVC_DEBUG=1 and a token from the environment are redacted the same way', async () => {
    const env = { SVC_URL: sandbox.url, SVC_TOKEN: sandbox.tokens.admin, CI_JOB_TOKEN: sandbox.tokens.job, SVC_DEBUG: '1' };
    const result = await svc(['projects', 'get', sandbox.tokens.job], { env });
    expect(result.exitCode).toBe(5);
    expect(steady(result.stderr)).toBe(
      `[debug] → GET ${sandbox.url}/api/v4/projects/[redacted] (attempt 1/5)\n` +
        '[debug] ← 404 in N ms (attempt 1)\n' +
        'svc: GET /projects/[redacted] failed: 404 Project Not Found\n',
    );
  });
});
