import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient, normalizeBaseUrl, redactUrl } from '../../src/http/client.js';
import { cleanupTempDirs, svc } from '../support/harness.js';
import { client, outcome, TOKEN } from '../http/support.js';
import { json, startScriptedServer } from './scripted-server.js';

// Issue #10, case 12: secrets in every path a message or a request can take.
let server: Awaited<ReturnType<typeof startScriptedServer>>;

beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(async () => {
  await server.close();
  cleanupTempDirs();
});

describe('--debug URLs (case 12)', () => {
  it('redactUrl hides a credential parameter whatever its case or percent-encoding', () => {
    expect(redactUrl('http://h/api/v4/user?private%5Ftoken=abc&x=1')).toBe('http://h/api/v4/user?private%5Ftoken=[redacted]&x=1');
    expect(redactUrl('http://h/api/v4/user?PRIVATE_TOKEN=abc')).toBe('http://h/api/v4/user?PRIVATE_TOKEN=[redacted]');
    expect(
      redactUrl('http://h/u?%70rivate_token=a&Access%5fToken=b&x=private_token&job%5Ftoken=c&Refresh_Token=d&private_tokens=e#f'),
    ).toBe(
      'http://h/u?%70rivate_token=[redacted]&Access%5fToken=[redacted]&x=private_token&job%5Ftoken=[redacted]&Refresh_Token=[redacted]&private_tokens=e#f',
    );
  });
});

describe('URLs with a password (case 12)', () => {
  it('a base URL with userinfo is refused without echoing it, parseable or not', async () => {
    const refused = (raw: string) => outcome(async () => normalizeBaseUrl(raw));
    expect(await refused('http://root:s3cret-pass@127.0.0.1:99999/')).toEqual({
      exitCode: 2,
      name: 'SvcError',
      message: "invalid URL 'http://root:****@127.0.0.1:99999/': expected something like https://gitlab.example.com",
    });
    expect(await refused('ftp://root:s3cret-pass@127.0.0.1/')).toEqual({
      exitCode: 2,
      name: 'SvcError',
      message: 'invalid URL: put credentials in a token, not in the URL',
    });
  });

  it('a request URL with userinfo is refused with exit 2, without echoing it, nothing sent', async () => {
    const base = server.add('userinfo', json(200, {}));
    const withPassword = base.replace('http://', 'http://root:s3cret-pass@');
    expect(await outcome(() => client(base).request({ path: `${withPassword}/api/v4/user` }))).toEqual({
      exitCode: 2,
      name: 'UsageError',
      message: 'invalid URL: put credentials in a token, not in the URL',
    });
    expect(server.hits('userinfo')).toBe(0);
  });
});

describe('control characters in credentials and headers (case 12)', () => {
  it('a token holding CR, LF, NUL or another control character is refused with exit 2 before any request', async () => {
    const base = server.add('control-token', json(200, {}));
    for (const token of [`${TOKEN}\r\nX-Injected: 1`, `${TOKEN}\n`, `${TOKEN}\u0000`, `\u001b[2J${TOKEN}`, `${TOKEN}\u007f`]) {
      const result = await outcome(async () => new HttpClient({ baseUrl: base, credentials: { token, type: 'private' }, userAgent: 't' }));
      expect(result, JSON.stringify(token)).toEqual({
        exitCode: 2,
        name: 'UsageError',
        message: 'the token holds a control character (such as a line break); check how it was pasted or stored',
      });
    }
    expect(server.hits('control-token')).toBe(0);
  });

  it('an extra header whose value holds a control character is refused with exit 2, nothing sent', async () => {
    const base = server.add('control-header', json(200, {}));
    const result = await outcome(() => client(base).request({ path: '/user', headers: { 'X-Note': 'a\r\nX-Injected: 1' } }));
    expect(result).toEqual({
      exitCode: 2,
      name: 'UsageError',
      message: 'the header "X-Note" holds a control character (such as a line break) in its name or value',
    });
    expect(server.hits('control-header')).toBe(0);
  });

  it('a --sudo value with a line break, or a header undici cannot send, is a usage error too, never retried', async () => {
    const base = server.add('control-other', json(200, {}));
    expect(await outcome(async () => client(base, { sudo: 'root\nX-Injected: 1' }))).toEqual({
      exitCode: 2,
      name: 'UsageError',
      message: 'the header "Sudo" holds a control character (such as a line break) in its name or value',
    });
    expect(await outcome(() => client(base, { retries: 3 }).request({ path: '/user', headers: { 'Bad Name': 'x' } }))).toEqual({
      exitCode: 2,
      name: 'UsageError',
      message: 'the request cannot be sent: invalid header key',
    });
    expect(server.hits('control-other')).toBe(0);
  });

  it('svc refuses a token with a line break in SVC_TOKEN: exit 2, one line, nothing sent', async () => {
    const base = server.add('control-cli', json(200, {}));
    const result = await svc(['api', 'user'], { env: { SVC_URL: base, SVC_TOKEN: `glpat-abc\r\ndef-0123456789` } });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe('svc: the token holds a control character (such as a line break); check how it was pasted or stored\n');
    expect(server.hits('control-cli')).toBe(0);
  });
});

describe('an error body that echoes the token (case 12)', () => {
  const echo = (req: { headers: Record<string, string | string[] | undefined> }) =>
    String(req.headers['private-token'] ?? req.headers.authorization ?? '').replace(/^Bearer /, '');

  it('is redacted in the message whatever the token source: credentials, OAuth, or a credential header', async () => {
    const base = server.add('echo', (req, res) => {
      res
        .writeHead(401, { 'content-type': 'application/json' })
        .end(JSON.stringify({ message: `401 Unauthorized: token ${echo(req)} is not valid` }));
    });
    expect(await outcome(() => client(base).request({ path: '/user' }))).toEqual({
      exitCode: 3,
      name: 'ApiError',
      message: 'GET /user failed: 401 Unauthorized: token [redacted] is not valid',
    });
    const oauth = client(base, { credentials: { token: 'oauth-access-7f3e9a', type: 'oauth' } });
    expect(await outcome(() => oauth.request({ path: '/user' }))).toEqual({
      exitCode: 3,
      name: 'ApiError',
      message: 'GET /user failed: 401 Unauthorized: token [redacted] is not valid',
    });
    const viaHeader = client(base, { credentials: undefined });
    expect(await outcome(() => viaHeader.request({ path: '/user', headers: { 'PRIVATE-TOKEN': 'header-token-2c8d1b' } }))).toEqual({
      exitCode: 3,
      name: 'ApiError',
      message: 'GET /user failed: 401 Unauthorized: token [redacted] is not valid',
    });
  });
});
