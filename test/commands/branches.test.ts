import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer } from '../drills/scripted-server.js';
import { BIN, isolatedEnv, svc } from '../support/harness.js';
import { spawnPty } from '../support/pty.js';
import { sandboxEnv } from '../support/sandbox.js';
import { onlyRequest, useSandbox } from './support.js';

const suite = useSandbox({ projects: 10 });
const SEEDED = ['develop', 'fail/broken-build', 'feature/login', 'feature/search-v2', 'fix/issue-1', 'main'];
const names = (stdout: string) => (JSON.parse(stdout) as Array<{ name: string }>).map((b) => b.name);

describe('branches list', () => {
  it('lists the branches by name, with --search and --regex sent as the service takes them', async () => {
    const all = await suite.run(['branches', 'list', '2', '-o', 'json']);
    expect(all.exitCode).toBe(0);
    expect(names(all.stdout)).toEqual(SEEDED);

    const prefix = await suite.run(['branches', 'list', '2', '--search', '^feature/', '-o', 'json']);
    expect(names(prefix.stdout)).toEqual(['feature/login', 'feature/search-v2']);
    expect(onlyRequest(suite, 'GET', /branches/).rawQuery).toBe('search=%5Efeature%2F&per_page=100');

    const regex = await suite.run(['branches', 'list', '2', '--regex', '^f[a-z]+/[a-z]+-\\d$', '-o', 'json']);
    expect(names(regex.stdout)).toEqual(['fix/issue-1']);

    const recent = await suite.run(['branches', 'list', '2', '--sort', 'updated_desc', '--limit', '2', '-o', 'json']);
    expect(names(recent.stdout)).toEqual(['main', 'fix/issue-1']);
    expect(onlyRequest(suite, 'GET', /branches/).rawQuery).toBe('sort=updated_desc&per_page=2');

    const table = await suite.run(['branches', 'list', '2', '--search', 'main']);
    const commit = JSON.parse((await suite.run(['branches', 'get', '2', 'main', '-o', 'json'])).stdout) as {
      commit: { short_id: string; committed_date: string };
    };
    expect(table.stdout).toBe(
      `name\tdefault\tprotected\tcommit.short_id\tcommit.committed_date\nmain\ttrue\ttrue\t${commit.commit.short_id}\t${commit.commit.committed_date}\n`,
    );
  });
});

describe('branches create, get and delete', () => {
  it('creates, shows and deletes a branch whose name holds /, % and +, encoded once in the path', async () => {
    const name = 'feature/100%+fix';
    const created = await suite.run(['branches', 'create', '2', name, '--ref', 'v1.0.0', '-o', 'json']);
    expect(created.exitCode).toBe(0);
    const branch = JSON.parse(created.stdout) as { name: string; commit: { id: string; short_id: string }; protected: boolean };
    const tag = JSON.parse((await suite.run(['tags', 'get', '2', 'v1.0.0', '-o', 'json'])).stdout) as { commit: { id: string } };
    expect([branch.name, branch.commit.id, branch.protected]).toEqual([name, tag.commit.id, false]);
    expect(created.stderr).toBe(`created branch ${name} of project 2 at ${branch.commit.short_id}\n`);

    await suite.run(['branches', 'create', '2', name, '--ref', 'v1.0.0', '-o', 'json']);
    const post = onlyRequest(suite, 'POST', /branches/);
    expect([post.rawPath, post.body]).toEqual(['/api/v4/projects/2/repository/branches', JSON.stringify({ branch: name, ref: 'v1.0.0' })]);

    const shown = await suite.run(['branches', 'get', '2', name, '--fields', 'name,default']);
    expect(shown.stdout).toBe(`name\tdefault\n${name}\tfalse\n`);
    expect(onlyRequest(suite, 'GET', /branches/).rawPath).toBe('/api/v4/projects/2/repository/branches/feature%2F100%25%2Bfix');

    const deleted = await suite.run(['branches', 'delete', '2', name, '--yes']);
    expect(deleted).toMatchObject({ exitCode: 0, stdout: '', stderr: `deleted branch ${name} of project 2\n` });
    expect(onlyRequest(suite, 'DELETE', /branches/).rawPath).toBe('/api/v4/projects/2/repository/branches/feature%2F100%25%2Bfix');

    const gone = await suite.run(['branches', 'get', '2', name]);
    expect([gone.exitCode, gone.stderr]).toEqual([
      5,
      'svc: GET /projects/2/repository/branches/feature%2F100%25%2Bfix failed: 404 Branch Not Found\n',
    ]);
  });

  it("passes on the service's refusals: a taken name, an unknown ref, a name git refuses", async () => {
    const taken = await suite.run(['branches', 'create', '2', 'develop', '--ref', 'main']);
    expect([taken.exitCode, taken.stderr]).toEqual([
      6,
      'svc: POST /projects/2/repository/branches failed: 400 Bad Request: Branch already exists\n',
    ]);
    const badRef = await suite.run(['branches', 'create', '2', 'topic', '--ref', 'no/such']);
    expect([badRef.exitCode, badRef.stderr]).toEqual([
      6,
      'svc: POST /projects/2/repository/branches failed: 400 Bad Request: Invalid reference name: no/such\n',
    ]);
    const spaced = await suite.run(['branches', 'create', '2', 'my branch', '--ref', 'main']);
    expect([spaced.exitCode, spaced.stderr]).toEqual([
      6,
      'svc: POST /projects/2/repository/branches failed: 400 Bad Request: Branch name is invalid\n',
    ]);
    const spacedGet = await suite.run(['branches', 'get', '2', 'my branch']);
    expect([spacedGet.exitCode, spacedGet.stderr]).toEqual([
      6,
      'svc: GET /projects/2/repository/branches/my%20branch failed: 400 Bad Request: The branch refname is invalid\n',
    ]);
    const noRef = await suite.run(['branches', 'create', '2', 'topic']);
    expect([noRef.exitCode, noRef.stderr]).toEqual([2, "svc: error: required option '--ref <ref>' not specified\n"]);
  });

  it('refuses to delete the default branch and a protected one (405), and names the role on 403', async () => {
    const head = await suite.run(['branches', 'delete', '2', 'main', '--yes']);
    expect([head.exitCode, head.stderr]).toEqual([
      6,
      'svc: DELETE /projects/2/repository/branches/main failed: 405 Method Not Allowed: Cannot remove HEAD branch\n',
    ]);

    expect((await suite.run(['branches', 'create', '2', 'release/1.0', '--ref', 'main', '-q'])).exitCode).toBe(0);
    const isProtected = await suite.run(['branches', 'get', '2', 'release/1.0', '--fields', 'protected']);
    expect(isProtected.stdout).toBe('protected\ntrue\n');
    const guarded = await suite.run(['branches', 'delete', '2', 'release/1.0', '--yes']);
    expect([guarded.exitCode, guarded.stderr]).toEqual([
      6,
      'svc: DELETE /projects/2/repository/branches/release%2F1.0 failed: 405 Method Not Allowed: Protected branch cant be removed\n',
    ]);

    // jdoe can read public project 4 but is not a member of it.
    const forbidden = await suite.run(['branches', 'create', '4', 'topic', '--ref', 'main'], { token: suite.sandbox.tokens.user });
    expect([forbidden.exitCode, forbidden.stderr]).toEqual([
      4,
      'svc: POST /projects/4/repository/branches failed: 403 Forbidden (this needs the developer role or administrator access)\n',
    ]);
  });

  it('asks before deleting: without --yes and without a terminal nothing is sent (exit 2)', async () => {
    const result = await suite.run(['branches', 'delete', '2', 'develop']);
    expect([result.exitCode, result.stderr]).toEqual([
      2,
      'svc: Delete branch develop of project 2: pass --yes to confirm (stdin is not a terminal, so there is no one to ask)\n',
    ]);
    expect(suite.requests().filter((r) => r.method === 'DELETE')).toEqual([]);
  });
});

