// Merge request diff versions: lib/api/merge_request_diffs.rb (`authenticate!`; `find_merge_request_with_access`;
// the list is `merge_request_diffs.order_id_desc`, paginated; a single one is `.find(version_id)`, whose miss
// is RecordNotFound's `404 Not found`), lib/api/entities/merge_request_diff.rb and merge_request_diff_full.rb
// (`commits`, `diffs`). The sandbox's choices: src/sandbox/README.md, "Merge request versions".
import { describe, expect, it } from 'vitest';
import { useSandbox } from './setup.js';

const c = useSandbox({ projects: 4 });
const asUser = { as: 'user' as const };

describe('GET …/merge_requests/:iid/versions', () => {
  it('lists the versions newest first as MergeRequestDiff entities, paged', async () => {
    const r = await c.call('/projects/1/merge_requests/2/versions', asUser);
    expect([r.status, r.headers['x-total'], r.headers['x-page'], r.json.length]).toEqual([200, '1', '1', 1]);
    const mr = (await c.call('/projects/1/merge_requests/2', asUser)).json;
    const [v] = r.json;
    expect(Object.keys(v)).toEqual([
      'id',
      'head_commit_sha',
      'base_commit_sha',
      'start_commit_sha',
      'created_at',
      'merge_request_id',
      'state',
      'real_size',
      'patch_id_sha',
    ]);
    expect(v).toMatchObject({
      head_commit_sha: mr.sha,
      base_commit_sha: mr.diff_refs.base_sha,
      start_commit_sha: mr.diff_refs.start_sha,
      created_at: mr.created_at,
      merge_request_id: mr.id,
      state: 'collected',
      real_size: mr.changes_count,
    });
  });

  it('a single version adds its commits and diffs, the same diffs as …/diffs', async () => {
    const [v] = (await c.call('/projects/1/merge_requests/2/versions', asUser)).json;
    const r = await c.call(`/projects/1/merge_requests/2/versions/${v.id}`, asUser);
    expect(r.status).toBe(200);
    expect(r.json.diffs).toEqual((await c.call('/projects/1/merge_requests/2/diffs', asUser)).json);
    expect(r.json.commits[0].id).toBe(v.head_commit_sha);
    expect(r.json.commits.map((commit: { id: string }) => commit.id)).not.toContain(v.base_commit_sha);
  });

  it('404 Not found for an unknown version or merge request; 401 without a token', async () => {
    const version = await c.call('/projects/1/merge_requests/2/versions/1', asUser);
    expect([version.status, version.json]).toEqual([404, { message: '404 Not found' }]);
    const mr = await c.call('/projects/1/merge_requests/99/versions', asUser);
    expect([mr.status, mr.json]).toEqual([404, { message: '404 Not found' }]);
    const anonymous = await c.call('/projects/1/merge_requests/2/versions');
    expect([anonymous.status, anonymous.json]).toEqual([401, { message: '401 Unauthorized' }]);
  });
});
