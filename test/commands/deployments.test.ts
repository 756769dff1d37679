import { describe, expect, it } from 'vitest';
import { TestClock } from '../support/clock.js';
import { addMember, useSandbox } from './support.js';

// `svc deployments` over the sandbox's deployments, which answer as the service's lib/api/deployments.rb
// and, for approvals, ee/lib/ee/api/deployments.rb with its approval service
// (test/sandbox/conformance/environments.test.ts). Project 1's production is protected: deployment 3
// waits for one approval, deployment 2 went out already, deployment 1 is on staging.
const clock = new TestClock();
const suite = useSandbox({ projects: 5, clock: clock.now });
const sent = () => suite.requests().map((r) => `${r.method} ${r.rawPath}${r.rawQuery ? `?${r.rawQuery}` : ''}`);

describe('svc deployments', () => {
  it('lists by environment and status, and by update time, sending the service its own parameters', async () => {
    const blocked = await suite.run([
      'deployments',
      'list',
      '1',
      '--environment',
      'production',
      '--status',
      'blocked',
      '--fields',
      'id,status',
    ]);
    expect(blocked).toEqual({ exitCode: 0, stdout: 'id\tstatus\n3\tblocked\n', stderr: '' });
    expect(sent()).toEqual(['GET /api/v4/projects/1/deployments?environment=production&status=blocked&per_page=100']);
    const since = new Date(clock.now() - 6 * 86_400_000).toISOString();
    const recent = await suite.run([
      'deployments',
      'list',
      '1',
      '--updated-after',
      since,
      '--order-by',
      'updated_at',
      '--sort',
      'desc',
      '--fields',
      'id',
    ]);
    expect(recent.stdout).toBe('id\n3\n2\n1\n4\n');
    expect(sent()).toEqual([
      `GET /api/v4/projects/1/deployments?order_by=updated_at&sort=desc&updated_after=${encodeURIComponent(since)}&per_page=100`,
    ]);
    const one = await suite.run(['deployments', 'get', '1', '3', '--fields', 'environment.name,status,pending_approval_count']);
    expect(one.stdout).toBe('environment.name\tstatus\tpending_approval_count\nproduction\tblocked\t1\n');
  });

  it('says each refusal of the approval service as it says it, then approves and rejects', async () => {
    const state = suite.sandbox.state;
    const creator = state.user(state.project(1)!.creatorId)!.username;
    const approver = creator === 'jdoe' ? 'root' : 'jdoe';
    const refused = (message: string) => ({
      exitCode: 6,
      stdout: '',
      stderr: `svc: POST /projects/1/deployments/${message}\n`,
    });
    const staging = await suite.run(['deployments', 'approve', '1', '1', '--sudo', approver]);
    expect(staging).toEqual(refused('1/approval failed: 400 Bad Request: This environment is not protected.'));
    const own = await suite.run(['deployments', 'approve', '1', '3', '--sudo', creator]);
    expect(own).toEqual(
      refused(
        '3/approval failed: 400 Bad Request: You cannot approve your own deployment. This configuration can be adjusted in the protected environment settings.',
      ),
    );
    const done = await suite.run(['deployments', 'reject', '1', '2', '--sudo', approver]);
    expect(done).toEqual(refused('2/approval failed: 400 Bad Request: This deployment is not waiting for approvals.'));

    const approved = await suite.run(['deployments', 'approve', '1', '3', '--comment', 'checked on staging', '--sudo', approver]);
    expect(approved).toEqual({
      exitCode: 0,
      stdout: `status\tuser.username\tcomment\tcreated_at\napproved\t${approver}\tchecked on staging\t${new Date(clock.now()).toISOString()}\n`,
      stderr: 'approved deployment 3 of project 1\n',
    });
    expect(suite.requests().map((r) => [r.method, r.rawPath, r.bodyJson])).toEqual([
      ['POST', '/api/v4/projects/1/deployments/3/approval', { status: 'approved', comment: 'checked on staging' }],
    ]);
    const after = await suite.run(['deployments', 'get', '1', '3', '--fields', 'status,pending_approval_count']);
    expect(after.stdout).toBe('status\tpending_approval_count\ncreated\t0\n');
    const late = await suite.run(['deployments', 'reject', '1', '3', '--sudo', approver]);
    expect(late).toEqual(refused('3/approval failed: 400 Bad Request: This deployment is not waiting for approvals.'));
  });

  it('names the reporter role when the service refuses a guest the listing', async () => {
    const guest = await addMember(suite, '/projects/3', 8, 10);
    const r = await suite.run(['deployments', 'list', '3', '--sudo', guest]);
    expect(r).toEqual({
      exitCode: 4,
      stdout: '',
      stderr: 'svc: GET /projects/3/deployments failed: 403 Forbidden (this needs the reporter role or administrator access)\n',
    });
  });
});
