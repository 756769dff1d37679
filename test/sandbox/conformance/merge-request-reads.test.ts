// A single merge request read with `render_html` and `include_diverged_commits_count`
// (service-endpoints.md §2: "single `render_html`, `include_diverged_commits_count`"; gitlab-org/gitlab
// lib/api/entities/merge_request.rb `title_html`, `description_html`, `diverged_commits_count`), the EE
// approval state route (ee/lib/api/merge_request_approvals.rb `approval_state`; CE has none, §2 "router
// {"error":"404 Not Found"}"), and the seeded mergeable !1 (develop → main) with a real diff.
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../../src/sandbox/index.js';
import { req } from '../helpers.js';
import { useSandbox } from './setup.js';

const c = useSandbox({ projects: 10 });

describe('§2 single merge request reads', () => {
  it('render_html adds title_html and description_html; without it neither is there', async () => {
    const set = await c.call('/projects/1/merge_requests/1', { as: 'admin', method: 'PUT', json: { description: 'Uses <b> & more' } });
    expect(set.status).toBe(200);
    const r = await c.call('/projects/1/merge_requests/1?render_html=true', { as: 'user' });
    expect([r.json.title_html, r.json.description_html]).toEqual([
      r.json.title,
      '<p data-sourcepos="1:1-1:15" dir="auto">Uses &lt;b&gt; &amp; more</p>',
    ]);
    const plain = await c.call('/projects/1/merge_requests/1', { as: 'user' });
    expect(['title_html' in plain.json, 'description_html' in plain.json, 'diverged_commits_count' in plain.json]).toEqual([
      false,
      false,
      false,
    ]);
  });

  it('include_diverged_commits_count counts the target commits the source lacks', async () => {
    const r = await c.call('/projects/1/merge_requests/1?include_diverged_commits_count=true', { as: 'user' });
    const main = await c.call('/projects/1/repository/commits?ref_name=main&per_page=100', { as: 'user' });
    const develop = await c.call('/projects/1/repository/commits?ref_name=develop&per_page=100', { as: 'user' });
    const onDevelop = new Set((develop.json as Array<{ id: string }>).map((x) => x.id));
    const expected = (main.json as Array<{ id: string }>).filter((x) => !onDevelop.has(x.id)).length;
    expect(expected).toBeGreaterThan(0);
    expect(r.json.diverged_commits_count).toBe(expected);
  });

  it('the seeded mergeable !1 of projects 1 and 2 changes README.md between base and head', async () => {
    for (const pid of [1, 2]) {
      const mr = await c.call(`/projects/${pid}/merge_requests/1`, { as: 'user' });
      expect([pid, mr.json.source_branch, mr.json.detailed_merge_status]).toEqual([pid, 'develop', 'mergeable']);
      expect(mr.json.diff_refs.base_sha).not.toBe(mr.json.diff_refs.head_sha);
      const changes = await c.call(`/projects/${pid}/merge_requests/1/changes`, { as: 'user' });
      expect(changes.json.changes.map((x: { new_path: string }) => x.new_path)).toEqual(['README.md']);
      expect(changes.json.changes[0].diff).toMatch(/\n\+## develop\n\+\n\+Work in progress on develop\.\n$/);
      expect(mr.json.changes_count).toBe('1');
    }
  });
});

describe('§2 GET …/merge_requests/:iid/approval_state', () => {
  it('answers the rules the approvals count against, with who approved', async () => {
    const needs = await c.call('/projects/1/merge_requests/5/approval_state', { as: 'user' });
    expect(needs.status).toBe(200);
    expect(needs.json.approval_rules_overwritten).toBe(false);
    expect(
      needs.json.rules.map((r: Record<string, unknown>) => [r.name, r.rule_type, r.approvals_required, r.approved, r.approved_by]),
    ).toEqual([['All Members', 'any_approver', 1, false, []]]);
    const approve = await c.call('/projects/1/merge_requests/5/approve', { as: 'user', method: 'POST' });
    expect(approve.status).toBe(201);
    const after = await c.call('/projects/1/merge_requests/5/approval_state', { as: 'user' });
    expect([after.json.rules[0].approved, after.json.rules[0].approved_by.map((u: { username: string }) => u.username)]).toEqual([
      true,
      ['jdoe'],
    ]);
    const none = await c.call('/projects/1/merge_requests/1/approval_state', { as: 'user' });
    expect(none.json).toEqual({ approval_rules_overwritten: false, rules: [] });
  });

  it('is an EE route: the free tier answers the router 404, as /version says no -ee', async () => {
    const free = await startSandbox({ projects: 2, tier: 'free' });
    try {
      const version = await req(free.url, '/api/v4/version', { token: free.tokens.user });
      expect(version.json.version.endsWith('-ee')).toBe(false);
      const r = await req(free.url, '/api/v4/projects/1/merge_requests/1/approval_state', { token: free.tokens.user });
      expect([r.status, r.json]).toEqual([404, { error: '404 Not Found' }]);
    } finally {
      await free.close();
    }
  });
});
