import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { execa } from 'execa';
import { BIN, cleanupTempDirs, isolatedEnv, svc, tempDir } from '../support/harness.js';
import { sandboxEnv, startTestSandbox } from '../support/sandbox.js';
import { spawnPty } from '../support/pty.js';

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox({ projects: 5 });
});
afterAll(async () => {
  await sandbox.close();
  cleanupTempDirs();
});

function configFile(dir: string): string {
  return join(dir, 'config.json');
}

function readConfig(dir: string): { activeProfile?: string; profiles: Record<string, Record<string, string>> } {
  return JSON.parse(readFileSync(configFile(dir), 'utf8'));
}

async function login(dir: string, input: string, args: string[] = []) {
  return svc(['auth', 'login', '--url', sandbox.url, ...args], { configDir: dir, input });
}

describe('svc auth login', () => {
  it('reads the token from stdin, checks it with GET /user and saves it with mode 0600', async () => {
    const dir = tempDir();
    sandbox.clearRequests();
    const result = await login(dir, `${sandbox.tokens.user}\n`);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/token works: @\w+/);
    const seen = sandbox.requests().filter((r) => r.rawPath === '/api/v4/user');
    expect(seen).toHaveLength(1);
    expect(seen[0]?.headers['private-token']).toBe(sandbox.tokens.user);
    expect(statSync(configFile(dir)).mode & 0o777).toBe(0o600);
    const saved = readConfig(dir);
    expect(saved.activeProfile).toBe('default');
    expect(saved.profiles.default).toEqual({ url: sandbox.url, token: sandbox.tokens.user, tokenType: 'private' });
  });

  it('saves nothing when the server rejects the token (exit 3)', async () => {
    const dir = tempDir();
    const result = await login(dir, 'not-a-real-token-123456\n', ['--profile', 'work']);
    expect(result.exitCode).toBe(3);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/401/);
    expect(existsSync(configFile(dir))).toBe(false);
  });

  it('takes an OAuth pair as two stdin lines, or the refresh token from a file', async () => {
    const dir = tempDir();
    const { access, refresh } = sandbox.tokens.oauth;
    const result = await login(dir, `${access}\n${refresh}\n`, ['--token-type', 'oauth', '--profile', 'oauth']);
    expect(result.exitCode).toBe(0);
    expect(readConfig(dir).profiles.oauth).toMatchObject({ token: access, refreshToken: refresh, tokenType: 'oauth' });
    const listed = JSON.parse((await svc(['config', 'list', '-o', 'json'], { configDir: dir })).stdout);
    expect([listed[0].token, listed[0].refreshToken]).toEqual([`****${access.slice(-4)}`, `****${refresh.slice(-4)}`]);

    const missing = await login(tempDir(), `${access}\n`, ['--token-type', 'oauth']);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toMatch(/access token and refresh token on stdin/);

    const file = join(tempDir(), 'refresh');
    writeFileSync(file, `${refresh}\n`);
    const dir2 = tempDir();
    const fromFile = await login(dir2, `${access}\n`, ['--token-type', 'oauth', '--refresh-token-file', file, '--no-verify']);
    expect(fromFile.exitCode).toBe(0);
    expect(readConfig(dir2).profiles.default).toMatchObject({ token: access, refreshToken: refresh });
  });

  it('saves a job token without a GET /user check, and --no-verify sends nothing', async () => {
    const dir = tempDir();
    sandbox.clearRequests();
    const job = await login(dir, `${sandbox.tokens.job}\n`, ['--token-type', 'job']);
    expect(job.exitCode).toBe(0);
    expect(job.stderr).toMatch(/job tokens cannot be checked/);
    const noVerify = await login(dir, 'anything-at-all-1234\n', ['--no-verify', '--profile', 'other']);
    expect(noVerify.exitCode).toBe(0);
    expect(sandbox.requests()).toHaveLength(0);
  });

  it('on a terminal, prompts for the token without echoing it', async () => {
    const dir = tempDir();
    const typed = 'typed-at-the-prompt-0123456789';
    // `script` runs the CLI on a pseudo-terminal; the token is typed once the prompt shows.
    const child = execa('script', ['-qec', `node ${BIN} auth login --url ${sandbox.url} --no-verify`, '/dev/null'], {
      env: isolatedEnv({ configDir: dir }),
      extendEnv: false,
      reject: false,
    });
    let screen = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      const before = screen;
      screen += chunk.toString();
      if (!before.includes('token: ') && screen.includes('token: ')) child.stdin?.write(`${typed}\r`);
    });
    const result = await child;
    expect(result.exitCode).toBe(0);
    expect(screen).toContain('token: ');
    expect(screen).not.toContain(typed);
    expect(readConfig(dir).profiles.default?.token).toBe(typed);
  });

  it('needs a URL and a token on stdin', async () => {
    const noUrl = await svc(['auth', 'login'], { input: 'x\n' });
    expect(noUrl.exitCode).toBe(2);
    expect(noUrl.stderr).toMatch(/needs --url/);
    const noToken = await login(tempDir(), '');
    expect(noToken.exitCode).toBe(2);
    expect(noToken.stderr).toMatch(/expected token on stdin/);
  });
});

