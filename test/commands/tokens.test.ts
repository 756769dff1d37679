import { describe, expect, it } from 'vitest';
import { req } from '../sandbox/helpers.js';
import { startScriptedServer, json } from '../drills/scripted-server.js';
import { BIN, svc } from '../support/harness.js';
import { spawnPty } from '../support/pty.js';
import { onlyRequest, useSandbox } from './support.js';

const suite = useSandbox({ projects: 10 });
const DAY = 86_400_000;
const day = (offset: number) => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10);

async function api(path: string, token = suite.sandbox.tokens.admin) {
  return req(suite.sandbox.url, `/api/v4${path}`, { token });
}

async function createFor(user: string, name: string, extra: string[] = []): Promise<{ id: number; token: string }> {
  const r = await suite.run([
    'tokens',
    'create',
    '--user',
    user,
    '--name',
    name,
    '--scopes',
    'api',
    '--expires',
    day(30),
    '-o',
    'json',
    ...extra,
  ]);
  expect(r.exitCode).toBe(0);
  return JSON.parse(r.stdout);
}

describe('tokens list', () => {
  it("lists a user's personal tokens (active only with --state active), by username", async () => {
    const r = await suite.run(['tokens', 'list', '--user', 'jdoe', '--state', 'active', '-o', 'json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).map((t: { id: number; name: string }) => [t.id, t.name])).toEqual([
      [3, 'sandbox-user'],
      [4, 'sandbox-read-api'],
    ]);
    expect(onlyRequest(suite, 'GET', /^\/api\/v4\/personal_access_tokens$/).rawQuery).toBe('per_page=100&user_id=2&state=active');
  });

  it("lists a project's access tokens and a group's deploy tokens as the service answers them", async () => {
    const project = await suite.run(['tokens', 'list', '--project', 'acme/platform/' + suite.sandbox.state.project(2)!.path, '-o', 'json']);
    expect(JSON.parse(project.stdout)).toEqual((await api('/projects/2/access_tokens')).json);
    const deploy = await suite.run(['tokens', 'list', '--group', '3', '--kind', 'deploy', '--state', 'inactive', '-o', 'json']);
    expect(onlyRequest(suite, 'GET', /deploy_tokens$/).rawQuery).toBe('per_page=100&active=false');
    expect(JSON.parse(deploy.stdout)).toEqual((await api('/groups/3/deploy_tokens?active=false')).json);
  });

  it('needs exactly one owner, and a kind that owner has (exit 2)', async () => {
    const none = await suite.run(['tokens', 'list']);
    expect([none.exitCode, none.stderr]).toEqual([
      2,
      'svc: give one of --self, --user USER, --project PROJECT or --group GROUP (whose tokens)\n',
    ]);
    const kind = await suite.run(['tokens', 'list', '--user', 'jdoe', '--kind', 'deploy']);
    expect([kind.exitCode, kind.stderr]).toEqual([2, 'svc: --kind deploy does not go with --user (use personal or impersonation)\n']);
  });

  it("names the missing role when a group's tokens are refused to a non-owner (exit 4)", async () => {
    const r = await suite.run(['tokens', 'list', '--group', '4'], { token: suite.sandbox.tokens.user });
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([
      4,
      '',
      'svc: group access tokens of group 4: refused (401 from the service); this needs the owner role or administrator access\n',
    ]);
  });

  it("needs an administrator for another user's tokens (exit 4)", async () => {
    const r = await suite.run(['tokens', 'list', '--user', 'root'], { token: suite.sandbox.tokens.user });
    expect([r.exitCode, r.stderr]).toEqual([
      4,
      'svc: personal access tokens of user root: refused (401 from the service); this needs administrator access\n',
    ]);
  });
});

