import { describe, expect, it } from 'vitest';
import { addMember, useSandbox } from './support.js';

// `svc approval-rules` (a declaration) and `svc mr approval-state` over the sandbox's approval rules, which
// answer as the service's ee project_approval_rules.rb (test/sandbox/conformance/approval-rules.test.ts).
describe('svc approval-rules', () => {
  const suite = useSandbox({ projects: 5 });

  it('creates a rule with users by name and id and a group by path (looked up), and lists it', async () => {
    const created = await suite.run([
      'approval-rules',
      'create',
      '1',
      '--name',
      'security',
      '--approvals-required',
      '2',
      '--users',
      'jdoe,1',
      '--groups',
      'globex',
      '-o',
      'json',
      '--fields',
      'name,rule_type',
    ]);
    expect(created.exitCode).toBe(0);
    expect(created.stderr).toMatch(/^created approval rule \d+ \(security\)\n$/);
    expect(JSON.parse(created.stdout)).toEqual({ name: 'security', rule_type: 'regular' });
    const requests = suite.requests().map((r) => [r.method, r.rawPath, r.bodyJson ?? null]);
    expect(requests.slice(0, 3).sort()).toEqual([
      ['GET', '/api/v4/groups/globex', null],
      ['GET', '/api/v4/users', null],
      ['GET', '/api/v4/users/1', null],
    ]);
    expect(requests.slice(3)).toEqual([
      ['POST', '/api/v4/projects/1/approval_rules', { name: 'security', approvals_required: 2, user_ids: [2, 1], group_ids: [3] }],
    ]);
    const listed = await suite.run(['approval-rules', 'list', '1', '-o', 'tsv']);
    expect(listed.stdout).toBe('id\tname\tapprovals_required\tusers\tgroups\tprotected_branches\n1\tsecurity\t2\tjdoe,root\tglobex\t-\n');
  });

  it('refuses an unknown username or id with exit 5 and sends no write', async () => {
    const cases: Array<[string, string]> = [
      ['nosuch', "svc: no user with username 'nosuch'\n"],
      ['99999,jdoe', 'svc: no user with the id 99999\n'],
    ];
    for (const [users, stderr] of cases) {
      for (const verb of [
        ['create', '1', '--name', 'z', '--approvals-required', '1'],
        ['update', '1', '1'],
      ]) {
        const result = await suite.run(['approval-rules', ...verb, '--users', users]);
        expect(result).toEqual({ exitCode: 5, stdout: '', stderr });
        expect(suite.requests().filter((r) => r.method !== 'GET')).toEqual([]);
      }
    }
  });

  it('updates and deletes; the service’s refusals are exit 6 and exit 4 naming the role', async () => {
    const updated = await suite.run(['approval-rules', 'update', '1', '1', '--approvals-required', '1', '-q']);
    expect(updated).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    const taken = await suite.run(['approval-rules', 'create', '1', '--name', 'security', '--approvals-required', '1']);
    expect(taken).toEqual({
      exitCode: 6,
      stdout: '',
      stderr: 'svc: POST /projects/1/approval_rules failed: 400 Bad Request: name: has already been taken\n',
    });
    const username = await addMember(suite, '/projects/3', 5, 20);
    const refused = await suite.run(['--sudo', username, 'approval-rules', 'list', '3']);
    expect(refused).toEqual({
      exitCode: 4,
      stdout: '',
      stderr: 'svc: GET /projects/3/approval_rules failed: 403 Forbidden (this needs the developer role or administrator access)\n',
    });
    const deleted = await suite.run(['approval-rules', 'delete', '1', '1', '--yes']);
    expect(deleted).toEqual({ exitCode: 0, stdout: '', stderr: 'deleted approval rule 1 of project 1\n' });
  });

  it('refuses before any request: a missing or negative count, an update that changes nothing, a delete not confirmed', async () => {
    const cases: Array<[string[], string]> = [
      [['approval-rules', 'create', '1', '--name', 'x'], "svc: error: required option '--approvals-required <n>' not specified\n"],
      [
        ['approval-rules', 'create', '1', '--name', 'x', '--approvals-required', '-1'],
        "svc: error: option '--approvals-required <n>' argument '-1' is invalid. --approvals-required must be at least 0\n",
      ],
      [
        ['approval-rules', 'update', '1', '7'],
        'svc: give at least one of --name, --approvals-required, --users, --groups, --protected-branch-ids (what to change)\n',
      ],
      [
        ['approval-rules', 'delete', '1', '7'],
        'svc: Delete approval rule 7 of project 1: pass --yes to confirm (stdin is not a terminal, so there is no one to ask)\n',
      ],
    ];
    for (const [args, stderr] of cases) {
      expect(await suite.run(args)).toEqual({ exitCode: 2, stdout: '', stderr });
      expect(suite.requests()).toEqual([]);
    }
  });
});

describe('svc mr approval-state', () => {
  const suite = useSandbox({ projects: 5 });

  it('shows one row per rule of the project that covers the target branch, met or not', async () => {
    const mr = await suite.run([
      'mr',
      'create',
      '2',
      '--source',
      'feature/login',
      '--target',
      'main',
      '--title',
      'rules',
      '-o',
      'json',
      '--fields',
      'iid',
    ]);
    const iid = String(JSON.parse(mr.stdout).iid);
    await suite.run(['approval-rules', 'create', '2', '--name', 'leads', '--approvals-required', '1', '--users', 'root', '-q']);
    await suite.run(['approval-rules', 'create', '2', '--name', 'anyone', '--approvals-required', '2', '-q']);
    expect((await suite.run(['mr', 'approve', '2', iid])).exitCode).toBe(0);
    const state = await suite.run(['mr', 'approval-state', '2', iid, '-o', 'tsv']);
    expect(state).toEqual({
      exitCode: 0,
      stdout:
        'id\tname\trule_type\tapprovals_required\tapproved_by\tapproved\n1\tleads\tregular\t1\troot\ttrue\n2\tanyone\tany_approver\t2\troot\tfalse\n',
      stderr: '',
    });
    expect(suite.requests().map((r) => r.rawPath)).toEqual([`/api/v4/projects/2/merge_requests/${iid}/approval_state`]);
  });
});