describe('svc auth status and logout', () => {
  it('says which source won for URL and token, redacts the token and checks it', async () => {
    const dir = tempDir();
    await login(dir, `${sandbox.tokens.user}\n`);
    const fromProfile = await svc(['auth', 'status', '-o', 'json'], { configDir: dir });
    expect(fromProfile.exitCode).toBe(0);
    const status = JSON.parse(fromProfile.stdout);
    expect(status).toMatchObject({ profile: 'default', url: sandbox.url, token_type: 'private' });
    expect(status.url_source).toMatch(/profile 'default'/);
    expect(status.token_source).toMatch(/profile 'default'/);
    expect(status.token).toBe(`****${sandbox.tokens.user.slice(-4)}`);
    expect(status.check).toMatch(/^ok: @/);

    // Environment beats the profile; a flag beats the environment.
    const fromEnv = await svc(['auth', 'status', '-o', 'json'], { configDir: dir, env: sandboxEnv(sandbox, sandbox.tokens.admin) });
    expect(JSON.parse(fromEnv.stdout)).toMatchObject({ url_source: 'SVC_URL', token_source: 'SVC_TOKEN' });
    expect(JSON.parse(fromEnv.stdout).check).toMatch(/administrator/);
    const fromFlag = await svc(['auth', 'status', '-o', 'json', '--token', sandbox.tokens.readApi], {
      configDir: dir,
      env: sandboxEnv(sandbox),
    });
    expect(JSON.parse(fromFlag.stdout).token_source).toBe('--token');
  });

  it('falls back to the CI job variables and says a job token cannot be checked', async () => {
    const result = await svc(['auth', 'status', '-o', 'json'], {
      env: { CI_SERVER_URL: sandbox.url, CI_JOB_TOKEN: sandbox.tokens.job },
    });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ url_source: 'CI_SERVER_URL', token_source: 'CI_JOB_TOKEN', token_type: 'job' });
    expect(JSON.parse(result.stdout).check).toMatch(/job tokens cannot/);
  });

  it('exits 3 for a rejected token and 2 without credentials', async () => {
    const bad = await svc(['auth', 'status'], { env: { SVC_URL: sandbox.url, SVC_TOKEN: 'revoked-token-abcdef' } });
    expect(bad.exitCode).toBe(3);
    expect(bad.stdout).toMatch(/failed: .*401/);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    const none = await svc(['auth', 'status'], { env: { SVC_URL: sandbox.url } });
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toMatch(/no token/);
  });

  it('logout removes only the credentials and keeps url and caFile; a missing profile is a usage error', async () => {
    const dir = tempDir();
    await login(dir, `${sandbox.tokens.user}\n`, ['--profile', 'work']);
    const ca = join(dir, 'ca.pem');
    writeFileSync(ca, '-----BEGIN CERTIFICATE-----\n');
    expect((await svc(['config', 'set', 'caFile', ca, '--profile', 'work'], { configDir: dir })).exitCode).toBe(0);
    const out = await svc(['auth', 'logout', '--profile', 'work'], { configDir: dir });
    expect(out.exitCode).toBe(0);
    expect(out.stderr).toMatch(/removed the token of profile 'work'.*other settings stay/);
    expect(readConfig(dir).profiles).toEqual({ work: { url: sandbox.url, caFile: ca } });
    expect(readFileSync(configFile(dir), 'utf8')).not.toContain(sandbox.tokens.user);
    const again = await svc(['auth', 'logout', '--profile', 'work'], { configDir: dir });
    expect(again.exitCode).toBe(0);
    expect(again.stderr).toMatch(/holds no token/);
    const ghost = await svc(['auth', 'logout', '--profile', 'ghost'], { configDir: dir });
    expect(ghost.exitCode).toBe(2);
    expect(ghost.stderr).toMatch(/no profile named 'ghost'/);
  });

  it('logout forgets an OAuth pair with its token type', async () => {
    const dir = tempDir();
    const { access, refresh } = sandbox.tokens.oauth;
    await login(dir, `${access}\n${refresh}\n`, ['--token-type', 'oauth']);
    expect((await svc(['auth', 'logout'], { configDir: dir })).exitCode).toBe(0);
    expect(readConfig(dir).profiles.default).toEqual({ url: sandbox.url });
  });

  it('refuses an unknown --profile for commands that use credentials', async () => {
    const result = await svc(['auth', 'status', '--profile', 'nope']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/no profile named 'nope'/);
  });
});