describe('tokens create', () => {
  it('prints the new value once on stdout; stderr says where it is, even with --debug, and never holds it', async () => {
    const r = await suite.run([
      'tokens',
      'create',
      '--user',
      'jdoe',
      '--name',
      'ci',
      '--scopes',
      'api,read_api',
      '--expires',
      day(40),
      '--debug',
      '-o',
      'json',
    ]);
    expect(r.exitCode).toBe(0);
    const made = JSON.parse(r.stdout);
    expect(made.token).toMatch(/^glpat-[A-Za-z0-9_-]{20}$/);
    expect(r.stderr.includes(made.token)).toBe(false);
    expect(r.stderr).toContain(
      `created personal access token ${made.id} 'ci' (personal access tokens of user jdoe); the token is on stdout, shown this once\n`,
    );
    expect(onlyRequest(suite, 'POST', /^\/api\/v4\/users\/2\/personal_access_tokens$/).bodyJson).toEqual({
      name: 'ci',
      scopes: ['api', 'read_api'],
      expires_at: day(40),
    });
    expect((await api('/user', made.token)).json.username).toBe('jdoe');
  });

  it('creates a project access token with an access level by name, shown in the table with its value', async () => {
    const r = await suite.run([
      'tokens',
      'create',
      '--project',
      '2',
      '--name',
      'bot',
      '--scopes',
      'read_api',
      '--expires',
      day(9),
      '--access',
      'developer',
    ]);
    expect(r.exitCode).toBe(0);
    const sent = onlyRequest(suite, 'POST', /^\/api\/v4\/projects\/2\/access_tokens$/);
    expect(sent.bodyJson).toEqual({ name: 'bot', scopes: ['read_api'], expires_at: day(9), access_level: 30 });
    const id = (await api('/projects/2/access_tokens?search=bot')).json[0].id;
    const token = /glpat-[A-Za-z0-9_-]{20}/.exec(r.stdout)![0];
    expect(r.stdout).toBe(`id\tname\tscopes\taccess_level\texpires_at\ttoken\n${id}\tbot\tread_api\t30\t${day(9)}\t${token}\n`);
  });

  it('refuses --access for personal tokens and a bad date before any request (exit 2)', async () => {
    const access = await suite.run([
      'tokens',
      'create',
      '--self',
      '--name',
      'x',
      '--scopes',
      'api',
      '--expires',
      day(1),
      '--access',
      'owner',
    ]);
    expect([access.exitCode, access.stderr, suite.requests().length]).toEqual([
      2,
      'svc: --access is for project and group access tokens\n',
      0,
    ]);
    const date = await suite.run(['tokens', 'create', '--self', '--name', 'x', '--scopes', 'api', '--expires', 'soon']);
    expect([date.exitCode, date.stderr]).toEqual([2, "svc: --expires 'soon': expected a date as YYYY-MM-DD\n"]);
    const impossible = await suite.run(['tokens', 'create', '--self', '--name', 'x', '--scopes', 'api', '--expires', '2027-02-30']);
    expect([impossible.exitCode, impossible.stderr]).toEqual([2, "svc: --expires '2027-02-30': no such date\n"]);
  });
});

describe('tokens rotate', () => {
  it('revokes the old token and prints the successor once on stdout', async () => {
    const made = await createFor('jdoe', 'rot');
    const r = await suite.run(['tokens', 'rotate', '--user', 'jdoe', String(made.id), '--expires', day(5), '-o', 'json']);
    expect(r.exitCode).toBe(0);
    const next = JSON.parse(r.stdout);
    expect([next.name, next.expires_at, r.stderr.includes(next.token)]).toEqual(['rot', day(5), false]);
    expect(r.stderr).toBe(
      `rotated personal access token ${made.id} (personal access tokens of user jdoe): it is revoked; its successor is ${next.id}, expiring ${day(5)}; the token is on stdout, shown this once\n`,
    );
    expect((await api('/user', made.token)).status).toBe(401);
    expect((await api('/user', next.token)).json.username).toBe('jdoe');
  });

  it('rotates the token in use with --self alone', async () => {
    const made = await createFor('jdoe', 'me');
    const r = await suite.run(['tokens', 'rotate', '--self', '-o', 'json'], { token: made.token });
    expect(r.exitCode).toBe(0);
    expect(onlyRequest(suite, 'POST', /rotate$/).rawPath).toBe('/api/v4/personal_access_tokens/self/rotate');
    expect((await api('/user', JSON.parse(r.stdout).token)).json.username).toBe('jdoe');
  });

  it("rotates a project's access token; the successor keeps its bot user and level", async () => {
    const made = (
      await req(suite.sandbox.url, '/api/v4/projects/2/access_tokens', {
        token: suite.sandbox.tokens.admin,
        method: 'POST',
        json: { name: 'ci-bot', scopes: ['api'], access_level: 20, expires_at: day(30) },
      })
    ).json;
    const r = await suite.run(['tokens', 'rotate', '--project', '2', String(made.id), '-o', 'json'], { token: suite.sandbox.tokens.user });
    expect(r.exitCode).toBe(0);
    const next = JSON.parse(r.stdout);
    expect([next.user_id, next.access_level, next.expires_at, r.stderr.includes(next.token)]).toEqual([made.user_id, 20, day(7), false]);
    expect((await api(`/projects/2/access_tokens/${made.id}`)).json.revoked).toBe(true);
  });

  it('refuses kinds the service cannot rotate (exit 2)', async () => {
    const r = await suite.run(['tokens', 'rotate', '--project', '2', '--kind', 'deploy', '1']);
    expect([r.exitCode, r.stderr]).toEqual([2, 'svc: the service cannot rotate deploy tokens: revoke the token and create another\n']);
  });
});

