import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { cleanupTempDirs, svc, tempDir } from '../support/harness.js';
import { sandboxEnv, startTestSandbox } from '../support/sandbox.js';
import { json, selfSignedCert, startProxy, startServer, startTlsServer, type TestServer } from './servers.js';

const TOKEN = 'test-server-token-abcdef123456';
const servers: TestServer[] = [];

async function server(...args: Parameters<typeof startServer>): Promise<TestServer> {
  const s = await startServer(...args);
  servers.push(s);
  return s;
}

function run(target: TestServer | string, args: string[], env: Record<string, string> = {}) {
  const url = typeof target === 'string' ? target : target.url;
  // Proxy variables are read from the process environment, so those runs get a process of their own.
  const proxied = Object.keys(env).some((name) => name.endsWith('_PROXY'));
  return svc(args, { env: { SVC_URL: url, SVC_TOKEN: TOKEN, ...env }, secrets: [TOKEN], process: proxied });
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
afterAll(() => cleanupTempDirs());

describe('retries', () => {
  it('retries a 429 after Retry-After seconds, logging the attempt under --debug', async () => {
    const s = await server((_req, res, i) =>
      i === 0 ? res.writeHead(429, { 'retry-after': '1', 'content-type': 'text/plain' }).end('Retry later') : json(res, 200, { ok: 1 }),
    );
    const result = await run(s, ['api', 'thing', '--debug']);
    expect(result.exitCode).toBe(0);
    expect(s.seen).toHaveLength(2);
    expect(result.stderr).toMatch(/retry 1\/4 in 1000 ms after 429/);
    expect(result.stderr).toMatch(/→ GET .*\/api\/v4\/thing \(attempt 2\/5\)/);
    expect(result.stdout).toBe('{\n  "ok": 1\n}\n');
  });

  it('says on stderr when it waits on a rate limit, so a long wait is not silent (#9 item 9)', async () => {
    const s = await server((_req, res, i) =>
      i % 2 === 0 ? json(res, 429, { message: '429 Too Many Requests' }, { 'retry-after': '3' }) : json(res, 200, [{ id: 1 }]),
    );
    const result = await run(s, ['projects', 'list', '-o', 'json', '--fields', 'id']);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('rate limited; retrying in 3 s\n');
    expect(JSON.parse(result.stdout)).toEqual([{ id: 1 }]);
    const quiet = await run(s, ['projects', 'list', '-q', '-o', 'json', '--fields', 'id']);
    expect(quiet.exitCode).toBe(0);
    expect(s.seen).toHaveLength(4);
    expect(quiet.stderr).toBe('');
  });

  it('reads Retry-After as an HTTP date, and a past RateLimit-Reset means retry now', async () => {
    const s = await server((_req, res, i) => {
      if (i === 0)
        return json(res, 429, { message: '429 Too Many Requests' }, { 'retry-after': new Date(Date.now() + 1000).toUTCString() });
      if (i === 1)
        return json(res, 429, { message: '429 Too Many Requests' }, { 'ratelimit-reset': String(Math.floor(Date.now() / 1000) - 30) });
      json(res, 200, {});
    });
    const result = await run(s, ['api', 'thing', '--debug']);
    expect(result.exitCode).toBe(0);
    expect(s.seen).toHaveLength(3);
    const delays = [...result.stderr.matchAll(/retry \d\/4 in (\d+) ms after 429/g)].map((m) => Number(m[1]));
    expect(delays).toHaveLength(2);
    expect(delays[0]).toBeGreaterThan(0);
    expect(delays[0]).toBeLessThanOrEqual(1000);
    expect(delays[1]).toBe(0);
  });

  it('gives up on 429 after --retries with exit 7, and POSTs are retried on 429 too', async () => {
    const s = await server((_req, res) => json(res, 429, { message: '429 Too Many Requests' }, { 'retry-after': '0' }));
    const result = await run(s, ['api', 'thing', '-X', 'POST', '--retries', '2']);
    expect(result.exitCode).toBe(7);
    expect(s.seen.map((r) => r.method)).toEqual(['POST', 'POST', 'POST']);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('does not wait past the retry budget', async () => {
    const s = await server((_req, res) => json(res, 429, { message: '429 Too Many Requests' }, { 'retry-after': '3600' }));
    const result = await run(s, ['api', 'thing', '--debug']);
    expect(result.exitCode).toBe(7);
    expect(s.seen).toHaveLength(1);
    expect(result.stderr).toMatch(/would pass the retry budget/);
  });

  it('retries 503 for GET but never for POST; --retries 0 means one attempt', async () => {
    const flaky = await server((_req, res, i) => (i < 2 ? json(res, 503, { message: '503 Service Unavailable' }) : json(res, 200, [])));
    expect((await run(flaky, ['api', 'thing'])).exitCode).toBe(0);
    expect(flaky.seen).toHaveLength(3);

    const down = await server((_req, res) => {
      res.writeHead(503, { 'content-type': 'text/html' });
      res.end('<html><head><title>503 Service Temporarily Unavailable</title></head></html>');
    });
    const post = await run(down, ['api', 'thing', '-X', 'POST', '-f', 'a=1']);
    expect(post.exitCode).toBe(1);
    expect(down.seen).toHaveLength(1);
    expect(post.stderr).toMatch(/POST \/thing failed: 503 Service Unavailable: an HTML page \("503 Service Temporarily Unavailable"\)/);
    const once = await run(down, ['api', 'thing', '--retries', '0']);
    expect(once.exitCode).toBe(1);
    expect(down.seen).toHaveLength(2);
  });

  it('retries a reset connection for GET, and a stalled answer times out per attempt', async () => {
    const resets = await server((_req, res, i) => (i === 0 ? res.socket?.destroy() : json(res, 200, { ok: true })));
    expect((await run(resets, ['api', 'thing'])).exitCode).toBe(0);
    expect(resets.seen).toHaveLength(2);

    const stalled = await server(() => {});
    const result = await run(stalled, ['api', 'thing', '--timeout', '0.3', '--retries', '1']);
    expect(result.exitCode).toBe(1);
    expect(stalled.seen).toHaveLength(2);
    expect(result.stderr).toMatch(/no answer within the timeout/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('redirects', () => {
  it('GET follows up to 5 hops and drops credentials on another origin', async () => {
    const other = await server((_req, res) => json(res, 200, { from: 'other' }), '127.0.0.2');
    const s = await server((req, res) => {
      const hop = Number(/hop(\d+)/.exec(req.url)?.[1] ?? 0);
      if (req.url.includes('/far')) return res.writeHead(302, { location: `${other.url}/object?sig=1` }).end();
      if (req.url.includes('/loop')) return res.writeHead(301, { location: `/api/v4/loop/hop${hop + 1}` }).end();
      if (hop < 4) return res.writeHead(307, { location: `/api/v4/hop${hop + 1}` }).end();
      json(res, 200, { hop });
    });
    const five = await run(s, ['api', 'hop0']);
    expect(five.exitCode).toBe(0);
    expect(JSON.parse(five.stdout)).toEqual({ hop: 4 });
    expect(s.seen.every((r) => r.headers['private-token'] === TOKEN)).toBe(true);

    const tooMany = await run(s, ['api', 'loop/hop0']);
    expect(tooMany.exitCode).toBe(1);
    expect(tooMany.stderr).toMatch(/more than 5 redirects/);

    const far = await run(s, ['api', 'far', '-H', 'Authorization: Bearer x-extra-credential']);
    expect(far.exitCode).toBe(0);
    expect(JSON.parse(far.stdout)).toEqual({ from: 'other' });
    expect(other.seen).toHaveLength(1);
    expect(other.seen[0]?.url).toBe('/object?sig=1');
    expect(other.seen[0]?.headers['private-token']).toBeUndefined();
    expect(other.seen[0]?.headers.authorization).toBeUndefined();
  });

  it('POST follows 301/307/308 to the same origin with the same method and body, never turning into a GET', async () => {
    const s = await server((req, res) => {
      if (req.url === '/api/v4/old') return res.writeHead(308, { location: '/api/v4/new' }).end();
      if (req.url === '/api/v4/moved') return res.writeHead(302, { location: '/api/v4/new' }).end();
      json(res, 201, { method: req.method, body: req.body });
    });
    const followed = await run(s, ['api', 'old', '-f', 'name=x']);
    expect(followed.exitCode).toBe(0);
    expect(s.seen.map((r) => `${r.method} ${r.url} ${r.body}`)).toEqual(['POST /api/v4/old {"name":"x"}', 'POST /api/v4/new {"name":"x"}']);
    const refused = await run(s, ['api', 'moved', '-f', 'name=x']);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toMatch(/redirected \(302\).*not followed for a POST/);
    expect(s.seen).toHaveLength(3);
  });

  it('POST never follows a redirect to another origin', async () => {
    const other = await server((_req, res) => json(res, 201, {}), '127.0.0.2');
    const s = await server((_req, res) => res.writeHead(307, { location: `${other.url}/api/v4/x` }).end());
    const result = await run(s, ['api', 'x', '-X', 'POST']);
    expect(result.exitCode).toBe(1);
    expect(other.seen).toHaveLength(0);
  });
});

describe('proxies, TLS and plain http', () => {
  it('sends requests through HTTP_PROXY, skips it for NO_PROXY hosts, and warns once about plain http', async () => {
    let page = 0;
    const target = await server((_req, res) => {
      page++;
      json(res, 200, [{ id: page }], page < 3 ? { link: `<http://svc.example.test/api/v4/items?page=${page + 1}>; rel="next"` } : {});
    });
    const proxy = await startProxy(target.url);
    servers.push(proxy);
    const viaProxy = await run('http://svc.example.test', ['api', 'items', '--paginate'], { HTTP_PROXY: proxy.url });
    expect(viaProxy.exitCode).toBe(0);
    expect(JSON.parse(viaProxy.stdout)).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    expect(proxy.seen.length).toBeGreaterThan(0);
    expect(proxy.seen.every((r) => /svc\.example\.test/.test(r.url))).toBe(true);
    expect(target.seen.every((r) => r.headers.host === 'svc.example.test')).toBe(true);
    expect(viaProxy.stderr.match(/plain http; the token travels unencrypted/g)).toHaveLength(1);

    const before = proxy.seen.length;
    const direct = await run(target, ['api', 'items'], { HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' });
    expect(direct.exitCode).toBe(0);
    expect(proxy.seen).toHaveLength(before);
    expect(direct.stderr).not.toMatch(/unencrypted/);
  });

  it('trusts a CA from --ca-file, SVC_CA_FILE or the profile, also through an HTTPS proxy, and explains a self-signed certificate', async () => {
    const dir = tempDir();
    const tls = selfSignedCert(dir);
    const s = await startTlsServer(tls, (_req, res) => json(res, 200, { tls: true }));
    servers.push(s);
    const refused = await run(s, ['api', 'x']);
    expect(refused.exitCode).toBe(1);
    expect(s.seen).toHaveLength(0);
    expect(refused.stderr).toMatch(/self-signed.*--ca-file/);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);

    expect((await run(s, ['api', 'x', '--ca-file', tls.certFile])).stdout).toMatch(/"tls": true/);
    expect((await run(s, ['api', 'x'], { SVC_CA_FILE: tls.certFile })).exitCode).toBe(0);
    const configDir = tempDir();
    const saved = await svc(['auth', 'login', '--url', s.url, '--ca-file', tls.certFile, '--no-verify'], {
      configDir,
      input: `${TOKEN}\n`,
    });
    expect(saved.exitCode).toBe(0);
    const fromProfile = await svc(['api', 'x'], { configDir });
    expect(fromProfile.exitCode).toBe(0);
    expect(s.seen.at(-1)?.headers['private-token']).toBe(TOKEN);

    const proxy = await startProxy(s.url);
    servers.push(proxy);
    const tunnelled = await run(s, ['api', 'x', '--ca-file', tls.certFile], { HTTPS_PROXY: proxy.url });
    expect(tunnelled.exitCode).toBe(0);
    expect(proxy.seen.map((r) => `${r.method} ${r.url}`)).toEqual([`CONNECT ${new URL(s.url).host}`]);

    const bad = await run(s, ['api', 'x', '--ca-file', `${dir}/key.pem`]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/holds no PEM certificate/);
  });
});

describe('credentials against the sandbox', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ projects: 5 });
  });
  afterAll(() => sandbox.close());

  it('refreshes an expired OAuth token once and saves the new pair in the profile', async () => {
    const configDir = tempDir();
    const { access, refresh } = sandbox.tokens.oauth;
    const login = await svc(['auth', 'login', '--url', sandbox.url, '--token-type', 'oauth'], {
      configDir,
      input: `${access}\n${refresh}\n`,
    });
    expect(login.exitCode).toBe(0);
    sandbox.expireOAuth();
    sandbox.clearRequests();
    const result = await svc(['api', 'user', '--debug'], { configDir });
    const profile = JSON.parse(readFileSync(`${configDir}/config.json`, 'utf8')).profiles.default;
    const fresh = [profile.token, profile.refreshToken];
    expect(result.exitCode).toBe(0);
    for (const secret of fresh) {
      expect(result.stderr).not.toContain(secret);
      expect(result.stdout).not.toContain(secret);
    }
    expect(profile.token).not.toBe(access);
    expect(profile.refreshToken).not.toBe(refresh);
    expect(sandbox.requests().map((r) => `${r.method} ${r.rawPath} ${r.status}`)).toEqual([
      'GET /api/v4/user 401',
      'POST /oauth/token 200',
      'GET /api/v4/user 200',
    ]);
    expect(sandbox.requests()[2]?.headers.authorization).toBe(`Bearer ${profile.token}`);
    sandbox.clearRequests();
    expect((await svc(['api', 'user'], { configDir, secrets: fresh })).exitCode).toBe(0);
    expect(sandbox.requests()).toHaveLength(1);
  });

  it('cannot renew an expired OAuth token given without its refresh token (exit 3)', async () => {
    const own = await startTestSandbox({ projects: 1 });
    own.expireOAuth();
    const result = await svc(['api', 'user'], { env: sandboxEnv(own, own.tokens.oauth.access, 'oauth') });
    await own.close();
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toMatch(/invalid_token: Token is expired.*\(the token is expired or revoked\)/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('hints that a refused job token works on some endpoints only', async () => {
    const result = await svc(['api', 'user'], { env: sandboxEnv(sandbox, sandbox.tokens.job, 'job') });
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toMatch(/job tokens are accepted only on some endpoints/);
    expect(sandbox.requests().at(-1)?.headers['job-token']).toBe(sandbox.tokens.job);
  });

  it('knows a job token sent as a header of `svc api` is a job token, with no token configured', async () => {
    const result = await svc(['api', 'user', '-H', `JOB-TOKEN: ${sandbox.tokens.job}`], {
      env: { SVC_URL: sandbox.url },
      secrets: [sandbox.tokens.job],
    });
    expect(result).toEqual({
      exitCode: 3,
      stdout: '',
      stderr:
        'svc: GET /user failed: 401 Unauthorized (job tokens are accepted only on some endpoints, such as job artifacts, releases and packages)\n',
    });
  });

  it('sends Sudo and explains each of its failures', async () => {
    const as = (token: string, who: string, path = 'user', type?: string) =>
      svc(['api', path, '--sudo', who], { env: sandboxEnv(sandbox, token, type) });
    const user = sandbox.state.user(sandbox.state.fixtures.userId)!;
    const ok = await as(sandbox.tokens.admin, user.username);
    expect(ok.exitCode).toBe(0);
    expect(JSON.parse(ok.stdout).username).toBe(user.username);
    expect(sandbox.requests().at(-1)?.headers.sudo).toBe(user.username);

    const cases: Array<[Awaited<ReturnType<typeof as>>, number, RegExp]> = [
      [await as(sandbox.tokens.user, 'root'), 4, /not an administrator/],
      [await as(sandbox.tokens.adminNoSudo, 'root'), 4, /lacks the 'sudo' scope/],
      [await as(sandbox.tokens.admin, 'nobody-such'), 5, /no user with ID or username 'nobody-such'/],
      [await as(sandbox.tokens.job, 'root', 'job', 'job'), 4, /needs a personal or OAuth token/],
    ];
    for (const [result, code, message] of cases) {
      expect(result.exitCode).toBe(code);
      expect(result.stderr).toMatch(message);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    }
  });

  it('downloads artifacts through the object-storage redirect without sending the token there', async () => {
    sandbox.clearRequests();
    const { jobProjectId, jobId } = sandbox.state.fixtures;
    const result = await svc(['api', `projects/${jobProjectId}/jobs/${jobId}/artifacts`, '--debug'], {
      env: sandboxEnv(sandbox, sandbox.tokens.job, 'job'),
    });
    expect(result.exitCode).toBe(0);
    const direct = await fetch(`${sandbox.url}/api/v4/projects/${jobProjectId}/jobs/${jobId}/artifacts`, {
      headers: { 'JOB-TOKEN': sandbox.tokens.job },
    });
    expect(result.stdout).toBe(Buffer.from(await direct.arrayBuffer()).toString('utf8'));
    const objects = sandbox
      .requests()
      .filter((r) => r.origin === 'objects')
      .slice(0, 1);
    expect(objects).toHaveLength(1);
    expect(objects[0]?.headers['job-token']).toBeUndefined();
    expect(result.stderr).toMatch(/credentials not forwarded/);
  });
});