describe('svc config', () => {
  it('gets, sets, lists (tokens redacted) and prints the path', async () => {
    const dir = tempDir();
    await login(dir, `${sandbox.tokens.admin}\n`);
    await login(dir, `${sandbox.tokens.user}\n`, ['--profile', 'second']);
    expect((await svc(['config', 'path'], { configDir: dir })).stdout).toBe(`${configFile(dir)}\n`);
    expect((await svc(['config', 'get', 'activeProfile'], { configDir: dir })).stdout).toBe('second\n');
    expect((await svc(['config', 'set', 'activeProfile', 'default'], { configDir: dir })).exitCode).toBe(0);
    expect((await svc(['config', 'get', 'url'], { configDir: dir })).stdout).toBe(`${sandbox.url}\n`);

    const unset = await svc(['config', 'get', 'oauthClientId'], { configDir: dir });
    expect(unset.exitCode).toBe(1);
    expect(unset.stdout).toBe('');
    expect((await svc(['config', 'set', 'oauthClientId', 'app-1', '--profile', 'second'], { configDir: dir })).exitCode).toBe(0);
    expect(readConfig(dir).profiles.second?.oauthClientId).toBe('app-1');

    const ca = join(dir, 'ca.pem');
    writeFileSync(ca, '-----BEGIN CERTIFICATE-----\n');
    expect((await svc(['config', 'set', 'caFile', ca], { configDir: dir })).exitCode).toBe(0);
    expect(readConfig(dir).profiles.default?.caFile).toBe(ca);

    const list = await svc(['config', 'list', '-o', 'json'], { configDir: dir });
    expect(list.exitCode).toBe(0);
    const rows = JSON.parse(list.stdout);
    expect(rows.map((r: { profile: string; active: boolean }) => [r.profile, r.active])).toEqual([
      ['default', true],
      ['second', false],
    ]);
    expect(list.stdout).not.toContain(sandbox.tokens.admin);
    expect(rows.map((r: { token: string }) => r.token)).toEqual([
      `****${sandbox.tokens.admin.slice(-4)}`,
      `****${sandbox.tokens.user.slice(-4)}`,
    ]);
    const tsv = await svc(['config', 'list'], { configDir: dir });
    expect(tsv.stdout.split('\n')[0]).toBe('profile\tactive\turl\ttokenType\ttoken\tcaFile\toauthClientId');
  });

  it('rejects unknown keys, token keys and bad values without touching the file', async () => {
    const dir = tempDir();
    await login(dir, `${sandbox.tokens.admin}\n`);
    const before = readFileSync(configFile(dir), 'utf8');
    const cases: Array<[string[], RegExp]> = [
      [['config', 'get', 'colour'], /unknown config key 'colour'/],
      [['config', 'get', 'token'], /svc auth login/],
      [['config', 'set', 'token', 'x'], /svc auth login/],
      [['config', 'set', 'url', 'ftp://x'], /only http and https/],
      [['config', 'set', 'tokenType', 'magic'], /token type must be one of/],
      [['config', 'set', 'caFile', '/no/such/ca.pem'], /no such file/],
      [['config', 'set', 'caFile', ''], /caFile must not be empty/],
      [['config', 'set', 'caFile', dir], /is a directory/],
      [['config', 'set', 'caFile', configFile(dir)], /not a PEM certificate/],
      [['config', 'set', 'url', ''], /url must not be empty/],
      [['config', 'set', 'url', 'gitlab.example.com'], /invalid URL/],
      [['config', 'set', 'tokenType', ' '], /tokenType must not be empty/],
      [['config', 'set', 'oauthClientId', ''], /oauthClientId must not be empty/],
      [['config', 'set', 'activeProfile', ''], /activeProfile must not be empty/],
      [['config', 'unset', 'activeProfile'], /cannot be cleared/],
      [['config', 'unset', 'url', '--profile', 'ghost'], /no profile named 'ghost'/],
      [['config', 'set', 'activeProfile', 'ghost'], /no profile named 'ghost'/],
    ];
    for (const [args, message] of cases) {
      const result = await svc(args, { configDir: dir });
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(message);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(readFileSync(configFile(dir), 'utf8')).toBe(before);
  });

  it('saves caFile as an absolute path, and unset clears one key and keeps the rest', async () => {
    const dir = tempDir();
    await login(dir, `${sandbox.tokens.admin}\n`);
    writeFileSync(join(dir, 'corp-ca.pem'), 'bundle\n-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
    const set = await svc(['config', 'set', 'caFile', 'corp-ca.pem'], { configDir: dir, cwd: dir });
    expect(set.exitCode, set.stderr).toBe(0);
    expect(readConfig(dir).profiles.default?.caFile).toBe(join(dir, 'corp-ca.pem'));
    const unset = await svc(['config', 'unset', 'caFile'], { configDir: dir });
    expect(unset.exitCode).toBe(0);
    expect(unset.stderr).toMatch(/cleared caFile in profile 'default'/);
    expect(readConfig(dir).profiles.default).toEqual({ url: sandbox.url, token: sandbox.tokens.admin, tokenType: 'private' });
    const twice = await svc(['config', 'unset', 'caFile'], { configDir: dir });
    expect(twice.exitCode).toBe(0);
    expect(twice.stderr).toMatch(/was not set/);
  });

  it('reports a config file of the wrong shape in one line, exit 2, and leaves it untouched', async () => {
    const shapes: Array<[string, RegExp]> = [
      ['[]', /expected a JSON object/],
      ['{"profiles": []}', /profiles must be an object/],
      ['{"profiles": {"default": "x"}}', /profile 'default' must be an object/],
      ['{"profiles": {"default": {"url": 5}}}', /profiles\.default\.url must be a string/],
      [
        '{"profiles": {"default": {"url": "http://x", "tokenType": "weird"}}}',
        /tokenType must be one of private, oauth, job \(got 'weird'\)/,
      ],
    ];
    for (const [text, message] of shapes) {
      const dir = tempDir();
      writeFileSync(configFile(dir), text, { mode: 0o600 });
      for (const args of [
        ['config', 'list'],
        ['config', 'set', 'url', sandbox.url],
        ['projects', 'get', '1'],
      ]) {
        const result = await svc(args, { configDir: dir });
        expect(result.exitCode, `${text}: ${args.join(' ')}`).toBe(2);
        expect(result.stderr.trim().split('\n')).toHaveLength(1);
        expect(result.stderr).toMatch(/cannot read the config file/);
        expect(result.stderr).toMatch(message);
      }
      expect(readFileSync(configFile(dir), 'utf8')).toBe(text);
    }
  });

  it('reports a corrupt config file in one line, exit 2, and leaves it untouched', async () => {
    const dir = tempDir();
    const garbage = '{"profiles": {"default": {"url": "http://x"'; // truncated JSON
    writeFileSync(configFile(dir), garbage, { mode: 0o600 });
    for (const args of [
      ['config', 'list'],
      ['config', 'set', 'url', sandbox.url],
      ['auth', 'status'],
    ]) {
      const result = await svc(args, { configDir: dir });
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(/config file/);
    }
    const login2 = await login(dir, `${sandbox.tokens.admin}\n`);
    expect(login2.exitCode).toBe(2);
    expect(readFileSync(configFile(dir), 'utf8')).toBe(garbage);
  });
});

describe('a profile token stays with its instance', () => {
  it('is not sent to another host named by SVC_URL', async () => {
    const other = await startTestSandbox({ projects: 2 });
    try {
      const dir = tempDir();
      expect((await login(dir, `${sandbox.tokens.admin}\n`)).exitCode).toBe(0);
      other.clearRequests();
      const result = await svc(['projects', 'get', '2'], { configDir: dir, env: { SVC_URL: other.url } });
      expect(result.exitCode, result.stderr).toBe(5);
      const seen = other.requests();
      expect(seen.length).toBeGreaterThan(0);
      for (const request of seen) {
        expect(request.headers['private-token']).toBeUndefined();
        expect(request.headers.authorization).toBeUndefined();
      }
      const same = await svc(['projects', 'get', '2', '--fields', 'id'], { configDir: dir, env: { SVC_URL: `${sandbox.url}/` } });
      expect(same.exitCode, same.stderr).toBe(0);
    } finally {
      await other.close();
    }
  });
});

describe('the login prompt on a real terminal (#9 item 2)', () => {
  it('keeps `token: ` on screen while the hidden token is typed, and leaves the terminal as it found it', async () => {
    const dir = tempDir();
    const typed = 'typed-at-the-prompt-0123456789';
    const term = spawnPty(['node', BIN, 'auth', 'login', '--url', sandbox.url, '--no-verify'], { env: isolatedEnv({ configDir: dir }) });
    await term.waitFor('token: ');
    term.write(typed.slice(0, 10));
    await new Promise((resolve) => setTimeout(resolve, 200));
    term.write(`${typed.slice(10)}\r`);
    const end = await term.exit();
    expect(end.exitCode).toBe(0);
    const afterPrompt = end.output.slice(end.output.indexOf('token: ') + 'token: '.length);
    // Nothing moved the cursor back over the prompt or erased it before the Enter's new line.
    expect(afterPrompt.startsWith('\r\n')).toBe(true);
    expect(end.output).not.toContain(typed);
    expect(end.mode).toMatchObject({ echo: true, canonical: true });
    expect(readConfig(dir).profiles.default?.token).toBe(typed);
  });

  it('Ctrl-C at the prompt exits 130, saves nothing and restores echo', async () => {
    const dir = tempDir();
    const term = spawnPty(['node', BIN, 'auth', 'login', '--url', sandbox.url, '--no-verify'], { env: isolatedEnv({ configDir: dir }) });
    await term.waitFor('token: ');
    term.write('abc\x03');
    const end = await term.exit();
    expect(end.exitCode).toBe(130);
    expect(end.output).toContain('svc: interrupted');
    expect(end.mode).toMatchObject({ echo: true, canonical: true });
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });
});
