// A merge deletes the source branch when asked (gitlab-org/gitlab app/services/merge_requests/merge_service.rb
// `delete_source_branch?`: the merge's `should_remove_source_branch`, else the merge request's
// `force_remove_source_branch`, set by `remove_source_branch` on create or update; service-endpoints.md §2
// merge parameters). The tests merge seeded merge requests that are mergeable now (no preparation to wait for).
import { describe, expect, it } from 'vitest';
import { useSandbox } from './setup.js';

const c = useSandbox({ projects: 30 });
const call = (method: string, path: string, json?: unknown) => c.call(path, { as: 'admin', method, json });

interface Mr {
  project_id: number;
  iid: number;
  source_branch: string;
}

/** Mergeable seeded merge requests, one per project, taken in turn. */
let pool: Mr[] | null = null;
async function nextMergeable(): Promise<Mr> {
  if (!pool) {
    const r = await call('GET', '/merge_requests?scope=all&state=opened&per_page=100');
    const all = r.json as Array<Mr & { detailed_merge_status: string }>;
    const mergeable = all.filter((m) => m.detailed_merge_status === 'mergeable');
    pool = mergeable.filter((m, i) => mergeable.findIndex((o) => o.project_id === m.project_id) === i);
  }
  return pool.shift()!;
}

const branchNames = async (pid: number) =>
  (await call('GET', `/projects/${pid}/repository/branches`)).json.map((b: { name: string }) => b.name);
const merge = (m: Mr, json?: unknown) => call('PUT', `/projects/${m.project_id}/merge_requests/${m.iid}/merge`, json);

describe('§2 merge: should_remove_source_branch and remove_source_branch', () => {
  it('deletes the source branch after a merge with should_remove_source_branch=true', async () => {
    const m = await nextMergeable();
    expect(await branchNames(m.project_id)).toContain(m.source_branch);
    const r = await merge(m, { should_remove_source_branch: true });
    expect([r.status, r.json.state, r.json.should_remove_source_branch]).toEqual([200, 'merged', true]);
    expect(await branchNames(m.project_id)).not.toContain(m.source_branch);
    const gone = await call('GET', `/projects/${m.project_id}/repository/branches/${encodeURIComponent(m.source_branch)}`);
    expect([gone.status, gone.json]).toEqual([404, { message: '404 Branch Not Found' }]);
    const after = await call('GET', `/projects/${m.project_id}/merge_requests/${m.iid}`);
    expect([after.status, after.json.state, after.json.sha]).toEqual([200, 'merged', r.json.sha]);
  });

  it('deletes it when the merge request was set to remove_source_branch (create or update)', async () => {
    const m = await nextMergeable();
    const set = await call('PUT', `/projects/${m.project_id}/merge_requests/${m.iid}`, { remove_source_branch: true });
    expect([set.status, set.json.force_remove_source_branch]).toEqual([200, true]);
    expect((await merge(m)).status).toBe(200);
    expect(await branchNames(m.project_id)).not.toContain(m.source_branch);
  });

  it('keeps it without either, and when the merge says false', async () => {
    const plain = await nextMergeable();
    expect((await merge(plain)).status).toBe(200);
    expect(await branchNames(plain.project_id)).toContain(plain.source_branch);
    const refused = await nextMergeable();
    await call('PUT', `/projects/${refused.project_id}/merge_requests/${refused.iid}`, { remove_source_branch: true });
    expect((await merge(refused, { should_remove_source_branch: false })).status).toBe(200);
    expect(await branchNames(refused.project_id)).toContain(refused.source_branch);
  });
});
