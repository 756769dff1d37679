import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPath, encodePathSegment } from '../../src/http/encode.js';
import { cleanupTempDirs, svc } from '../support/harness.js';
import { client, outcome, TOKEN } from '../http/support.js';
import { json, startScriptedServer } from './scripted-server.js';

// Issue #10, case 10: `.` and `..` given as path parameters are names, never steps up the path,
// and no request leaves /api/v4 on the instance, whoever wrote the path.
let server: Awaited<ReturnType<typeof startScriptedServer>>;
const seen: string[] = [];

beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(async () => {
  await server.close();
  cleanupTempDirs();
});

function recording(name: string): string {
  return server.add(name, (req, res, ctx) => {
    seen.push(`${req.method} ${req.url}`);
    json(200, { path: req.url })(req, res, ctx);
  });
}

describe('dot segments as parameters (case 10)', () => {
  it('apiPath and encodePathSegment send a whole . or .. encoded, and keep dots inside names', () => {
    expect(apiPath`/projects/${'..'}/share/${5}`).toBe('/projects/%2E%2E/share/5');
    expect(apiPath`/projects/${'.'}/repository/tags/${'v1.0'}`).toBe('/projects/%2E/repository/tags/v1.0');
    expect(encodePathSegment('...')).toBe('...');
    expect(encodePathSegment('my.project')).toBe('my.project');
  });

  it('the client sends %2E%2E as written: DELETE reaches the share, not /share/5', async () => {
    const base = recording('dots');
    seen.length = 0;
    const http = client(base);
    await http.request({ method: 'DELETE', path: apiPath`/projects/${'..'}/share/${5}`, responseType: 'none' });
    await http.request({ path: '/projects/%2e/members/%2E%2e' });
    expect(seen).toEqual(['DELETE /dots/api/v4/projects/%2E%2E/share/5', 'GET /dots/api/v4/projects/%2e/members/%2E%2e']);
  });

  it('a literal .. inside /api/v4 is resolved before sending; leaving /api/v4 is refused with exit 2 and nothing sent', async () => {
    const base = recording('escape');
    seen.length = 0;
    const http = client(base);
    expect((await http.request<{ path: string }>({ path: 'projects/../user' })).data).toEqual({ path: '/escape/api/v4/user' });
    for (const path of ['../../other-app/x', '/projects/../../../x', `${base}/other-app/x`, `${base}/api/v4/../v3/projects`]) {
      const result = await outcome(() => http.request({ path }));
      expect(result, path).toEqual({
        exitCode: 2,
        name: 'UsageError',
        message: expect.stringMatching(/^the path \/[^ ]* is outside \/escape\/api\/v4; refusing to send it$/),
      });
    }
    expect(await outcome(() => http.request({ path: '../../other-app/x' }))).toEqual({
      exitCode: 2,
      name: 'UsageError',
      message: 'the path /escape/other-app/x is outside /escape/api/v4; refusing to send it',
    });
    expect(seen).toEqual(['GET /escape/api/v4/user']);
  });

  it('svc api ../../other-app/x exits 2 with one line, sending nothing and no token', async () => {
    const base = recording('cli-escape');
    seen.length = 0;
    const result = await svc(['api', '../../other-app/x'], { env: { SVC_URL: base, SVC_TOKEN: TOKEN }, secrets: [TOKEN] });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe('svc: the path /cli-escape/other-app/x is outside /cli-escape/api/v4; refusing to send it\n');
    expect(result.stdout).toBe('');
    expect(server.hits('cli-escape')).toBe(0);
  });
});
