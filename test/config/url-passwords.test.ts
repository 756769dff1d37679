import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { svc, tempDir } from '../support/harness.js';
import { useSandbox } from '../commands/support.js';
import { startScriptedServer } from '../drills/scripted-server.js';

const suite = useSandbox({ projects: 1 });

const PASSWORD = 'S3CRETPW';

describe('no URL password on screen (#21 item 3)', () => {
  const withPassword = () => suite.sandbox.url.replace('http://', `http://bob:${PASSWORD}@`);
  const masked = () => suite.sandbox.url.replace('http://', 'http://bob:****@');

  it('auth status shows bob:****@ and refuses to use the URL, in one line', async () => {
    const result = await svc(['auth', 'status', '-o', 'json'], {
      env: { SVC_URL: withPassword(), SVC_TOKEN: suite.sandbox.tokens.admin },
      secrets: [PASSWORD],
      process: true,
    });
    expect(result.exitCode).toBe(2);
    expect(JSON.parse(result.stdout)).toMatchObject({ url: masked(), url_source: 'SVC_URL' });
    expect(result.stderr).toBe('svc: invalid URL: put credentials in a token, not in the URL\n');
  });

  it('config list and config get print a hand-edited profile URL masked; a user name alone is hidden too', async () => {
    const dir = tempDir();
    const tokenAsUser = suite.sandbox.url.replace('http://', `http://${PASSWORD}@`);
    const profiles = { default: { url: withPassword() }, other: { url: tokenAsUser } };
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ activeProfile: 'default', profiles }), { mode: 0o600 });
    const list = await svc(['config', 'list', '-o', 'json'], { configDir: dir, secrets: [PASSWORD] });
    expect(list.exitCode).toBe(0);
    expect(JSON.parse(list.stdout).map((p: { url: string }) => p.url)).toEqual([
      masked(),
      suite.sandbox.url.replace('http://', 'http://****@'),
    ]);
    const get = await svc(['config', 'get', 'url'], { configDir: dir, secrets: [PASSWORD] });
    expect(get).toEqual({ exitCode: 0, stdout: `${masked()}\n`, stderr: '' });
  });

  it('the CI line naming a saved profile masks its URL', async () => {
    const dir = tempDir();
    const profiles = { ops: { url: withPassword(), token: suite.sandbox.tokens.admin } };
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ activeProfile: 'ops', profiles }), { mode: 0o600 });
    const ci = { CI: 'true', CI_SERVER_URL: 'http://127.0.0.1:1', CI_JOB_TOKEN: suite.sandbox.tokens.job };
    const result = await svc(['auth', 'status', '-o', 'json'], { configDir: dir, env: ci, secrets: [PASSWORD] });
    expect(result.stderr).toBe(
      `warning: using the CI job's server http://127.0.0.1:1 (CI_SERVER_URL) with CI_JOB_TOKEN, not profile 'ops' (${masked()}): ` +
        "inside a CI job (CI=true) the job's variables come before a saved profile (--profile ops would use it)\n",
    );
  });

  // The body is the server's data, printed as it came; headers and messages are svc's own lines.
  it('a URL with a password in a response header (api -i) or in an error message is masked', async () => {
    const server = await startScriptedServer();
    try {
      const mirror = `http://bob:${PASSWORD}@mirror.example/x`;
      const base = server.add('userinfo', (_req, res) => {
        res.sendDate = false;
        const body = JSON.stringify({ message: `cannot reach ${mirror}` });
        res.writeHead(502, { 'content-type': 'application/json', 'content-length': String(body.length), 'x-mirror': mirror }).end(body);
      });
      const result = await svc(['api', '-i', 'user', '--retries', '0'], {
        env: { SVC_URL: base, SVC_TOKEN: 'some-token-0123456789' },
        process: true,
      });
      expect(result.exitCode).toBe(1);
      expect(result.stdout.split('\n').filter((line) => line.startsWith('x-mirror'))).toEqual([
        'x-mirror: http://bob:****@mirror.example/x',
      ]);
      expect(result.stderr).toBe('svc: GET /user failed: 502 Bad Gateway: cannot reach http://bob:****@mirror.example/x\n');
    } finally {
      await server.close();
    }
  });
});
