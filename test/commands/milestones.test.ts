import { describe, expect, it } from 'vitest';
import { useSandbox } from './support.js';

// `svc milestones` is one declaration (src/commands/milestones/index.ts) over the sandbox's milestones,
// which answer as the service's project_milestones.rb and group_milestones.rb
// (test/sandbox/conformance/milestones.test.ts).
describe('svc milestones', () => {
  const suite = useSandbox({ projects: 5 });
  const direct = async (path: string) =>
    (await fetch(`${suite.sandbox.url}/api/v4${path}`, { headers: { 'PRIVATE-TOKEN': suite.sandbox.tokens.admin } })).json();

  it('lists a project’s milestones exactly as the service answers, with its filters in the query', async () => {
    const listed = await suite.run(['milestones', 'list', '--project', '1', '--state', 'active', '--iids', '1,2', '-o', 'json']);
    expect(listed.exitCode).toBe(0);
    expect(suite.requests().map((r) => `${r.rawPath}?${r.rawQuery}`)).toEqual([
      '/api/v4/projects/1/milestones?state=active&iids[]=1&iids[]=2&per_page=100',
    ]);
    expect(JSON.parse(listed.stdout)).toEqual(await direct('/projects/1/milestones?state=active'));
    const table = await suite.run(['milestones', 'list', '--project', '1']);
    expect(table.stdout).toBe('id\tiid\ttitle\tstate\tstart_date\tdue_date\texpired\n1\t1\tv1.0\tactive\t\t\tfalse\n');
  });

  it('sends --title, --search and --include-ancestors as the service names them', async () => {
    const listed = await suite.run([
      'milestones',
      'list',
      '--project',
      '1',
      '--title',
      'v1.0',
      '--search',
      'v1',
      '--include-ancestors',
      '-o',
      'json',
      '--fields',
      'id,title',
    ]);
    expect([listed.exitCode, JSON.parse(listed.stdout)]).toEqual([0, [{ id: 1, title: 'v1.0' }]]);
    expect(suite.requests().map((r) => r.rawQuery)).toEqual(['title=v1.0&search=v1&include_ancestors=true&per_page=100']);
  });

  it('creates, updates, closes, activates and deletes a milestone, saying each on stderr', async () => {
    const created = await suite.run(
      ['milestones', 'create', '--project', '2', '--title', 'v2.0', '--start', '2026-01-05', '--due', '2026-03-31', '-o', 'json'],
      {},
    );
    const id = JSON.parse(created.stdout).id as number;
    expect(created.stderr).toBe(`created milestone v2.0 (id ${id}, iid 2)\n`);
    expect(JSON.parse(created.stdout)).toMatchObject({
      iid: 2,
      title: 'v2.0',
      start_date: '2026-01-05',
      due_date: '2026-03-31',
      state: 'active',
    });
    expect(suite.requests().map((r) => [r.method, r.rawPath])).toEqual([['POST', '/api/v4/projects/2/milestones']]);

    const updated = await suite.run(['milestones', 'update', String(id), '--project', '2', '--due', '2026-04-15', '-q']);
    expect(updated).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    const closed = await suite.run(['milestones', 'close', String(id), '--project', '2', '-o', 'json', '--fields', 'state,due_date']);
    expect([closed.exitCode, JSON.parse(closed.stdout), closed.stderr]).toEqual([
      0,
      { state: 'closed', due_date: '2026-04-15' },
      `closed milestone ${id}\n`,
    ]);
    expect(suite.requests().map((r) => [r.method, r.rawPath, r.body])).toEqual([
      ['PUT', `/api/v4/projects/2/milestones/${id}`, '{"state_event":"close"}'],
    ]);
    const active = await suite.run(['milestones', 'activate', String(id), '--project', '2', '-o', 'json', '--fields', 'state']);
    expect([active.exitCode, JSON.parse(active.stdout), active.stderr]).toEqual([0, { state: 'active' }, `activated milestone ${id}\n`]);

    const deleted = await suite.run(['milestones', 'delete', String(id), '--project', '2', '--yes']);
    expect(deleted).toEqual({ exitCode: 0, stdout: '', stderr: `deleted milestone ${id}\n` });
    const gone = await suite.run(['milestones', 'get', String(id), '--project', '2']);
    expect(gone).toEqual({ exitCode: 5, stdout: '', stderr: `svc: GET /projects/2/milestones/${id} failed: 404 Milestone Not Found\n` });
  });

  it('works on a group’s milestones the same way', async () => {
    const created = await suite.run(['milestones', 'create', '--group', 'acme', '--title', 'Q1', '-o', 'json', '--fields', 'iid,title']);
    expect(JSON.parse(created.stdout)).toEqual({ iid: 1, title: 'Q1' });
    const listed = await suite.run(['milestones', 'list', '--group', 'acme', '-o', 'json', '--fields', 'title']);
    expect(JSON.parse(listed.stdout)).toEqual([{ title: 'Q1' }]);
    expect(suite.requests().map((r) => r.rawPath)).toEqual(['/api/v4/groups/acme/milestones']);
  });

  it('gives the service’s refusals: a title taken, a due date before the start, a role too low', async () => {
    const taken = await suite.run(['milestones', 'create', '--project', '1', '--title', 'v1.0']);
    expect(taken).toEqual({
      exitCode: 6,
      stdout: '',
      stderr:
        'svc: POST /projects/1/milestones failed: 400 Bad Request: Failed to create milestone {:title=>["already being used for another group or project milestone."]}\n',
    });
    const early = await suite.run([
      'milestones',
      'create',
      '--project',
      '1',
      '--title',
      'x',
      '--start',
      '2026-02-01',
      '--due',
      '2026-01-01',
    ]);
    expect(early).toEqual({
      exitCode: 6,
      stdout: '',
      stderr:
        'svc: POST /projects/1/milestones failed: 400 Bad Request: Failed to create milestone {:due_date=>["must be greater than start date"]}\n',
    });
    const guest = await suite.run(['milestones', 'close', '1', '--project', '4'], { token: suite.sandbox.tokens.user });
    expect(guest).toEqual({
      exitCode: 4,
      stdout: '',
      stderr: 'svc: PUT /projects/4/milestones/1 failed: 403 Forbidden (this needs the planner role or administrator access)\n',
    });
  });

  it('refuses before any request: no owner, a bad date, bad iids, an update that changes nothing, a delete not confirmed', async () => {
    const cases: Array<[string[], string]> = [
      [['milestones', 'list'], 'svc: give --project P or --group G\n'],
      [['milestones', 'create', '--project', '1', '--title', 'x', '--due', '2026-02-30'], "svc: --due '2026-02-30': no such date\n"],
      [
        ['milestones', 'create', '--project', '1', '--title', 'x', '--start', 'soon'],
        "svc: --start 'soon': expected a date as YYYY-MM-DD\n",
      ],
      [
        ['milestones', 'list', '--project', '1', '--iids', '1,x'],
        "svc: error: option '--iids <list>' argument '1,x' is invalid. --iids takes whole numbers separated by commas\n",
      ],
      [['milestones', 'get', 'v1.0', '--project', '1'], "svc: invalid milestone 'v1.0': expected a positive whole number\n"],
      [
        ['milestones', 'update', '1', '--project', '1'],
        'svc: give at least one of --title, --description, --start, --due (what to change)\n',
      ],
      [
        ['milestones', 'delete', '1', '--project', '1'],
        'svc: Delete milestone 1: pass --yes to confirm (stdin is not a terminal, so there is no one to ask)\n',
      ],
    ];
    for (const [args, stderr] of cases) {
      expect(await suite.run(args)).toEqual({ exitCode: 2, stdout: '', stderr });
      expect(suite.requests()).toEqual([]);
    }
  });
});
