import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { req } from './helpers.js';

let sb: Sandbox;
const logLines: string[] = [];

beforeAll(async () => {
  sb = await startSandbox({ projects: 60, log: (l) => logLines.push(l) });
});
afterAll(async () => {
  await sb.close();
});

const api = (p: string) => `/api/v4${p}`;

describe('response basics', () => {
  it('sets the security headers and JSON content type on every API response', async () => {
    for (const path of [api('/projects/1'), api('/nope'), api('/projects/99999')]) {
      const r = await req(sb.url, path);
      expect(r.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(r.headers['x-content-type-options']).toBe('nosniff');
      expect(r.headers['content-type']).toBe('application/json');
    }
  });

  it('answers an unknown route with the router 404 body', async () => {
    const r = await req(sb.url, api('/no/such/route'), { token: sb.tokens.admin });
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ error: '404 Not Found' });
  });

  it('answers a known path with a wrong method with 405 and an Allow header', async () => {
    const r = await req(sb.url, api('/projects/1'), { method: 'PATCH', token: sb.tokens.admin });
    expect(r.status).toBe(405);
    expect(r.json).toEqual({ error: '405 Not Allowed' });
    expect(r.headers.allow).toContain('GET');
  });

  it('answers 414 for a query string over 8192 bytes', async () => {
    const r = await req(sb.url, api(`/projects?search=${'a'.repeat(9000)}`), { token: sb.tokens.admin });
    expect(r.status).toBe(414);
    expect(r.json).toEqual({ message: '414 Request-URI Too Large' });
  });

  it('answers a malformed JSON body with 400 and an error key, and keeps serving', async () => {
    const r = await req(sb.url, api('/projects'), {
      method: 'POST',
      token: sb.tokens.admin,
      body: '{"name": ',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(r.status).toBe(400);
    expect(typeof r.json.error).toBe('string');
    const again = await req(sb.url, api('/projects/1'));
    expect(again.status).toBe(200);
  });

  it('answers an over-large body with 413 and keeps serving', async () => {
    const r = await req(sb.url, api('/projects'), {
      method: 'POST',
      token: sb.tokens.admin,
      body: Buffer.alloc(33 * 1024 * 1024, 0x20),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(r.status).toBe(413);
    expect(r.json).toEqual({ message: '413 Request Entity Too Large' });
    expect((await req(sb.url, api('/projects/1'))).status).toBe(200);
  });

  it('answers /api/v3 with 410', async () => {
    const r = await req(sb.url, '/api/v3/projects');
    expect(r.status).toBe(410);
    expect(r.json).toEqual({ error: 'API V3 is no longer supported. Use API V4 instead.' });
  });

  it('ignores unknown query parameters', async () => {
    const r = await req(sb.url, api('/projects?all=False&frobnicate=1&per_page=3'), { token: sb.tokens.admin });
    expect(r.status).toBe(200);
    expect(r.json).toHaveLength(3);
  });

  it('renders timestamps as ISO 8601 with milliseconds', async () => {
    const r = await req(sb.url, api('/projects/1'));
    expect(r.json.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('answers GET /version', async () => {
    const r = await req(sb.url, api('/version'), { token: sb.tokens.user });
    expect(r.status).toBe(200);
    expect(r.json.version).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe('authentication', () => {
  it('serves a public project without credentials', async () => {
    const r = await req(sb.url, api('/projects/1'));
    expect(r.status).toBe(200);
    expect(r.json.visibility).toBe('public');
  });

  it('hides a private project from anonymous callers with 404 Project Not Found', async () => {
    const r = await req(sb.url, api('/projects/2'));
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ message: '404 Project Not Found' });
  });

  it('requires credentials on GET /user', async () => {
    const r = await req(sb.url, api('/user'));
    expect(r.status).toBe(401);
    expect(r.json).toEqual({ message: '401 Unauthorized' });
  });

  it('rejects an unknown token with 401 even on a public endpoint', async () => {
    const r = await req(sb.url, api('/projects/1'), { token: 'not-a-real-token' });
    expect(r.status).toBe(401);
    expect(r.json).toEqual({ message: '401 Unauthorized' });
  });

  it('accepts PRIVATE-TOKEN, Bearer, and the private_token / access_token query forms', async () => {
    const a = await req(sb.url, api('/user'), { headers: { 'PRIVATE-TOKEN': sb.tokens.user } });
    const b = await req(sb.url, api('/user'), { headers: { Authorization: `Bearer ${sb.tokens.user}` } });
    const c = await req(sb.url, api(`/user?private_token=${sb.tokens.user}`));
    const d = await req(sb.url, api(`/user?access_token=${sb.tokens.oauth.access}`));
    expect([a.json.username, b.json.username, c.json.username]).toEqual(['jdoe', 'jdoe', 'jdoe']);
    expect(d.json.username).toBe('root');
  });

  it('accepts an OAuth access token as Bearer', async () => {
    const r = await req(sb.url, api('/user'), { headers: { Authorization: `Bearer ${sb.tokens.oauth.access}` } });
    expect(r.status).toBe(200);
    expect(r.json.is_admin).toBe(true);
  });

  it('rejects a read_api token on a write with 403 insufficient_scope', async () => {
    const r = await req(sb.url, api('/projects'), { method: 'POST', token: sb.tokens.readApi, json: { name: 'x' } });
    expect(r.status).toBe(403);
    expect(r.json).toEqual({
      error: 'insufficient_scope',
      error_description: 'The request requires higher privileges than provided by the access token.',
      scope: 'api',
    });
  });

  it('lets a read_api token read', async () => {
    const r = await req(sb.url, api('/projects/2'), { token: sb.tokens.readApi });
    expect(r.status).toBe(200);
  });

  it('accepts a job token on a job-token route (JOB-TOKEN header and job_token query)', async () => {
    const a = await req(sb.url, api('/projects/2/releases'), { headers: { 'JOB-TOKEN': sb.tokens.job } });
    const b = await req(sb.url, api(`/projects/2/releases?job_token=${sb.tokens.job}`));
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(a.json.length).toBeGreaterThan(0);
  });

  it('answers GET /job with the job of the token', async () => {
    const r = await req(sb.url, api('/job'), { headers: { 'JOB-TOKEN': sb.tokens.job } });
    expect(r.status).toBe(200);
    expect(r.json.id).toBe(sb.state.fixtures.jobId);
  });

  it('rejects a job token on a route that does not allow job tokens with 401', async () => {
    const r = await req(sb.url, api('/projects/2'), { headers: { 'JOB-TOKEN': sb.tokens.job } });
    expect(r.status).toBe(401);
    expect(r.json).toEqual({ message: '401 Unauthorized' });
  });

  it('rejects a job token on another project with the allowlist 403', async () => {
    const r = await req(sb.url, api('/projects/4/releases'), { headers: { 'JOB-TOKEN': sb.tokens.job } });
    expect([r.status, r.json]).toEqual([
      403,
      {
        message:
          '403 Forbidden - Authentication by CI/CD job token not allowed from acme/platform/eager-lynx-2 to initech/backend/lucky-beacon-4.',
      },
    ]);
  });

  it('answers admin-only endpoints with 403 for a regular user', async () => {
    const r = await req(sb.url, api('/application/settings'), { token: sb.tokens.user });
    expect(r.status).toBe(403);
    expect(r.json).toEqual({ message: '403 Forbidden' });
  });

  it('shows repository_storage to admins only', async () => {
    const admin = await req(sb.url, api('/projects/1'), { token: sb.tokens.admin });
    const user = await req(sb.url, api('/projects/1'), { token: sb.tokens.user });
    expect(admin.json.repository_storage).toBe('default');
    expect(user.json).not.toHaveProperty('repository_storage');
  });
});

describe('OAuth', () => {
  it('refreshes at the base URL, invalidating the old pair; expired tokens get invalid_token', async () => {
    const local = await startSandbox({ projects: 3 });
    try {
      const old = local.tokens.oauth;
      local.expireOAuth();
      const expired = await req(local.url, api('/user'), { headers: { Authorization: `Bearer ${old.access}` } });
      expect(expired.status).toBe(401);
      expect(expired.json).toEqual({
        error: 'invalid_token',
        error_description: 'Token is expired. You can either do re-authorization or token refresh.',
      });
      expect(expired.headers['www-authenticate']).toBe(
        'Bearer realm="Protected by OAuth 2.0", error="invalid_token", error_description="Token is expired. You can either do re-authorization or token refresh."',
      );
      const r = await req(local.url, '/oauth/token', { method: 'POST', form: `grant_type=refresh_token&refresh_token=${old.refresh}` });
      expect(r.status).toBe(200);
      expect(r.json.token_type).toBe('Bearer');
      expect(r.json.expires_in).toBe(7200);
      expect(r.json.access_token).not.toBe(old.access);
      const ok = await req(local.url, api('/user'), { headers: { Authorization: `Bearer ${r.json.access_token}` } });
      expect(ok.status).toBe(200);
      const reuse = await req(local.url, '/oauth/token', {
        method: 'POST',
        json: { grant_type: 'refresh_token', refresh_token: old.refresh },
      });
      expect(reuse.status).toBe(400);
      expect(reuse.json.error).toBe('invalid_grant');
      const oldAccess = await req(local.url, api('/user'), { headers: { Authorization: `Bearer ${old.access}` } });
      expect(oldAccess.status).toBe(401);
      expect(oldAccess.json.error).toBe('invalid_token');
    } finally {
      await local.close();
    }
  });

  it('does not serve /oauth/token under /api/v4', async () => {
    const r = await req(sb.url, api('/oauth/token'), { method: 'POST', form: 'grant_type=refresh_token&refresh_token=x' });
    expect(r.status).toBe(404);
  });
});

describe('sudo', () => {
  it('runs as another user by header, by case-insensitive username', async () => {
    const r = await req(sb.url, api('/user'), { token: sb.tokens.admin, headers: { Sudo: 'JDoe' } });
    expect(r.status).toBe(200);
    expect(r.json.username).toBe('jdoe');
  });

  it('runs as another user by query id', async () => {
    const r = await req(sb.url, api('/user?sudo=2'), { token: sb.tokens.admin });
    expect(r.json.id).toBe(2);
  });

  it('refuses sudo from a non-admin', async () => {
    const r = await req(sb.url, api('/user'), { token: sb.tokens.user, headers: { Sudo: 'root' } });
    expect(r.status).toBe(403);
    expect(r.json).toEqual({ message: '403 Forbidden - Must be admin to use sudo' });
  });

  it('refuses sudo from an admin token without the sudo scope', async () => {
    const r = await req(sb.url, api('/user'), { token: sb.tokens.adminNoSudo, headers: { Sudo: 'jdoe' } });
    expect(r.status).toBe(403);
    expect(r.json.error).toBe('insufficient_scope');
    expect(r.json.scope).toBe('sudo');
  });

  it('answers 404 for an unknown sudo target', async () => {
    const r = await req(sb.url, api('/user'), { token: sb.tokens.admin, headers: { Sudo: 'nobody-here' } });
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ message: "404 User with ID or username 'nobody-here' Not Found" });
  });

  it('refuses sudo with a job token', async () => {
    const r = await req(sb.url, api('/projects/2/releases'), { headers: { 'JOB-TOKEN': sb.tokens.job, Sudo: 'root' } });
    expect(r.status).toBe(403);
    expect(r.json).toEqual({ message: '403 Forbidden - Must be authenticated using an OAuth or Personal Access Token to use sudo' });
  });
});

describe('encoding', () => {
  it('finds a project by %2F-encoded namespaced path, case-insensitively', async () => {
    const p = sb.state.project(1)!;
    const r = await req(sb.url, api(`/projects/${encodeURIComponent(p.fullPath.toUpperCase())}`));
    expect(r.status).toBe(200);
    expect(r.json.id).toBe(1);
  });

  it('answers 404 route-not-found for a raw / in a namespaced path', async () => {
    const p = sb.state.project(1)!;
    const r = await req(sb.url, api(`/projects/${p.fullPath}`));
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ error: '404 Not Found' });
  });

  it('serves a file with %2F in its path and a branch with / in its name', async () => {
    const r = await req(sb.url, api('/projects/1/repository/files/docs%2Fguide%2Fintro.md?ref=feature%2Flogin'));
    expect(r.status).toBe(200);
    expect(r.json.file_path).toBe('docs/guide/intro.md');
    expect(r.json.ref).toBe('feature/login');
    expect(Buffer.from(r.json.content, 'base64').toString()).toContain('# Introduction');
  });

  it('does not match a raw / in a file path', async () => {
    const r = await req(sb.url, api('/projects/1/repository/files/docs/guide/intro.md?ref=main'));
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ error: '404 Not Found' });
  });

  it('reads a raw + in a query value as a space, %2B as a plus', async () => {
    const plus = await req(sb.url, api('/projects/1/repository/files/docs%2Fc%2B%2B%2Fnotes%2Btips.md?ref=main'));
    expect(plus.status).toBe(200);
    const space = await req(sb.url, api('/projects/1/repository/files/docs%2Frelease%20notes.md?ref=main'));
    expect(space.status).toBe(200);
    const tagPlus = await req(sb.url, api('/projects/1/repository/files/README.md?ref=v1.0.0%2Bbuild.5'));
    expect(tagPlus.status).toBe(200);
    expect(tagPlus.json.ref).toBe('v1.0.0+build.5');
    const tagSpace = await req(sb.url, api('/projects/1/repository/files/README.md?ref=v1.0.0+build.5'));
    expect(tagSpace.status).toBe(404);
    expect(tagSpace.json).toEqual({ message: '404 Commit Not Found' });
  });

  it('serves a tag whose name has + via %2B', async () => {
    const r = await req(sb.url, api('/projects/1/repository/tags/v1.0.0%2Bbuild.5'));
    expect(r.status).toBe(200);
    expect(r.json.name).toBe('v1.0.0+build.5');
  });

  it('lists the commits of a branch with / in its name via %2F', async () => {
    const ok = await req(sb.url, api('/projects/1/branches/feature%2Flogin/commits'));
    expect(ok.status).toBe(200);
    expect(ok.json.length).toBeGreaterThan(3);
    const raw = await req(sb.url, api('/projects/1/branches/feature/login/commits'));
    expect(raw.status).toBe(404);
    expect(raw.json).toEqual({ error: '404 Not Found' });
  });

  it('parses array-of-hashes query parameters (variables[0][key]=...)', async () => {
    const r = await req(sb.url, api('/projects/2/pipeline?ref=main&variables[0][key]=SANDBOX_PIPELINE_RESULT&variables[0][value]=failed'), {
      method: 'POST',
      token: sb.tokens.user,
    });
    expect(r.status).toBe(201);
    const pl = sb.requests().at(-1)!;
    expect(pl.rawQuery).toContain('variables[0][key]');
  });
});

describe('stats and request log', () => {
  it('counts requests by route pattern and method, and connections', async () => {
    const before = (await req(sb.url, '/-/sandbox/stats')).json;
    await req(sb.url, api('/projects/3'), { token: sb.tokens.admin });
    const after = (await req(sb.url, '/-/sandbox/stats')).json;
    expect(after.requests.total).toBe(before.requests.total + 1);
    expect(after.requests.byRoute['GET /projects/:id']).toBe((before.requests.byRoute['GET /projects/:id'] ?? 0) + 1);
    expect(after.requests.byMethod.GET).toBe(before.requests.byMethod.GET + 1);
    expect(after.connections.opened).toBeGreaterThan(before.connections.opened);
    expect(sb.stats().requests.total).toBe(after.requests.total);
  });

  it('records raw paths, queries, headers and bodies, and logs one line per request without tokens', async () => {
    sb.clearRequests();
    await req(sb.url, api('/projects/acme%2Fplatform%2Fx?b=1'), { method: 'GET', token: sb.tokens.admin });
    await req(sb.url, api('/snippets'), { method: 'POST', token: sb.tokens.user, json: { title: 't', content: 'c', file_name: 'a.txt' } });
    const recs = sb.requests();
    expect(recs).toHaveLength(2);
    expect(recs[0]!.rawPath).toBe('/api/v4/projects/acme%2Fplatform%2Fx');
    expect(recs[0]!.rawQuery).toBe('b=1');
    expect(recs[0]!.headers['private-token']).toBe(sb.tokens.admin);
    expect(recs[0]!.status).toBe(404);
    expect(recs[1]!.bodyJson).toEqual({ title: 't', content: 'c', file_name: 'a.txt' });
    expect(recs[1]!.origin).toBe('api');
    const line = logLines.find((l) => l.includes('/api/v4/projects/acme%2Fplatform%2Fx'));
    expect(line).toMatch(/^GET \/api\/v4\/projects\/acme%2Fplatform%2Fx 404 [\d.]+ms$/);
    expect(logLines.join('\n')).not.toContain(sb.tokens.admin);
  });

  it('does not record or count /-/sandbox/stats', async () => {
    sb.clearRequests();
    const a = (await req(sb.url, '/-/sandbox/stats')).json;
    const b = (await req(sb.url, '/-/sandbox/stats')).json;
    expect(b.requests.total).toBe(a.requests.total);
    expect(sb.requests()).toHaveLength(0);
  });
});
