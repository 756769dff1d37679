import { describe, expect, it } from 'vitest';
import { useSandbox } from './support.js';

// `svc protected-branches` and `svc protected-tags` are declarations (src/commands/protected-*/index.ts)
// over the sandbox's protected refs, which answer as the service's lib/api/protected_branches.rb and
// protected_tags.rb (test/sandbox/conformance/protected-refs.test.ts).
describe('svc protected-branches and protected-tags', () => {
  const suite = useSandbox({ projects: 5 });
  const calls = () => suite.requests().map((r) => [r.method, r.rawPath, r.body === '' ? null : JSON.parse(r.body)]);

  it('lists the rules with the levels by name, and reads a wildcard as typed', async () => {
    const list = await suite.run(['protected-branches', 'list', '1']);
    expect(list).toEqual({
      exitCode: 0,
      stdout:
        'name\tpush_access_levels\tmerge_access_levels\tallow_force_push\n' +
        'main\tmaintainer\tmaintainer\tfalse\n' +
        'release/*\tmaintainer\tmaintainer\tfalse\n',
      stderr: '',
    });
    const one = await suite.run(['protected-branches', 'get', '1', 'release/*', '--fields', 'id,name,push_access_levels.0.access_level']);
    expect(one).toEqual({ exitCode: 0, stdout: 'id\tname\tpush_access_levels.0.access_level\n12\trelease/*\t40\n', stderr: '' });
    expect(calls()).toEqual([['GET', '/api/v4/projects/1/protected_branches/release%2F%2A', null]]);
    const tags = await suite.run(['protected-tags', 'list', '1']);
    expect(tags).toEqual({ exitCode: 0, stdout: 'name\tcreate_access_levels\nv*\tmaintainer\n', stderr: '' });
  });

  it('protects a wildcard with levels by name or number, updates its switches, and unprotects it', async () => {
    const made = await suite.run(
      [
        'protected-branches',
        'protect',
        '2',
        'feature/*',
        '--push',
        'no-one',
        '--merge',
        '30',
        '--unprotect',
        'admin',
        '--allow-force-push',
      ],
      {},
    );
    expect(made).toEqual({
      exitCode: 0,
      stdout:
        // named as the listing names them; -o json keeps the service's numbers
        'id\tname\tpush_access_levels\tmerge_access_levels\tunprotect_access_levels\tallow_force_push\tcode_owner_approval_required\n' +
        '500000\tfeature/*\tno-one\tdeveloper\tadmin\ttrue\tfalse\n',
      stderr: 'protected branch feature/* of project 2\n',
    });
    expect(calls()).toEqual([
      [
        'POST',
        '/api/v4/projects/2/protected_branches',
        { name: 'feature/*', push_access_level: 0, merge_access_level: 30, unprotect_access_level: 60, allow_force_push: true },
      ],
    ]);
    const branch = await suite.run(['branches', 'get', '2', 'feature/login', '--fields', 'name,protected']);
    expect(branch.stdout).toBe('name\tprotected\nfeature/login\ttrue\n');

    const updated = await suite.run([
      'protected-branches',
      'update',
      '2',
      'feature/*',
      '--no-allow-force-push',
      '--code-owner-approval',
      '-q',
    ]);
    expect(updated).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(calls()).toEqual([
      ['PATCH', '/api/v4/projects/2/protected_branches/feature%2F%2A', { allow_force_push: false, code_owner_approval_required: true }],
    ]);

    const gone = await suite.run(['protected-branches', 'unprotect', '2', 'feature/*']);
    expect(gone).toEqual({ exitCode: 0, stdout: '', stderr: 'unprotected branch feature/* of project 2\n' });
    const missing = await suite.run(['protected-branches', 'get', '2', 'feature/*']);
    expect(missing).toEqual({
      exitCode: 5,
      stdout: '',
      stderr: 'svc: GET /projects/2/protected_branches/feature%2F%2A failed: 404 Not found\n',
    });
  });

  it('protects and unprotects a tag, and the tag listing follows', async () => {
    const made = await suite.run(['protected-tags', 'protect', '3', 'stable', '--create', 'developer', '-o', 'json']);
    expect([made.exitCode, made.stderr]).toEqual([0, 'protected tag stable of project 3\n']);
    expect(JSON.parse(made.stdout)).toEqual({
      name: 'stable',
      create_access_levels: [
        { id: 50000110, access_level: 30, access_level_description: 'Developers + Maintainers', user_id: null, group_id: null },
      ],
    });
    const gone = await suite.run(['protected-tags', 'unprotect', '3', 'v*']);
    expect(gone).toEqual({ exitCode: 0, stdout: '', stderr: 'unprotected tag v* of project 3\n' });
    const tag = await suite.run(['tags', 'get', '3', 'v1.0.0', '--fields', 'name,protected']);
    expect(tag.stdout).toBe('name\tprotected\nv1.0.0\tfalse\n');
  });

  it('gives the service’s refusals: a name already protected, a role too low', async () => {
    const taken = await suite.run(['protected-branches', 'protect', '1', 'main']);
    expect(taken).toEqual({
      exitCode: 6,
      stdout: '',
      stderr: "svc: POST /projects/1/protected_branches failed: 409 Conflict: Protected branch 'main' already exists\n",
    });
    const tagTaken = await suite.run(['protected-tags', 'protect', '1', 'v*']);
    expect(tagTaken).toEqual({
      exitCode: 6,
      stdout: '',
      stderr: "svc: POST /projects/1/protected_tags failed: 409 Conflict: Protected tag 'v*' already exists\n",
    });
    const user = { token: suite.sandbox.tokens.user };
    const read = await suite.run(['protected-branches', 'list', '4'], user);
    expect(read).toEqual({
      exitCode: 4,
      stdout: '',
      stderr: 'svc: GET /projects/4/protected_branches failed: 403 Forbidden (this needs the maintainer role or administrator access)\n',
    });
    const write = await suite.run(['protected-tags', 'protect', '4', 'x'], user);
    expect(write).toEqual({
      exitCode: 4,
      stdout: '',
      stderr: 'svc: POST /projects/4/protected_tags failed: 403 Forbidden (this needs the maintainer role or administrator access)\n',
    });
  });

  it('refuses before any request: a level that is none, an update that changes nothing, no name', async () => {
    const cases: Array<[string[], string]> = [
      [
        ['protected-branches', 'protect', '1', 'x', '--push', 'guest'],
        "svc: --push 'guest': expected one of no-one (0), developer (30), maintainer (40), admin (60)\n",
      ],
      [
        ['protected-tags', 'protect', '1', 'x', '--create', '50'],
        "svc: --create '50': expected one of no-one (0), developer (30), maintainer (40), admin (60)\n",
      ],
      [
        ['protected-branches', 'update', '1', 'main'],
        'svc: give at least one of --allow-force-push, --code-owner-approval (what to change)\n',
      ],
      [['protected-branches', 'get', '1'], "svc: error: missing required argument 'name'\n"],
    ];
    for (const [args, stderr] of cases) {
      expect(await suite.run(args)).toEqual({ exitCode: 2, stdout: '', stderr });
      expect(suite.requests()).toEqual([]);
    }
  });
});
