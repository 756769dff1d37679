import { describe, expect, it } from 'vitest';
import { req } from '../sandbox/helpers.js';
import { useSandbox } from './support.js';

const suite = useSandbox({ projects: 10 });
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

async function tokenOf(userId: number, name: string): Promise<{ id: number; token: string }> {
  const r = await req(suite.sandbox.url, `/api/v4/users/${userId}/personal_access_tokens`, {
    token: suite.sandbox.tokens.admin,
    method: 'POST',
    json: { name, scopes: ['api'], expires_at: day(30) },
  });
  return r.json;
}

async function revoked(id: number): Promise<boolean> {
  return (await req(suite.sandbox.url, `/api/v4/personal_access_tokens/${id}`, { token: suite.sandbox.tokens.admin })).json.revoked;
}

describe("a personal token is changed only under its owner's name", () => {
  it("refuses to revoke another user's token named with --user (exit 5, nothing revoked)", async () => {
    const jdoes = await tokenOf(2, 'not-roots');
    const r = await suite.run(['tokens', 'revoke', '--user', 'root', String(jdoes.id), '--yes']);
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([
      5,
      '',
      `svc: personal access token ${jdoes.id} is not among the personal access tokens of user root (it is user 2's); nothing was changed\n`,
    ]);
    expect(suite.requests().map((q) => `${q.method} ${q.rawPath}`)).toEqual([
      'GET /api/v4/users',
      `GET /api/v4/personal_access_tokens/${jdoes.id}`,
    ]);
    expect(await revoked(jdoes.id)).toBe(false);
  });

  it("refuses to rotate another user's token named with --self (exit 5, nothing rotated)", async () => {
    const jdoes = await tokenOf(2, 'not-mine');
    const r = await suite.run(['tokens', 'rotate', '--self', String(jdoes.id)]);
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([
      5,
      '',
      `svc: personal access token ${jdoes.id} is not among the personal access tokens of root (it is user 2's); nothing was changed\n`,
    ]);
    expect(await revoked(jdoes.id)).toBe(false);
  });

  it("revokes the user's own token named with --user after checking whose it is", async () => {
    const jdoes = await tokenOf(2, 'hers');
    const r = await suite.run(['tokens', 'revoke', '--user', 'jdoe', String(jdoes.id), '--yes']);
    expect([r.exitCode, r.stderr]).toEqual([0, `revoked personal access token ${jdoes.id} (personal access tokens of user jdoe)\n`]);
    expect(await revoked(jdoes.id)).toBe(true);
  });
});

describe('a token without the scope is not told it lacks a role', () => {
  it('names the missing scope, not the maintainer role, when a read_api token creates a project token (exit 4)', async () => {
    const r = await suite.run(['tokens', 'create', '--project', '2', '--name', 'x', '--scopes', 'api', '--expires', day(30)], {
      token: suite.sandbox.tokens.readApi,
    });
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([
      4,
      '',
      "svc: POST /projects/2/access_tokens failed: 403 Forbidden: insufficient_scope: The request requires higher privileges than provided by the access token. (the token lacks the scope 'api')\n",
    ]);
  });
});

describe('a new deploy token', () => {
  it('is shown with the username that goes with it, which git and registries ask for', async () => {
    const r = await suite.run([
      'tokens',
      'create',
      '--project',
      '2',
      '--kind',
      'deploy',
      '--name',
      'pull',
      '--scopes',
      'read_repository',
      '--expires',
      day(30),
    ]);
    expect(r.exitCode).toBe(0);
    const [header, row] = r.stdout.trimEnd().split('\n');
    const made = (await req(suite.sandbox.url, '/api/v4/projects/2/deploy_tokens', { token: suite.sandbox.tokens.admin })).json.find(
      (t: { name: string }) => t.name === 'pull',
    );
    expect(header).toBe('id\tname\tusername\tscopes\texpires_at\ttoken');
    expect(row).toBe(`${made.id}\tpull\tgitlab+deploy-token-${made.id}\tread_repository\t${made.expires_at}\t${row!.split('\t')[5]}`);
    expect(row!.split('\t')[5]).toMatch(/^gldt-[\w-]{20}$/);
  });
});

describe('tokens list --user with an id no user has', () => {
  it('says there is no such user (exit 5)', async () => {
    const r = await suite.run(['tokens', 'list', '--user', '99999']);
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([5, '', 'svc: no user with the id 99999\n']);
  });
});
