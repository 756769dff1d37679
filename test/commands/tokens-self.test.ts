import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startScriptedServer } from '../drills/scripted-server.js';
import { req } from '../sandbox/helpers.js';
import { svc, tempDir } from '../support/harness.js';
import { useSandbox } from './support.js';

const suite = useSandbox({ projects: 2 });
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

async function jdoeToken(name: string): Promise<{ id: number; token: string }> {
  const r = await req(suite.sandbox.url, '/api/v4/users/2/personal_access_tokens', {
    token: suite.sandbox.tokens.admin,
    method: 'POST',
    json: { name, scopes: ['api'], expires_at: day(30) },
  });
  return r.json;
}

/** A config directory whose profile `work` (the active one) stores `token`. */
function configWith(token: string, url = suite.sandbox.url): string {
  const dir = tempDir();
  const profile = { url, token, tokenType: 'private' };
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ activeProfile: 'work', profiles: { work: profile } }), { mode: 0o600 });
  return dir;
}

function savedProfile(dir: string): Record<string, string> {
  return JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.work;
}

function rotatedLine(successor: { id: number }): string {
  return `rotated the token svc was using (personal access tokens of jdoe): it is revoked; its successor is ${successor.id}, expiring ${day(7)}; the token is on stdout, shown this once\n`;
}

describe('tokens rotate --self keeps the successor where the revoked token was', () => {
  it('saves the new token into the profile that stored the old one; the next command works with it', async () => {
    const old = await jdoeToken('from-profile');
    const dir = configWith(old.token);
    const r = await svc(['tokens', 'rotate', '--self', '-o', 'json'], { configDir: dir });
    expect(r.exitCode).toBe(0);
    const successor = JSON.parse(r.stdout) as { id: number; token: string };
    expect(r.stderr).toBe(`${rotatedLine(successor)}saved the new token to profile work\n`);
    expect(savedProfile(dir)).toEqual({ url: suite.sandbox.url, token: successor.token, tokenType: 'private' });
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
    const next = await svc(['tokens', 'list', '--self', '--state', 'active', '-o', 'json', '--fields', 'id'], { configDir: dir });
    expect([next.exitCode, next.stderr]).toEqual([0, '']);
    expect(JSON.parse(next.stdout)).toContainEqual({ id: successor.id });
  });

  it('says that a token from SVC_TOKEN or --token must be replaced there, and writes no config file', async () => {
    for (const where of ['SVC_TOKEN', '--token'] as const) {
      const old = await jdoeToken(`from-${where}`);
      const dir = tempDir();
      const given =
        where === 'SVC_TOKEN' ? { env: { SVC_URL: suite.sandbox.url, SVC_TOKEN: old.token } } : { env: { SVC_URL: suite.sandbox.url } };
      const args = where === '--token' ? ['--token', old.token] : [];
      const r = await svc([...args, 'tokens', 'rotate', '--self', '-o', 'json'], { ...given, configDir: dir });
      expect(r.exitCode).toBe(0);
      const successor = JSON.parse(r.stdout) as { id: number; token: string };
      expect(r.stderr).toBe(
        `${rotatedLine(successor)}warning: the token just revoked came from ${where}: replace it there with the new value printed on stdout\n`,
      );
      expect(existsSync(join(dir, 'config.json'))).toBe(false);
    }
  });

  it('also updates the profile when SVC_TOKEN held the token the profile stores', async () => {
    const old = await jdoeToken('both');
    const dir = configWith(old.token);
    const r = await svc(['tokens', 'rotate', '--self', '-o', 'json'], { configDir: dir, env: { SVC_TOKEN: old.token } });
    expect(r.exitCode).toBe(0);
    const successor = JSON.parse(r.stdout) as { id: number; token: string };
    expect(r.stderr).toBe(
      `${rotatedLine(successor)}saved the new token to profile work\nwarning: the token just revoked came from SVC_TOKEN: replace it there with the new value printed on stdout\n`,
    );
    expect(savedProfile(dir).token).toBe(successor.token);
  });

  it('leaves a profile that stores another token as it is', async () => {
    const old = await jdoeToken('env-only');
    const other = await jdoeToken('profile-only');
    const dir = configWith(other.token);
    const r = await svc(['tokens', 'rotate', '--self', '-o', 'json'], { configDir: dir, env: { SVC_TOKEN: old.token } });
    expect(r.exitCode).toBe(0);
    const successor = JSON.parse(r.stdout) as { id: number; token: string };
    expect(r.stderr).toBe(
      `${rotatedLine(successor)}warning: the token just revoked came from SVC_TOKEN: replace it there with the new value printed on stdout\n`,
    );
    expect(savedProfile(dir).token).toBe(other.token);
  });
});

describe('tokens rotate --self and a profile changed meanwhile', () => {
  let server: Awaited<ReturnType<typeof startScriptedServer>>;
  beforeAll(async () => {
    server = await startScriptedServer();
  });
  afterAll(() => server.close());

  it('does not overwrite a token another run saved into the profile during the rotation', async () => {
    const dir = tempDir();
    const url = server.add('changed', (request, res, ctx) => {
      if (request.url?.endsWith('/api/v4/user')) return json(200, { id: 7, username: 'me' })(request, res, ctx);
      // Another `svc auth login` saves a token while this rotation is on its way.
      writeFileSync(
        join(dir, 'config.json'),
        JSON.stringify({ activeProfile: 'work', profiles: { work: { url, token: 'saved-meanwhile-0123', tokenType: 'private' } } }),
        { mode: 0o600 },
      );
      json(200, { id: 9, name: 'me', scopes: ['api'], expires_at: day(7), token: 'successor-value-0123' })(request, res, ctx);
    });
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({ activeProfile: 'work', profiles: { work: { url, token: 'revoked-value-0123', tokenType: 'private' } } }),
      { mode: 0o600 },
    );
    const r = await svc(['tokens', 'rotate', '--self', '-o', 'json', '--fields', 'id'], { configDir: dir });
    expect(r).toEqual({
      exitCode: 0,
      stdout: '{\n  "id": 9\n}\n',
      stderr:
        `rotated the token svc was using (personal access tokens of me): it is revoked; its successor is 9, expiring ${day(7)}; the token is on stdout, shown this once\n` +
        'warning: profile work holds another token now; it was left as it is\n',
    });
    expect(savedProfile(dir).token).toBe('saved-meanwhile-0123');
  });
});
