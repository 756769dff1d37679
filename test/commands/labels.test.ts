import { describe, expect, it } from 'vitest';
import { useSandbox } from './support.js';

// `svc labels` is one declaration (src/commands/labels/index.ts) over the sandbox's labels, which
// answer as the service's lib/api/labels.rb and group_labels.rb (test/sandbox/conformance/labels.test.ts).
describe('svc labels', () => {
  const suite = useSandbox({ projects: 5 });
  const direct = async (path: string) =>
    (await fetch(`${suite.sandbox.url}/api/v4${path}`, { headers: { 'PRIVATE-TOKEN': suite.sandbox.tokens.admin } })).json();

  it('lists a project’s labels with their counts, and a group’s, exactly as the service answers', async () => {
    const project = await suite.run(['labels', 'list', '--project', '1', '--with-counts', '-o', 'json']);
    expect(project.exitCode).toBe(0);
    expect(suite.requests().map((r) => `${r.rawPath}?${r.rawQuery}`)).toEqual(['/api/v4/projects/1/labels?with_counts=true&per_page=100']);
    expect(JSON.parse(project.stdout)).toEqual(await direct('/projects/1/labels?with_counts=true&per_page=100'));
    const group = await suite.run(['labels', 'list', '--group', 'acme', '-o', 'json', '--fields', 'name']);
    expect(JSON.parse(group.stdout)).toEqual([{ name: 'needs-review' }, { name: 'security' }]);
  });

  it('creates, renames, and deletes a label, saying each on stderr', async () => {
    const created = await suite.run(
      ['labels', 'create', '--project', '2', '--name', 'needs-docs', '--color', '#428BCA', '--description', 'Docs', '-o', 'json'],
      {},
    );
    expect(created.stderr).toBe('created label needs-docs (#428BCA)\n');
    expect(JSON.parse(created.stdout)).toMatchObject({ name: 'needs-docs', color: '#428BCA', description: 'Docs', is_project_label: true });
    expect(suite.requests().map((r) => [r.method, r.rawPath])).toEqual([['POST', '/api/v4/projects/2/labels']]);

    const renamed = await suite.run(['labels', 'update', 'needs-docs', '--project', '2', '--new-name', 'docs', '--priority', '2', '-q']);
    expect(renamed).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(suite.requests().map((r) => [r.method, r.rawPath])).toEqual([['PUT', '/api/v4/projects/2/labels/needs-docs']]);

    const deleted = await suite.run(['labels', 'delete', 'docs', '--project', '2', '--yes']);
    expect(deleted).toEqual({ exitCode: 0, stdout: '', stderr: 'deleted label docs\n' });
    const gone = await suite.run(['labels', 'get', 'docs', '--project', '2']);
    expect(gone).toEqual({ exitCode: 5, stdout: '', stderr: 'svc: GET /projects/2/labels/docs failed: 404 Label Not Found\n' });
  });

  it('gives the service’s refusals: a name taken, a colour that is none, a role too low', async () => {
    const taken = await suite.run(['labels', 'create', '--project', '1', '--name', 'bug', '--color', 'red']);
    expect(taken).toEqual({ exitCode: 6, stdout: '', stderr: 'svc: POST /projects/1/labels failed: 409 Conflict: Label already exists\n' });
    const colour = await suite.run(['labels', 'create', '--project', '1', '--name', 'x', '--color', 'nope']);
    expect(colour).toEqual({
      exitCode: 6,
      stdout: '',
      stderr: 'svc: POST /projects/1/labels failed: 400 Bad Request: color: must be a valid color code\n',
    });
    const guest = await suite.run(['labels', 'create', '--project', '4', '--name', 'x', '--color', 'red'], {
      token: suite.sandbox.tokens.user,
    });
    expect(guest).toEqual({
      exitCode: 4,
      stdout: '',
      stderr: 'svc: POST /projects/4/labels failed: 403 Forbidden (this needs the planner role or administrator access)\n',
    });
  });

  it('refuses before any request: no owner, two owners, an update that changes nothing, a delete not confirmed', async () => {
    const cases: Array<[string[], string]> = [
      [['labels', 'list'], 'svc: give --project P or --group G\n'],
      [
        ['labels', 'list', '--project', '1', '--group', 'acme'],
        "svc: error: option '--project <project>' cannot be used with option '--group <group>'\n",
      ],
      [
        ['labels', 'update', 'bug', '--project', '1'],
        'svc: give at least one of --new-name, --color, --description, --priority (what to change)\n',
      ],
      [
        ['labels', 'delete', 'bug', '--project', '1'],
        'svc: Delete label bug: pass --yes to confirm (stdin is not a terminal, so there is no one to ask)\n',
      ],
    ];
    for (const [args, stderr] of cases) {
      expect(await suite.run(args)).toEqual({ exitCode: 2, stdout: '', stderr });
      expect(suite.requests()).toEqual([]);
    }
  });
});
