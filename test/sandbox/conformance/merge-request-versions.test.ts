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

  it('takes a version when a merge request is opened and after each push to its source branch, not when read', async () => {
    const admin = { as: 'admin' as const };
    const post = async (path: string, json: Record<string, unknown>) => {
      const r = await c.call(path, { ...admin, method: 'POST', json });
      expect(r.status).toBe(201);
      return r.json;
    };
    const p = await post('/projects', { name: 'versioned', initialize_with_readme: true });
    await post(`/projects/${p.id}/repository/branches`, { branch: 'topic', ref: 'main' });
    const a = await post(`/projects/${p.id}/repository/commits`, {
      branch: 'topic',
      commit_message: 'A',
      actions: [{ action: 'create', file_path: 'a.txt', content: 'a\n' }],
    });
    const mr = await post(`/projects/${p.id}/merge_requests`, { title: 'Topic', source_branch: 'topic', target_branch: 'main' });
    const b = await post(`/projects/${p.id}/repository/files/b.txt`, { branch: 'topic', content: 'b\n', commit_message: 'B' });
    const bHead = (await c.call(`/projects/${p.id}/repository/branches/topic`, admin)).json.commit.id;
    // One request, two files: one version with both.
    const cd = await post(`/projects/${p.id}/repository/commits`, {
      branch: 'topic',
      commit_message: 'C and D',
      actions: [
        { action: 'create', file_path: 'c.txt', content: 'c\n' },
        { action: 'create', file_path: 'd.txt', content: 'd\n' },
      ],
    });
    expect(b.branch).toBe('topic');
    const first = await c.call(`/projects/${p.id}/merge_requests/${mr.iid}/versions`, admin);
    const seen = (first.json as Array<Record<string, unknown>>).map((v) => [v.head_commit_sha, v.real_size, v.merge_request_id]);
    expect(seen).toEqual([
      [cd.id, '4', mr.id],
      [bHead, '2', mr.id],
      [a.id, '1', mr.id],
    ]);
    const [newest, middle, oldest] = first.json as Array<{ id: number; created_at: string }>;
    expect([middle!.id - oldest!.id, newest!.id - middle!.id, oldest!.created_at]).toEqual([1, 1, mr.created_at]);
    const again = await c.call(`/projects/${p.id}/merge_requests/${mr.iid}/versions`, admin);
    expect(again.json).toEqual(first.json);
    const opened = await c.call(`/projects/${p.id}/merge_requests/${mr.iid}/versions/${oldest!.id}`, admin);
    expect(opened.json.diffs.map((d: { new_path: string }) => d.new_path)).toEqual(['a.txt']);
  });

  it("keeps a seeded merge request's first version, under its own id, when its source branch changes before any read", async () => {
    const mr = (await c.call('/projects/1/merge_requests/3', asUser)).json;
    const write = await c.call(`/projects/1/repository/files/${encodeURIComponent('notes/later.md')}`, {
      as: 'admin',
      method: 'POST',
      json: { branch: mr.source_branch, content: 'later\n', commit_message: 'Later' },
    });
    expect(write.status).toBe(201);
    const r = await c.call('/projects/1/merge_requests/3/versions', asUser);
    const [newest, seeded] = r.json as Array<{ id: number; created_at: string; real_size: string }>;
    expect([r.json.length, seeded!.id, seeded!.created_at, Number(newest!.real_size) - Number(seeded!.real_size)]).toEqual([
      2,
      700_003,
      mr.created_at,
      1,
    ]);
    const diffsOf = async (id: number) => (await c.call(`/projects/1/merge_requests/3/versions/${id}`, asUser)).json.diffs;
    const after = (await diffsOf(newest!.id)) as Array<{ new_path: string }>;
    expect(after.map((d) => d.new_path)).toContain('notes/later.md');
    expect(await diffsOf(700_003)).toEqual(after.filter((d) => d.new_path !== 'notes/later.md'));
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
