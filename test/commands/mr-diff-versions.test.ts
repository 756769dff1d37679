// svc mr diff reads the merge request's versions as the service's clients do: the list (newest first),
// then the newest version or the one --version numbers as the web UI does.
import { describe, expect, it } from 'vitest';
import { apiCaller, onlyRequest, useSandbox } from './support.js';

const suite = useSandbox({ projects: 4 });
const asJdoe = () => ({ token: suite.sandbox.tokens.user });

const api = apiCaller(suite, (sandbox) => sandbox.tokens.user);

const LOGIN_FILE =
  'diff --git a/src/app/login.ts b/src/app/login.ts\nnew file mode 100644\n--- /dev/null\n+++ b/src/app/login.ts\n' +
  '@@ -0,0 +1,3 @@\n+export function login(): boolean {\n+  return true;\n+}\n';

describe('svc mr diff from versions', () => {
  it('asks for the newest version (a page of one), then reads it', async () => {
    const r = await suite.run(['mr', 'diff', '1', '2']);
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([0, LOGIN_FILE, '']);
    const [list, one] = suite.requests();
    expect([list!.rawPath, list!.rawQuery]).toEqual(['/api/v4/projects/1/merge_requests/2/versions', 'per_page=1']);
    expect(suite.requests().length).toBe(2);
    const [newest] = await api('GET', '/projects/1/merge_requests/2/versions');
    expect(one!.rawPath).toBe(`/api/v4/projects/1/merge_requests/2/versions/${newest.id}`);
  });

  it('after a push the newest version has it; --version 1 is the diff as first opened', async () => {
    const fork = await api('POST', '/projects/1/fork', { name: 'diff-versions', path: 'diff-versions' });
    await api('POST', `/projects/${fork.id}/merge_requests`, { title: 'Login', source_branch: 'feature/login', target_branch: 'main' });
    const first = await suite.run(['mr', 'diff', String(fork.id), '1'], asJdoe());
    expect([first.exitCode, first.stdout]).toEqual([0, LOGIN_FILE]);
    await api('POST', `/projects/${fork.id}/repository/files/NOTES.md`, {
      branch: 'feature/login',
      content: 'one\n',
      commit_message: 'Notes',
    });
    const notes = 'diff --git a/NOTES.md b/NOTES.md\nnew file mode 100644\n--- /dev/null\n+++ b/NOTES.md\n@@ -0,0 +1,1 @@\n+one\n';
    const newest = await suite.run(['mr', 'diff', String(fork.id), '1'], asJdoe());
    expect([newest.exitCode, newest.stdout]).toEqual([0, notes + LOGIN_FILE]);
    const old = await suite.run(['mr', 'diff', String(fork.id), '1', '--version', '1'], asJdoe());
    expect([old.exitCode, old.stdout]).toEqual([0, LOGIN_FILE]);
    expect(onlyRequest(suite, 'GET', /versions$/).rawQuery).toBe('per_page=100');
    const latest = await suite.run(['mr', 'diff', String(fork.id), '1', '--version', '2'], asJdoe());
    expect(latest.stdout).toBe(notes + LOGIN_FILE);
    const missing = await suite.run(['mr', 'diff', String(fork.id), '1', '--version', '3'], asJdoe());
    expect([missing.exitCode, missing.stdout, missing.stderr]).toEqual([5, '', 'svc: !1 has 2 versions; there is no version 3\n']);
  });

  it('an unknown merge request: exit 5 with the iid hint; --version 0 is a usage error', async () => {
    const r = await suite.run(['mr', 'diff', '1', '99']);
    expect([r.exitCode, r.stderr]).toEqual([
      5,
      "svc: GET /projects/1/merge_requests/99/versions failed: 404 Not found (the path takes the merge request's iid, its number within the project, not the global id; is !99 right?)\n",
    ]);
    const zero = await suite.run(['mr', 'diff', '1', '2', '--version', '0']);
    expect([zero.exitCode, zero.stderr]).toEqual([2, "svc: --version must be a whole number, at least 1 (got '0')\n"]);
    expect(suite.requests()).toEqual([]);
  });

  it("-o json|ndjson print the version's diffs as the service answers; other output options are usage errors", async () => {
    const [newest] = await api('GET', '/projects/1/merge_requests/2/versions');
    const { diffs } = await api('GET', `/projects/1/merge_requests/2/versions/${newest.id}`);
    suite.requests();
    const json = await suite.run(['mr', 'diff', '1', '2', '-o', 'json']);
    expect([json.exitCode, JSON.parse(json.stdout), json.stderr]).toEqual([0, diffs, '']);
    const ndjson = await suite.run(['mr', 'diff', '1', '2', '-o', 'ndjson', '--fields', 'new_path']);
    expect(ndjson).toEqual({ exitCode: 0, stdout: '{"new_path":"src/app/login.ts"}\n', stderr: '' });
    suite.requests();
    const tsv = await suite.run(['mr', 'diff', '1', '2', '-o', 'tsv']);
    expect(tsv).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: 'svc: mr diff prints a unified diff or, with -o json|ndjson, the diffs the service answers; -o tsv has no form for it\n',
    });
    const fields = await suite.run(['mr', 'diff', '1', '2', '--fields', 'new_path']);
    expect(fields).toEqual({ exitCode: 2, stdout: '', stderr: 'svc: --fields applies to mr diff only with -o json|ndjson\n' });
    expect(suite.requests()).toEqual([]);
  });
});
