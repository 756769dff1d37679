// A merge request's pipelines and reviewers (reference endpoints §2: `GET|POST …/pipelines`, `async` →
// 202, `405` when none is created; `GET …/reviewers` with the review state), and a commit's refs and merge
// requests (lib/api/commits.rb `refs`, `merge_requests`; reference behaviour §4.5 lists the latter).
import { beforeAll, describe, expect, it } from 'vitest';
import { useSandbox } from './setup.js';

const c = useSandbox({ projects: 5 });
const admin = (method: string, json: Record<string, unknown>) => ({ as: 'admin' as const, method, json });
let pid = 0;
let head = '';
let base = '';

// A project with its own repository, so a file written on a branch makes a commit there.
beforeAll(async () => {
  const p = await c.call('/projects', admin('POST', { name: 'mr-pipelines', initialize_with_readme: true }));
  pid = p.json.id;
  base = (await c.call(`/projects/${pid}/repository/branches/main`, { as: 'admin' })).json.commit.id;
  await c.call(`/projects/${pid}/repository/branches`, admin('POST', { branch: 'feature', ref: 'main' }));
  await c.call(
    `/projects/${pid}/repository/files/app.txt`,
    admin('POST', { branch: 'feature', content: 'x', commit_message: 'add app.txt' }),
  );
  head = (await c.call(`/projects/${pid}/repository/branches/feature`, { as: 'admin' })).json.commit.id;
  const mr = await c.call(
    `/projects/${pid}/merge_requests`,
    admin('POST', { source_branch: 'feature', target_branch: 'main', title: 'Feature', reviewer_ids: [1] }),
  );
  expect([mr.status, mr.json.iid]).toEqual([201, 1]);
});

describe('GET and POST /projects/:id/merge_requests/:iid/pipelines', () => {
  it('runs a merge request pipeline on refs/merge-requests/:iid/head at the source head (200), and lists it', async () => {
    const none = await c.call(`/projects/${pid}/merge_requests/1/pipelines`, { as: 'admin' });
    expect([none.status, none.json, none.headers['x-total']]).toEqual([200, [], '0']);
    const made = await c.call(`/projects/${pid}/merge_requests/1/pipelines`, admin('POST', {}));
    expect(made.status).toBe(200);
    expect(made.json).toMatchObject({ ref: 'refs/merge-requests/1/head', sha: head, source: 'merge_request_event', project_id: pid });
    expect(made.json.detailed_status.group).toBe(made.json.status);
    const later = await c.call(`/projects/${pid}/merge_requests/1/pipelines`, admin('POST', { async: true }));
    expect([later.status, later.text]).toEqual([202, '']);
    const onBranch = await c.call(`/projects/${pid}/pipeline`, admin('POST', { ref: 'feature' }));
    await c.call(`/projects/${pid}/pipeline`, admin('POST', { ref: 'main' }));
    const listed = await c.call(`/projects/${pid}/merge_requests/1/pipelines`, { as: 'admin' });
    const ids = listed.json.map((pl: { id: number }) => pl.id);
    expect(ids).toEqual([onBranch.json.id, made.json.id + 1, made.json.id]);
    expect(Object.keys(listed.json[0]).sort()).toEqual(
      ['created_at', 'id', 'iid', 'project_id', 'ref', 'sha', 'source', 'status', 'updated_at', 'web_url'].sort(),
    );
    expect(listed.headers['x-total']).toBe('3');
  });

  it('answers 405 when no pipeline comes of it (a closed merge request), 404 Not found for an unknown iid', async () => {
    const other = await c.call(
      `/projects/${pid}/merge_requests`,
      admin('POST', { source_branch: 'feature', target_branch: 'main', title: 'Closed one' }),
    );
    expect(other.status).toBe(409);
    await c.call(`/projects/${pid}/merge_requests/1`, admin('PUT', { state_event: 'close' }));
    const closed = await c.call(`/projects/${pid}/merge_requests/1/pipelines`, admin('POST', {}));
    expect([closed.status, closed.json]).toEqual([405, { message: '405 Method Not Allowed' }]);
    await c.call(`/projects/${pid}/merge_requests/1`, admin('PUT', { state_event: 'reopen' }));
    const unknown = await c.call(`/projects/${pid}/merge_requests/99/pipelines`, { as: 'admin' });
    expect([unknown.status, unknown.json]).toEqual([404, { message: '404 Not found' }]);
  });
});

describe('GET /projects/:id/merge_requests/:iid/reviewers', () => {
  it('answers each reviewer with the review state: unreviewed, then approved once they approve', async () => {
    const before = await c.call(`/projects/${pid}/merge_requests/1/reviewers`, { as: 'admin' });
    expect(before.status).toBe(200);
    expect(before.json).toEqual([{ user: before.json[0].user, state: 'unreviewed', created_at: before.json[0].created_at }]);
    expect([before.json[0].user.username, before.json[0].user.state]).toEqual(['root', 'active']);
    await c.call(`/projects/${pid}/merge_requests/1/approve`, admin('POST', {}));
    const after = await c.call(`/projects/${pid}/merge_requests/1/reviewers`, { as: 'admin' });
    expect(after.json[0].state).toBe('approved');
  });
});

describe('a commit’s refs and merge requests', () => {
  it('GET …/commits/:sha/refs lists the branches and tags holding it; type narrows', async () => {
    await c.call(`/projects/${pid}/repository/tags`, admin('POST', { tag_name: 'v1', ref: 'main' }));
    const all = await c.call(`/projects/${pid}/repository/commits/${base}/refs`, { as: 'admin' });
    expect([all.status, all.json]).toEqual([
      200,
      [
        { type: 'branch', name: 'feature' },
        { type: 'branch', name: 'main' },
        { type: 'tag', name: 'v1' },
      ],
    ]);
    const onFeature = await c.call(`/projects/${pid}/repository/commits/${head}/refs?type=all`, { as: 'admin' });
    expect(onFeature.json).toEqual([{ type: 'branch', name: 'feature' }]);
    const tags = await c.call(`/projects/${pid}/repository/commits/${base}/refs?type=tag`, { as: 'admin' });
    expect(tags.json).toEqual([{ type: 'tag', name: 'v1' }]);
    const bad = await c.call(`/projects/${pid}/repository/commits/${base}/refs?type=tags`, { as: 'admin' });
    expect([bad.status, bad.json]).toEqual([400, { error: 'type does not have a valid value' }]);
    const none = await c.call(`/projects/${pid}/repository/commits/${'0'.repeat(40)}/refs`, { as: 'admin' });
    expect([none.status, none.json]).toEqual([404, { message: '404 Commit Not Found' }]);
  });

  it('GET …/commits/:sha/merge_requests lists the merge requests holding the commit, as MergeRequestBasic', async () => {
    const holding = await c.call(`/projects/${pid}/repository/commits/${head}/merge_requests`, { as: 'admin' });
    expect([holding.status, holding.json.map((m: { iid: number }) => m.iid)]).toEqual([200, [1]]);
    expect(holding.json[0].title).toBe('Feature');
    expect('diff_refs' in holding.json[0]).toBe(false);
    const onTarget = await c.call(`/projects/${pid}/repository/commits/${base}/merge_requests`, { as: 'admin' });
    expect([onTarget.status, onTarget.json]).toEqual([200, []]);
    const none = await c.call(`/projects/${pid}/repository/commits/${'0'.repeat(40)}/merge_requests`, { as: 'admin' });
    expect([none.status, none.json]).toEqual([404, { message: '404 Commit Not Found' }]);
  });
});
