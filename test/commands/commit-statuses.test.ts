import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { svc } from '../support/harness.js';
import { useSandbox } from './support.js';

// `svc commits status`, `svc commits statuses` and `svc repo compare` over the sandbox, which answers
// as the service's commit_statuses.rb and repositories.rb (test/sandbox/conformance/commit-statuses.test.ts).
describe('svc commits status / statuses, svc repo compare', () => {
  const suite = useSandbox({ projects: 4 });
  const direct = async (path: string) =>
    (await fetch(`${suite.sandbox.url}/api/v4${path}`, { headers: { 'PRIVATE-TOKEN': suite.sandbox.tokens.admin } })).json();
  const head = async (ref: string) => ((await direct(`/projects/1/repository/commits/${encodeURIComponent(ref)}`)) as { id: string }).id;

  it('sets a status and moves it on, saying each on stderr; lists the newest of each name, all with --all-statuses', async () => {
    const sha = await head('main');
    const short = sha.slice(0, 8);
    const started = await suite.run([
      'commits',
      'status',
      '1',
      sha,
      '--state',
      'running',
      '--name',
      'lint',
      '--target-url',
      'https://ci.example.com/7',
      '-o',
      'json',
    ]);
    expect(started.exitCode).toBe(0);
    expect(started.stderr).toBe(`lint on ${short} is running\n`);
    expect(JSON.parse(started.stdout)).toMatchObject({
      sha,
      ref: 'main',
      status: 'running',
      name: 'lint',
      target_url: 'https://ci.example.com/7',
    });
    expect(suite.requests().map((r) => [r.method, r.rawPath, r.body])).toEqual([
      [
        'POST',
        `/api/v4/projects/1/statuses/${sha}`,
        JSON.stringify({ state: 'running', name: 'lint', target_url: 'https://ci.example.com/7' }),
      ],
    ]);
    const done = await suite.run([
      'commits',
      'status',
      '1',
      sha,
      '--state',
      'success',
      '--name',
      'lint',
      '-o',
      'json',
      '--fields',
      'id,status',
    ]);
    expect(done).toEqual({
      exitCode: 0,
      stdout: `${JSON.stringify({ id: JSON.parse(started.stdout).id, status: 'success' }, null, 2)}\n`,
      stderr: `lint on ${short} is success\n`,
    });
    await suite.run(['commits', 'status', '1', sha, '--state', 'failed', '--name', 'lint', '-q']);

    const latest = await suite.run(['commits', 'statuses', '1', sha, '-o', 'json', '--fields', 'name,status']);
    expect(JSON.parse(latest.stdout)).toEqual([{ name: 'lint', status: 'failed' }]);
    expect(suite.requests().map((r) => `${r.rawPath}?${r.rawQuery}`)).toEqual([
      `/api/v4/projects/1/repository/commits/${sha}/statuses?per_page=100`,
    ]);
    const all = await suite.run(['commits', 'statuses', '1', sha, '--all-statuses', '--name', 'lint', '-o', 'json', '--fields', 'status']);
    expect(JSON.parse(all.stdout)).toEqual([{ status: 'success' }, { status: 'failed' }]);
    expect(suite.requests().map((r) => r.rawQuery)).toEqual(['name=lint&all=true&per_page=100']);
  });

  it('takes a branch for the commit; gives the service’s refusals: a move it has no way for (6), an unknown commit (5), a role too low (4)', async () => {
    const sha = await head('develop');
    expect((await suite.run(['commits', 'status', '1', sha, '--state', 'running', '-q'])).exitCode).toBe(0);
    const twice = await suite.run(['commits', 'status', '1', sha, '--state', 'running']);
    expect(twice).toEqual({
      exitCode: 6,
      stdout: '',
      stderr: `svc: POST /projects/1/statuses/${sha} failed: 400 Bad Request: Cannot transition status via :run from :running\n`,
    });
    const byBranch = await suite.run(['commits', 'status', '1', 'fix/issue-1', '--state', 'pending', '-o', 'json', '--fields', 'sha,ref']);
    expect(JSON.parse(byBranch.stdout)).toEqual({ sha: await head('fix/issue-1'), ref: 'fix/issue-1' });
    const unknown = await suite.run(['commits', 'status', '1', 'deadbeefdeadbeef', '--state', 'pending']);
    expect(unknown).toEqual({
      exitCode: 5,
      stdout: '',
      stderr: 'svc: POST /projects/1/statuses/deadbeefdeadbeef failed: 404 Commit Not Found\n',
    });
    const p4 = ((await direct('/projects/4/repository/commits/main')) as { id: string }).id;
    const guest = await suite.run(['commits', 'status', '4', p4, '--state', 'pending'], { token: suite.sandbox.tokens.user });
    expect(guest).toEqual({
      exitCode: 4,
      stdout: '',
      stderr: `svc: POST /projects/4/statuses/${p4} failed: 403 Forbidden (this needs the developer role or administrator access)\n`,
    });
  });

  it('refuses before any request: no --state, a state the service has not, an empty --name', async () => {
    const cases: Array<[string[], string]> = [
      [['commits', 'status', '1', 'abc1234'], "svc: error: required option '--state <state>' not specified\n"],
      [
        ['commits', 'status', '1', 'abc1234', '--state', 'done'],
        "svc: error: option '--state <state>' argument 'done' is invalid. Allowed choices are pending, running, success, failed, canceled.\n",
      ],
      [['commits', 'status', '1', 'abc1234', '--state', 'pending', '--name', ''], 'svc: --name must not be empty\n'],
    ];
    for (const [args, stderr] of cases) {
      expect(await suite.run(args)).toEqual({ exitCode: 2, stdout: '', stderr });
      expect(suite.requests()).toEqual([]);
    }
  });

  it('compares two refs: a row per commit then per file, the whole answer with -o json, --straight sent', async () => {
    const table = await suite.run(['repo', 'compare', '1', 'main', 'feature/login']);
    expect(table.exitCode).toBe(0);
    expect(suite.requests().map((r) => `${r.rawPath}?${r.rawQuery}`)).toEqual([
      '/api/v4/projects/1/repository/compare?from=main&to=feature%2Flogin',
    ]);
    const commits = (await direct('/projects/1/repository/commits?ref_name=feature%2Flogin&per_page=3')) as Array<{
      short_id: string;
      title: string;
    }>;
    expect(table.stdout).toBe(
      `kind\titem\n${[...commits]
        .reverse()
        .map((c) => `commit\t${c.short_id} ${c.title}\n`)
        .join('')}added\tsrc/app/login.ts\n`,
    );
    expect(table.stderr).toBe('3 commits, 1 file changed\n');

    const json = await suite.run(['repo', 'compare', '1', 'feature/login', 'main', '--straight', '-o', 'json']);
    expect(suite.requests().map((r) => r.rawQuery)).toEqual(['from=feature%2Flogin&to=main&straight=true']);
    expect(JSON.parse(json.stdout)).toEqual(await direct('/projects/1/repository/compare?from=feature%2Flogin&to=main&straight=true'));

    const missing = await suite.run(['repo', 'compare', '1', 'main', 'nope']);
    expect(missing).toEqual({ exitCode: 5, stdout: '', stderr: 'svc: GET /projects/1/repository/compare failed: 404 Ref Not Found\n' });
  });

  it('warns when the service stopped comparing early, and shows a title with control characters as escapes', async () => {
    // The sandbox never times out a comparison; a bare server answering as the service would stands in.
    const seen: string[] = [];
    const body = {
      commit: null,
      commits: [{ short_id: 'abcdef12', title: 'fix\u001b[2Jit' }],
      diffs: [],
      compare_timeout: true,
      compare_same_ref: false,
      web_url: 'http://127.0.0.1/x',
    };
    const server = createServer((request, response) => {
      seen.push(`${request.method} ${request.url}`);
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const result = await svc(['repo', 'compare', '7', 'v1', 'v2'], { env: { SVC_URL: url, SVC_TOKEN: 'x'.repeat(20) } });
      expect(result).toMatchObject({
        exitCode: 0,
        stdout: 'kind\titem\ncommit\tabcdef12 fix\\e[2Jit\n',
        stderr: 'warning: the service stopped comparing early (compare_timeout): the lists may be short\n1 commit, 0 files changed\n',
      });
      expect(seen).toEqual(['GET /api/v4/projects/7/repository/compare?from=v1&to=v2']);
    } finally {
      server.close();
    }
  });
});
