// Project approval rules (premium): the service's ee/lib/api/project_approval_rules.rb and
// helpers/project_approval_rules_helpers.rb (name and approvals_required required; reads need who may open a
// merge request, writes `admin_project`; `.find` → `404 Not found`; delete 204), services/approval_rules/
// create_service.rb (validation errors as `{"message":{…}}`), entities approval_rule.rb and
// project_approval_rule.rb, and the merge request's `approval_state` (ee/lib/api/merge_request_approvals.rb)
// built from them. The sandbox's choices are in src/sandbox/README.md, "Approval rules".
import { describe, expect, it } from 'vitest';
import { useSandbox } from './setup.js';

const c = useSandbox({ projects: 10 });
const post = (path: string, json: Record<string, unknown>, as: 'admin' | 'user' = 'admin') => c.call(path, { as, method: 'POST', json });

describe('project approval rules', () => {
  it('creates a rule naming users by id and by username and a group, and lists it as the service renders it', async () => {
    const created = await post(
      '/projects/1/approval_rules',
      { name: 'security', approvals_required: 2, user_ids: [1], usernames: ['jdoe'], group_ids: [3] },
      'user',
    );
    expect(created.status).toBe(201);
    expect(Object.keys(created.json)).toEqual([
      'id',
      'name',
      'rule_type',
      'report_type',
      'eligible_approvers',
      'approvals_required',
      'users',
      'groups',
      'contains_hidden_groups',
      'protected_branches',
      'applies_to_all_protected_branches',
    ]);
    expect(created.json).toMatchObject({ name: 'security', rule_type: 'regular', approvals_required: 2 });
    expect(created.json.users.map((u: { username: string }) => u.username)).toEqual(['root', 'jdoe']);
    expect(created.json.groups.map((g: { full_path: string }) => g.full_path)).toEqual(['globex']);
    const listed = await c.call('/projects/1/approval_rules', { as: 'user' });
    expect([listed.status, listed.headers['x-total'], listed.json]).toEqual([200, '1', [created.json]]);
  });

  it('refuses a taken name, a negative count, a protected branch the project lacks, missing fields, and a developer’s write', async () => {
    const taken = await post('/projects/1/approval_rules', { name: 'security', approvals_required: 1 });
    expect([taken.status, taken.json]).toEqual([400, { message: { name: ['has already been taken'] } }]);
    const negative = await post('/projects/1/approval_rules', { name: 'n', approvals_required: -1 });
    expect(negative.json).toEqual({ message: { approvals_required: ['must be greater than or equal to 0'] } });
    const branch = await post('/projects/1/approval_rules', { name: 'b', approvals_required: 1, protected_branch_ids: [999999] });
    expect([branch.status, branch.json]).toEqual([400, { message: { protected_branches: ['is invalid'] } }]);
    const missing = await post('/projects/1/approval_rules', {});
    expect([missing.status, missing.json]).toEqual([400, { error: 'name is missing, approvals_required is missing' }]);
    const member = await post('/projects/3/members', { user_id: 5, access_level: 30 });
    const developer = member.json.username as string;
    const read = await c.call('/projects/3/approval_rules', { as: 'admin', headers: { Sudo: developer } });
    expect(read.status).toBe(200);
    const write = await c.call('/projects/3/approval_rules', {
      as: 'admin',
      method: 'POST',
      headers: { Sudo: developer },
      json: { name: 'x', approvals_required: 1 },
    });
    expect([write.status, write.json]).toEqual([403, { message: '403 Forbidden' }]);
  });

  it('updates and deletes a rule; an unknown one is 404 Not found', async () => {
    const rule = (await post('/projects/2/approval_rules', { name: 'qa', approvals_required: 1 })).json;
    expect(rule.rule_type).toBe('any_approver');
    const updated = await c.call(`/projects/2/approval_rules/${rule.id}`, {
      as: 'admin',
      method: 'PUT',
      json: { approvals_required: 3, usernames: 'jdoe' },
    });
    expect([updated.status, updated.json.approvals_required, updated.json.rule_type]).toEqual([200, 3, 'regular']);
    expect((await c.call(`/projects/2/approval_rules/${rule.id}`, { as: 'admin', method: 'DELETE' })).status).toBe(204);
    const gone = await c.call(`/projects/2/approval_rules/${rule.id}`, { as: 'admin' });
    expect([gone.status, gone.json]).toEqual([404, { message: '404 Not found' }]);
  });
});

describe('GET /projects/:id/merge_requests/:iid/approval_state', () => {
  it('shows the project’s rules that cover the target branch, counting only eligible approvals', async () => {
    const mr = (await post('/projects/4/merge_requests', { source_branch: 'feature/login', target_branch: 'main', title: 'rules' }))
      .json as { iid: number };
    expect(mr.iid).toBeGreaterThan(0);
    const main = (await c.call('/projects/4/protected_branches/main', { as: 'admin' })).json.id as number;
    const release = (await c.call('/projects/4/protected_branches/release%2F*', { as: 'admin' })).json.id as number;
    await post('/projects/4/approval_rules', { name: 'leads', approvals_required: 1, usernames: ['jdoe'], protected_branch_ids: [main] });
    await post('/projects/4/approval_rules', { name: 'release only', approvals_required: 1, protected_branch_ids: [release] });
    expect((await post(`/projects/4/merge_requests/${mr.iid}/approve`, {})).status).toBe(201);
    const state = await c.call(`/projects/4/merge_requests/${mr.iid}/approval_state`, { as: 'admin' });
    expect(state.status).toBe(200);
    expect(
      state.json.rules.map((r: { name: string; approved: boolean; approved_by: unknown[] }) => [r.name, r.approved, r.approved_by.length]),
    ).toEqual([['leads', false, 0]]);
  });
});
