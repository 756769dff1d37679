// The Projects section of #14 checked flag by flag against the sandbox (the rest is in projects*.test.ts).
import { describe, expect, it } from 'vitest';
import { onlyRequest, useSandbox } from './support.js';

const suite = useSandbox({ projects: 10 });
const state = () => suite.sandbox.state;

describe('projects update, flag by flag', () => {
  it('sends --name, --path, --visibility and --default-branch under the service names', async () => {
    const args = ['--name', 'Renamed', '--path', 'renamed', '--visibility', 'private', '--default-branch', 'develop'];
    const result = await suite.run(['projects', 'update', '7', ...args, '-o', 'json', '--fields', 'name,path,visibility,default_branch']);
    expect(result).toEqual({
      exitCode: 0,
      stdout: `${JSON.stringify({ name: 'Renamed', path: 'renamed', visibility: 'private', default_branch: 'develop' }, null, 2)}\n`,
      stderr: 'updated project 7: name, path, visibility, default_branch\n',
    });
    expect(onlyRequest(suite, 'PUT', /projects\/7$/).bodyJson).toEqual({
      name: 'Renamed',
      path: 'renamed',
      visibility: 'private',
      default_branch: 'develop',
    });
  });

  it('refuses a default branch that does not exist with the service message (exit 6)', async () => {
    expect(await suite.run(['projects', 'update', '7', '--default-branch', 'no-such-branch'])).toEqual({
      exitCode: 6,
      stdout: '',
      stderr: 'svc: PUT /projects/7 failed: 400 Bad Request: Could not set the default branch\n',
    });
  });

  it('clears the topics with --topics ""', async () => {
    const result = await suite.run(['projects', 'update', '3', '--topics', '', '-o', 'json', '--fields', 'topics']);
    expect(result).toEqual({ exitCode: 0, stdout: `${JSON.stringify({ topics: [] }, null, 2)}\n`, stderr: 'updated project 3: topics\n' });
    expect(onlyRequest(suite, 'PUT', /projects\/3$/).bodyJson).toEqual({ topics: [] });
  });

  it('refuses an update without any change before any request (exit 2), as every other update does', async () => {
    expect(await suite.run(['projects', 'update', '3'])).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: 'svc: give at least one of --name, --path, --description, --visibility, --default-branch, --topics (what to change)\n',
    });
    expect(suite.requests()).toEqual([]);
  });
});

describe('projects fork --namespace --name --path', () => {
  it('takes the namespace by id (looked up for its path), with a name and path of its own', async () => {
    const globex = state().group('globex')!;
    const result = await suite.run([
      'projects',
      'fork',
      '9',
      '--namespace',
      String(globex.id),
      '--name',
      'Kernel fork',
      '--path',
      'kernel-fork',
      '-o',
      'json',
      '--fields',
      'path_with_namespace,name',
    ]);
    expect(result).toEqual({
      exitCode: 0,
      stdout: `${JSON.stringify({ path_with_namespace: 'globex/kernel-fork', name: 'Kernel fork' }, null, 2)}\n`,
      stderr: 'forked project 9 into globex\n',
    });
    expect(suite.requests().map((r) => `${r.method} ${r.rawPath}`)).toEqual([
      `GET /api/v4/namespaces/${globex.id}`,
      'POST /api/v4/projects/9/fork',
    ]);
    expect(onlyRequest(suite, 'POST', /fork/).bodyJson).toEqual({ namespace_path: 'globex', name: 'Kernel fork', path: 'kernel-fork' });
  });

  it("says where the fork went: the caller's own namespace without --namespace", async () => {
    const result = await suite.run(['projects', 'fork', '1', '-o', 'json', '--fields', 'path_with_namespace'], {
      token: suite.sandbox.tokens.user,
    });
    const path = suite.sandbox.state.project(1)!.path;
    expect(result).toEqual({
      exitCode: 0,
      stdout: `${JSON.stringify({ path_with_namespace: `jdoe/${path}` }, null, 2)}\n`,
      stderr: 'forked project 1 into your namespace\n',
    });
  });

  it('reports an unknown target namespace (exit 5)', async () => {
    expect(await suite.run(['projects', 'fork', '9', '--namespace', 'no-such/group'])).toEqual({
      exitCode: 5,
      stdout: '',
      stderr: 'svc: POST /projects/9/fork failed: 404 Target Namespace Not Found\n',
    });
  });
});

describe('projects share, unshare and restore: the errors', () => {
  it('refuses an --expires that is not a date before any request (exit 2)', async () => {
    expect(await suite.run(['projects', 'share', '7', '--group', '4', '--access', 'developer', '--expires', '31-12-2026'])).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: "svc: --expires '31-12-2026': expected a date as YYYY-MM-DD\n",
    });
    expect(suite.requests()).toEqual([]);
  });

  it('names the maintainer role when a user who is not one unshares (exit 4)', async () => {
    const result = await suite.run(['projects', 'unshare', '4', '1'], { token: suite.sandbox.tokens.user });
    expect(result).toEqual({
      exitCode: 4,
      stdout: '',
      stderr: 'svc: DELETE /projects/4/share/1 failed: 403 Forbidden (this needs the maintainer role or administrator access)\n',
    });
  });

  it('reports a restore of a project not scheduled for deletion (exit 6)', async () => {
    expect(await suite.run(['projects', 'restore', '8'])).toEqual({
      exitCode: 6,
      stdout: '',
      stderr: 'svc: POST /projects/8/restore failed: 400 Bad Request: Project has not been marked for deletion\n',
    });
  });
});

describe('a token without the api scope', () => {
  it('is told the scope it lacks, not a role it may well have (exit 4)', async () => {
    const result = await suite.run(['projects', 'update', '7', '--description', 'x'], { token: suite.sandbox.tokens.readApi });
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toBe(
      "svc: PUT /projects/7 failed: 403 Forbidden: insufficient_scope: The request requires higher privileges than provided by the access token. (the token lacks the scope 'api')\n",
    );
  });
});