describe('branches delete on a terminal', () => {
  const terminalEnv = () => ({ ...isolatedEnv({ env: sandboxEnv(suite.sandbox) }), TERM: 'xterm-256color', NO_COLOR: '1' });

  it('asks first: anything but y leaves the branch (exit 1), y deletes it', async () => {
    suite.sandbox.clearRequests();
    const refused = spawnPty(['node', BIN, 'branches', 'delete', '5', 'fix/issue-1'], { env: terminalEnv() });
    await refused.waitFor('? [y/N] ');
    refused.write('n\r');
    const no = await refused.exit();
    expect([no.exitCode, no.output]).toEqual([
      1,
      'Delete branch fix/issue-1 of project 5? [y/N] n\r\nsvc: Delete branch fix/issue-1 of project 5: not confirmed, nothing was changed\r\n',
    ]);
    expect(suite.requests().filter((r) => r.method === 'DELETE')).toEqual([]);

    const agreed = spawnPty(['node', BIN, 'branches', 'delete', '5', 'fix/issue-1'], { env: terminalEnv() });
    await agreed.waitFor('? [y/N] ');
    agreed.write('y\r');
    const yes = await agreed.exit();
    expect([yes.exitCode, yes.output]).toEqual([
      0,
      'Delete branch fix/issue-1 of project 5? [y/N] y\r\ndeleted branch fix/issue-1 of project 5\r\n',
    ]);
    expect(
      suite
        .requests()
        .filter((r) => r.method === 'DELETE')
        .map((r) => r.rawPath),
    ).toEqual(['/api/v4/projects/5/repository/branches/fix%2Fissue-1']);
  });
});

describe('branches commits on an instance without the branch commits route', () => {
  const commits = [{ id: 'b'.repeat(40), short_id: 'bbbbbbbb', created_at: '2026-01-02T00:00:00Z', author_name: 'Jane Doe', title: 'Two' }];
  let server: Awaited<ReturnType<typeof startScriptedServer>>;
  const seen: string[] = [];
  beforeAll(async () => {
    server = await startScriptedServer();
  });
  afterAll(() => server.close());

  const run = (url: string, args: string[]) =>
    svc(args, { env: isolatedEnv({ env: { SVC_URL: url, SVC_TOKEN: 'glpat-scripted-token-000' } }) });

  it('falls back to /repository/commits?ref_name= when the route does not exist (Grape 404 {"error":…})', async () => {
    const url = server.add('fallback', (req, res) => {
      seen.push(req.url ?? '');
      if (req.url?.includes('/repository/commits?')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(commits));
        return;
      }
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"404 Not Found"}');
    });
    const result = await run(url, ['branches', 'commits', 'acme/api', 'feature/a+b', '-o', 'json']);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(commits);
    expect(seen).toEqual([
      '/fallback/api/v4/projects/acme%2Fapi/branches/feature%2Fa%2Bb/commits?per_page=100',
      '/fallback/api/v4/projects/acme%2Fapi/repository/commits?per_page=100&ref_name=feature%2Fa%2Bb',
    ]);
  });

  it('does not fall back when the route answers that the branch does not exist', async () => {
    const url = server.add('no-branch', (_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"404 Branch Not Found"}');
    });
    const result = await run(url, ['branches', 'commits', 'acme/api', 'gone']);
    expect([result.exitCode, result.stderr]).toEqual([
      5,
      'svc: GET /projects/acme%2Fapi/branches/gone/commits failed: 404 Branch Not Found\n',
    ]);
    expect(server.hits('no-branch')).toBe(1);
  });
});