describe('tokens revoke', () => {
  it('needs --yes when stdin is not a terminal (exit 2, nothing revoked), and revokes with it', async () => {
    const made = await createFor('jdoe', 'gone');
    const refused = await suite.run(['tokens', 'revoke', '--user', 'jdoe', String(made.id)]);
    expect([refused.exitCode, refused.stderr]).toEqual([
      2,
      `svc: revoke personal access token ${made.id} (personal access tokens of user jdoe): pass --yes to confirm (stdin is not a terminal, so there is no one to ask)\n`,
    ]);
    expect((await api(`/personal_access_tokens/${made.id}`)).json.revoked).toBe(false);
    const done = await suite.run(['tokens', 'revoke', '--user', 'jdoe', String(made.id), '--yes']);
    expect([done.exitCode, done.stdout, done.stderr]).toEqual([
      0,
      '',
      `revoked personal access token ${made.id} (personal access tokens of user jdoe)\n`,
    ]);
    expect((await api(`/personal_access_tokens/${made.id}`)).json.revoked).toBe(true);
  });

  it('deletes a deploy token of a project', async () => {
    const made = (
      await req(suite.sandbox.url, '/api/v4/projects/2/deploy_tokens', {
        token: suite.sandbox.tokens.admin,
        method: 'POST',
        json: { name: 'pull', scopes: ['read_repository'] },
      })
    ).json;
    const r = await suite.run(['tokens', 'revoke', '--project', '2', '--kind', 'deploy', String(made.id), '--yes']);
    expect([r.exitCode, r.stderr]).toEqual([0, `revoked deploy token ${made.id} (deploy tokens of project 2)\n`]);
    expect(onlyRequest(suite, 'DELETE', /deploy_tokens/).rawPath).toBe(`/api/v4/projects/2/deploy_tokens/${made.id}`);
    expect((await api(`/projects/2/deploy_tokens/${made.id}`)).status).toBe(404);
  });

  it('asks on a terminal and revokes only on yes', async () => {
    const made = await createFor('jdoe', 'asked');
    const env = { SVC_URL: suite.sandbox.url, SVC_TOKEN: suite.sandbox.tokens.admin };
    const question = `revoke personal access token ${made.id} (personal access tokens of user jdoe)? [y/N] `;
    const declined = spawnPty(['node', BIN, 'tokens', 'revoke', '--user', 'jdoe', String(made.id)], { env });
    await declined.waitFor(question);
    declined.write('n\r');
    const no = await declined.exit();
    expect([no.exitCode, no.output]).toEqual([
      1,
      `${question}n\r\nsvc: revoke personal access token ${made.id} (personal access tokens of user jdoe): not confirmed, nothing was changed\r\n`,
    ]);
    const accepted = spawnPty(['node', BIN, 'tokens', 'revoke', '--user', 'jdoe', String(made.id)], { env });
    await accepted.waitFor(question);
    accepted.write('y\r');
    expect((await accepted.exit()).exitCode).toBe(0);
    expect((await api(`/personal_access_tokens/${made.id}`)).json.revoked).toBe(true);
  });
});

describe('a new token value never reaches an error', () => {
  it('fails with exit 1 when the answer has no token, and keeps a value sent where a record belongs out of every line', async () => {
    const leaked = 'glpat-LEAKEDLEAKEDLEAKED0';
    const server = await startScriptedServer();
    try {
      const noToken = server.add('no-token', json(201, { id: 9, name: 'ci', scopes: ['api'], expires_at: day(3), revoked: false }));
      const created = await svc(['tokens', 'create', '--user', '5', '--name', 'ci', '--scopes', 'api', '--expires', day(3)], {
        env: { SVC_URL: noToken, SVC_TOKEN: 'scripted-admin-token' },
      });
      expect([created.exitCode, created.stdout, created.stderr]).toEqual([
        1,
        '',
        "svc: created personal access token 9 'ci' (personal access tokens of user 5), but the service's answer carried no token value\n",
      ]);
      // The owner check reads the token first; the rotation then answers an array.
      const owned = json(200, { id: 9, name: 'ci', user_id: 5, scopes: ['api'], expires_at: day(3), revoked: false });
      const arrayAnswer = json(200, [{ id: 10, token: leaked }]);
      const array = server.add('array', (req, res, ctx) => (req.method === 'GET' ? owned : arrayAnswer)(req, res, ctx));
      const rotated = await svc(['tokens', 'rotate', '--user', '5', '9', '--debug'], {
        env: { SVC_URL: array, SVC_TOKEN: 'scripted-admin-token' },
        secrets: [leaked],
      });
      expect([rotated.exitCode, rotated.stdout]).toEqual([1, '']);
      expect(rotated.stderr).toContain(
        'svc: POST /personal_access_tokens/9/rotate returned a JSON array where a single record was expected\n',
      );
    } finally {
      await server.close();
    }
  });
});
