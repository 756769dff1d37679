import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import type { Io } from '../../src/context.js';
import { Capture } from '../../src/output/capture.js';
import { reportError } from '../../src/runtime.js';
import { cleanupTempDirs, isolatedEnv, svc, tempDir } from '../support/harness.js';
import { runInProcess } from '../support/in-process.js';
import { json, startServer, type TestServer } from './servers.js';

// Tokens that only the saved profile holds: no variable or flag of the runs below names them.
const PROFILE_TOKEN = 'glpat-only-in-the-profile-0001';
const ACCESS_TOKEN = 'oauth-access-in-the-profile-0002';
const REFRESH_TOKEN = 'oauth-refresh-in-the-profile-0003';

const servers: TestServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  cleanupTempDirs();
});

async function profileFor(url: string, login: string[], input: string): Promise<string> {
  const configDir = tempDir();
  const result = await svc(['auth', 'login', '--url', url, '--no-verify', ...login], { configDir, input });
  expect(result.exitCode).toBe(0);
  return configDir;
}

describe('the error line and the --debug stack hide a token resolved from a profile', () => {
  it('an unexpected error whose message and stack hold a token prints neither', () => {
    const stderr = new Capture();
    const error = new TypeError(`Cannot use 'in' operator to search for 'id' in ${PROFILE_TOKEN}`);
    const hide = (text: string) => text.replaceAll(PROFILE_TOKEN, '[redacted]');
    const io = { stdin: Readable.from([]), stdout: new Capture(), stderr, env: {}, isTTY: { stdin: false, stdout: false, stderr: false } };
    expect(reportError(error, io as unknown as Io, hide, true)).toBe(1);
    const lines = stderr.text().split('\n');
    const message = "Cannot use 'in' operator to search for 'id' in [redacted]";
    expect(lines.slice(0, 2)).toEqual([`svc: unexpected error: ${message} (rerun with --debug for details)`, `TypeError: ${message}`]);
    expect(lines.slice(2, -1).every((line) => line.startsWith('    at '))).toBe(true);
    expect(stderr.text()).not.toContain(PROFILE_TOKEN);
  });

  it('a list holding a string instead of records is printed as it came, not a crash', async () => {
    const server = await startServer((req, res) => json(res, 200, [req.headers['private-token']]));
    servers.push(server);
    const configDir = await profileFor(server.url, [], `${PROFILE_TOKEN}\n`);
    const result = await runInProcess(['projects', 'list', '-o', 'ndjson', '--debug'], isolatedEnv({ configDir }));
    expect([result.exitCode, result.stdout]).toEqual([0, `"${PROFILE_TOKEN}"\n`]);
    expect(result.stderr).not.toContain(PROFILE_TOKEN);
  });

  it('an error line naming the request path is redacted without --debug too', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"id": 1,');
    });
    servers.push(server);
    const configDir = await profileFor(server.url, [], `${PROFILE_TOKEN}\n`);
    const result = await svc(['projects', 'get', PROFILE_TOKEN, '--retries', '0'], { configDir, secrets: [PROFILE_TOKEN] });
    expect([result.exitCode, result.stdout, result.stderr]).toEqual([
      1,
      '',
      'svc: GET /projects/[redacted] returned a truncated or malformed JSON body\n',
    ]);
    expect(server.seen.map((r) => r.url)).toEqual([`/api/v4/projects/${PROFILE_TOKEN}`]);
  });
});

describe('an OAuth pair from a profile', () => {
  it('a failing refresh whose answer echoes the refresh token prints neither token', async () => {
    const server = await startServer((req, res) => {
      if (req.url === '/oauth/token') return json(res, 400, { error: `refresh token ${REFRESH_TOKEN} was revoked` });
      json(res, 401, { error: 'invalid_token', error_description: 'Token is expired' });
    });
    servers.push(server);
    const configDir = await profileFor(server.url, ['--token-type', 'oauth'], `${ACCESS_TOKEN}\n${REFRESH_TOKEN}\n`);
    const secrets = [ACCESS_TOKEN, REFRESH_TOKEN];
    const reason = 'the OAuth access token expired and refreshing it failed (refresh token [redacted] was revoked)';
    const line = `svc: ${reason}; log in again with \`svc auth login\`\n`;

    const get = await svc(['projects', 'get', '1', '--debug'], { configDir, secrets });
    expect(get.exitCode).toBe(3);
    expect(get.stderr.split('\n').filter((l) => !l.startsWith('[debug]'))).toEqual([line.trimEnd(), '']);
    expect(server.seen.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /api/v4/projects/1', 'POST /oauth/token']);
    expect(server.seen[1]?.body).toContain(REFRESH_TOKEN);

    const status = await svc(['auth', 'status', '-o', 'json', '--fields', 'token,token_type,check'], { configDir, secrets });
    expect([status.exitCode, JSON.parse(status.stdout), status.stderr]).toEqual([
      3,
      { token: '****0002', token_type: 'oauth', check: `failed: ${reason}; log in again with \`svc auth login\`` },
      line,
    ]);

    const list = await svc(['config', 'list', '-o', 'json'], { configDir, secrets });
    expect([list.exitCode, list.stderr]).toEqual([0, '']);
    expect(JSON.parse(list.stdout)).toEqual([
      expect.objectContaining({ profile: 'default', token: '****0002', refreshToken: '****0003', tokenType: 'oauth' }),
    ]);
  });
});
