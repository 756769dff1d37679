// Merge requests: service-endpoints.md §2 (lists, shape, create/update failures, merge, approvals)
// and §1 (notes, shared with merge requests). Project 1 holds one merge request per blocker.
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { MERGE_CHECK_MS, REBASE_MS } from '../../../src/sandbox/resources/merge-request-checks.js';
import { useSandbox } from './setup.js';

const c = useSandbox();
const asUser = { as: 'user' as const };
const iids = (r: { json: Array<{ iid: number }> }) => r.json.map((m) => m.iid);
const put = (path: string, json: Record<string, unknown> = {}) => c.call(path, { ...asUser, method: 'PUT', json });
const post = (path: string, json: Record<string, unknown> = {}) => c.call(path, { ...asUser, method: 'POST', json });

/** A fork of project 1 (its branches, none of its merge requests), so merges and new merge requests do not disturb the fixtures. */
async function freshProject(name: string): Promise<number> {
  const r = await post('/projects/1/fork', { name, path: name });
  expect(r.status).toBe(201);
  return r.json.id;
}

/** A new merge request is `preparing`, a started check `checking`, for MERGE_CHECK_MS. */
const checkEnded = () => delay(MERGE_CHECK_MS + 30);

/** A new merge request in a project of its own, once its preparation is over. */
async function preparedMergeRequest(name: string, source: string, target: string): Promise<number> {
  const pid = await freshProject(name);
  const r = await post(`/projects/${pid}/merge_requests`, { title: name, source_branch: source, target_branch: target });
  expect(r.status).toBe(201);
  await checkEnded();
  return pid;
}

describe('§2 lists', () => {
  it('project 1 lists its six merge requests newest first, each with its blocker', async () => {
    const r = await c.call('/projects/1/merge_requests', asUser);
    expect(r.status).toBe(200);
    expect(r.json.map((m: any) => [m.iid, m.state, m.detailed_merge_status])).toEqual([
      [6, 'closed', 'not_open'],
      [5, 'opened', 'not_approved'],
      [4, 'merged', 'not_open'],
      [3, 'opened', 'conflict'],
      [2, 'opened', 'draft_status'],
      [1, 'opened', 'mergeable'],
    ]);
  });

  it('state is an enum: opened, closed, locked, merged, all', async () => {
    const r = await c.call('/projects/1/merge_requests?state=open', asUser);
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ error: 'state does not have a valid value' });
    expect(iids(await c.call('/projects/1/merge_requests?state=merged', asUser))).toEqual([4]);
  });

  it('filters by source and target branch, draft and search', async () => {
    expect(iids(await c.call('/projects/1/merge_requests?source_branch=feature/login', asUser))).toEqual([6, 2]);
    expect(iids(await c.call('/projects/1/merge_requests?target_branch=develop', asUser))).toEqual([6]);
    expect(iids(await c.call('/projects/1/merge_requests?draft=true', asUser))).toEqual([2]);
    expect(iids(await c.call('/projects/1/merge_requests?search=SEARCH', asUser))).toEqual([3]);
  });

  it('wip and draft are mutually exclusive', async () => {
    const r = await c.call('/projects/1/merge_requests?wip=yes&draft=true', asUser);
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ error: 'wip, draft are mutually exclusive' });
  });

  it('order_by title with sort asc orders by title', async () => {
    const r = await c.call('/projects/1/merge_requests?order_by=title&sort=asc', asUser);
    expect(r.json.map((m: any) => m.title)).toEqual([
      'Draft: Add a login page',
      'Fix issue 1',
      'Merge develop into main',
      'Refactor the build',
      'Rewrite the search',
      'Try the login page on develop',
    ]);
  });

  it('the instance list needs a token unless scope=all', async () => {
    const r = await c.call('/merge_requests');
    expect(r.status).toBe(401);
    expect(r.json).toEqual({ message: '401 Unauthorized' });
    expect((await c.call('/merge_requests?scope=all&per_page=1')).status).toBe(200);
  });

  it('the group list includes subgroups: acme holds projects 1 and 2 (in acme/platform) and 3', async () => {
    const r = await c.call('/groups/1/merge_requests?per_page=100', asUser);
    const projects = [...new Set<number>(r.json.map((m: any) => m.project_id))];
    expect(projects).toEqual(expect.arrayContaining([1, 2, 3]));
    const paths = await Promise.all(projects.map(async (id) => (await c.call(`/projects/${id}`, asUser)).json.path_with_namespace));
    expect(paths.filter((path: string) => !path.startsWith('acme/'))).toEqual([]);
  });
});

describe('§2 job tokens', () => {
  const job = () => ({ headers: { 'JOB-TOKEN': c.sb.tokens.job } });

  it('a job token reads the merge requests and their notes of its own project', async () => {
    expect((await c.call('/projects/2/merge_requests', job())).status).toBe(200);
    expect((await c.call('/projects/2/merge_requests/1', job())).status).toBe(200);
    expect((await c.call('/projects/2/merge_requests/1/notes', job())).status).toBe(200);
  });

  it('not the approvals, which are no job-token route', async () => {
    const r = await c.call('/projects/2/merge_requests/1/approvals', job());
    expect([r.status, r.json]).toEqual([401, { message: '401 Unauthorized' }]);
  });
});

describe('§2 shape', () => {
  it('a single merge request carries changes_count as a string, diff_refs and user.can_merge', async () => {
    const r = await c.call('/projects/1/merge_requests/2', asUser);
    expect(r.json.changes_count).toBe('1');
    expect(r.json.draft).toBe(true);
    expect(r.json.work_in_progress).toBe(true);
    expect(r.json.user).toEqual({ can_merge: true });
    expect(Object.keys(r.json.diff_refs)).toEqual(['base_sha', 'head_sha', 'start_sha']);
    expect(r.json.diff_refs.head_sha).toBe(r.json.sha);
    expect(r.json.references).toEqual({ short: '!2', relative: '!2', full: `${r.json.web_url.split('/').slice(3, 6).join('/')}!2` });
  });

  it('a conflicting merge request says cannot_be_merged and has_conflicts', async () => {
    const r = await c.call('/projects/1/merge_requests/3', asUser);
    expect([r.json.merge_status, r.json.has_conflicts]).toEqual(['cannot_be_merged', true]);
  });

  it('an unknown iid is .find’s 404', async () => {
    const r = await c.call('/projects/1/merge_requests/99', asUser);
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ message: '404 Not found' });
  });
});

describe('§2 create and update', () => {
  it('title, source_branch, target_branch are required', async () => {
    const r = await post('/projects/1/merge_requests', { title: 'x' });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ error: 'source_branch is missing, target_branch is missing' });
  });

  it('a second open merge request from the same source branch is a 409 whose message is an array', async () => {
    const r = await post('/projects/1/merge_requests', { title: 'again', source_branch: 'feature/search-v2', target_branch: 'develop' });
    expect(r.status).toBe(409);
    expect(r.json).toEqual({ message: ['Another open merge request already exists for this source branch: !3'] });
  });

  it('the same branch as source and target is a 422 branch_conflict', async () => {
    const r = await post('/projects/1/merge_requests', { title: 'x', source_branch: 'main', target_branch: 'main' });
    expect(r.status).toBe(422);
    expect(r.json).toEqual({ message: ["You can't use same project/branch for source and target"] });
  });

  it('creates (201) with labels, assignees and reviewers, then closes and reopens', async () => {
    const pid = await freshProject('mr-create');
    const r = await post(`/projects/${pid}/merge_requests`, {
      title: 'Add login',
      source_branch: 'feature/login',
      target_branch: 'main',
      labels: 'a,b',
      assignee_ids: [1],
      reviewer_ids: [2],
      squash: true,
    });
    expect(r.status).toBe(201);
    expect([r.json.iid, r.json.state, r.json.labels, r.json.assignees[0].id, r.json.reviewers[0].id, r.json.squash]).toEqual([
      1,
      'opened',
      ['a', 'b'],
      1,
      2,
      true,
    ]);
    const closed = await put(`/projects/${pid}/merge_requests/1`, { state_event: 'close' });
    expect([closed.status, closed.json.state, closed.json.closed_by.username]).toEqual([200, 'closed', 'jdoe']);
    const reopened = await put(`/projects/${pid}/merge_requests/1`, { state_event: 'reopen' });
    expect([reopened.json.state, reopened.json.closed_at]).toEqual(['opened', null]);
  });

  it('an update without any field names the whole group', async () => {
    const r = await put('/projects/1/merge_requests/1');
    expect(r.status).toBe(400);
    expect(r.json.error).toBe(
      'assignee_id, assignee_ids, reviewer_ids, description, labels, add_labels, remove_labels, milestone_id, milestone, remove_source_branch, allow_collaboration, allow_maintainer_to_push, squash, target_branch, title, state_event, discussion_locked, merge_after are missing, at least one parameter must be provided',
    );
  });

  it('state_event is an enum', async () => {
    const r = await put('/projects/1/merge_requests/1', { state_event: 'closed' });
    expect([r.status, r.json]).toEqual([400, { error: 'state_event does not have a valid value' }]);
  });
});

describe('§2 merge refusals', () => {
  for (const [iid, reason] of [
    [2, 'draft'],
    [3, 'conflicts'],
    [4, 'already merged'],
    [5, 'missing approval'],
    [6, 'closed'],
  ] as const) {
    it(`answers one 405 for ${reason}`, async () => {
      const r = await put(`/projects/1/merge_requests/${iid}/merge`);
      expect(r.status).toBe(405);
      expect(r.json).toEqual({ message: '405 Method Not Allowed' });
    });
  }

  it('an unknown iid is a 404', async () => {
    const r = await put('/projects/1/merge_requests/99/merge');
    expect([r.status, r.json]).toEqual([404, { message: '404 Not found' }]);
  });

  it('a caller who may not merge into the protected target gets 401, not 403', async () => {
    // user 6 is a developer under acme; main needs a maintainer.
    const r = await c.call('/projects/1/merge_requests/1/merge', { as: 'admin', method: 'PUT', headers: { Sudo: '6' } });
    expect([r.status, r.json]).toEqual([401, { message: '401 Unauthorized' }]);
  });

  it('a sha other than the source head is a 409 naming the head', async () => {
    const mr = (await c.call('/projects/1/merge_requests/1', asUser)).json;
    const r = await put('/projects/1/merge_requests/1/merge', { sha: '0000000' });
    expect([r.status, r.json]).toEqual([409, { message: `SHA does not match HEAD of source branch: ${mr.sha}` }]);
  });

  it('a running head pipeline refuses with 405 (ci_still_running), a failed one too (ci_must_pass)', async () => {
    const pid = await preparedMergeRequest('mr-pipeline', 'fail/broken-build', 'develop');
    await post(`/projects/${pid}/pipeline`, { ref: 'fail/broken-build' });
    const running = await c.call(`/projects/${pid}/merge_requests/1`, asUser);
    expect(running.json.detailed_merge_status).toBe('ci_still_running');
    expect((await put(`/projects/${pid}/merge_requests/1/merge`)).status).toBe(405);
    await new Promise((done) => setTimeout(done, 350));
    const failed = await c.call(`/projects/${pid}/merge_requests/1`, asUser);
    expect([failed.json.detailed_merge_status, failed.json.head_pipeline.status]).toEqual(['ci_must_pass', 'failed']);
    expect((await put(`/projects/${pid}/merge_requests/1/merge`)).status).toBe(405);
  });

  it('auto_merge with a running pipeline waits (200) and merges once it succeeds', async () => {
    const pid = await preparedMergeRequest('mr-auto', 'feature/login', 'develop');
    await post(`/projects/${pid}/pipeline`, { ref: 'feature/login' });
    const r = await put(`/projects/${pid}/merge_requests/1/merge`, { auto_merge: true });
    expect([r.status, r.json.state, r.json.merge_when_pipeline_succeeds]).toEqual([200, 'opened', true]);
    await new Promise((done) => setTimeout(done, 350));
    const after = await c.call(`/projects/${pid}/merge_requests/1`, asUser);
    expect([after.json.state, after.json.merge_when_pipeline_succeeds]).toEqual(['merged', false]);
  });

  it('merges a mergeable request (200): merged, merge_commit_sha, squash_commit_sha when squashed, then not_open', async () => {
    const pid = await preparedMergeRequest('mr-merge', 'develop', 'main');
    const r = await put(`/projects/${pid}/merge_requests/1/merge`, { squash: true });
    expect([r.status, r.json.state, r.json.detailed_merge_status, r.json.merged_by.username]).toEqual([200, 'merged', 'not_open', 'jdoe']);
    expect(r.json.merge_commit_sha).toMatch(/^[0-9a-f]{40}$/);
    expect(r.json.squash_commit_sha).toMatch(/^[0-9a-f]{40}$/);
  });
});

describe('§2 mergeability checks (merge_status, detailed_merge_status)', () => {
  const status = (r: { json: { merge_status: string; detailed_merge_status: string } }) => [
    r.json.merge_status,
    r.json.detailed_merge_status,
  ];

  it('a new merge request is preparing (merge_status checking, no prepared_at), then mergeable', async () => {
    const pid = await freshProject('mr-preparing');
    const created = await post(`/projects/${pid}/merge_requests`, { title: 'Dev', source_branch: 'develop', target_branch: 'main' });
    expect([...status(created), created.json.prepared_at]).toEqual(['checking', 'preparing', null]);
    await checkEnded();
    const ready = await c.call(`/projects/${pid}/merge_requests/1`, asUser);
    expect(status(ready)).toEqual(['can_be_merged', 'mergeable']);
    expect(ready.json.prepared_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it('a merge while preparing is the one 405', async () => {
    const pid = await freshProject('mr-preparing-merge');
    await post(`/projects/${pid}/merge_requests`, { title: 'Dev', source_branch: 'develop', target_branch: 'main' });
    const r = await put(`/projects/${pid}/merge_requests/1/merge`);
    expect([r.status, r.json]).toEqual([405, { message: '405 Method Not Allowed' }]);
  });

  it('an approval leaves it unchecked in lists, which skip the recheck; a single read starts the check (checking)', async () => {
    const pid = await preparedMergeRequest('mr-approve-check', 'develop', 'main');
    expect((await post(`/projects/${pid}/merge_requests/1/approve`)).status).toBe(201);
    const listed = await c.call(`/projects/${pid}/merge_requests`, asUser);
    expect(status({ json: listed.json[0] })).toEqual(['unchecked', 'unchecked']);
    expect(status(await c.call(`/projects/${pid}/merge_requests/1`, asUser))).toEqual(['checking', 'checking']);
    const merging = await put(`/projects/${pid}/merge_requests/1/merge`);
    expect([merging.status, merging.json]).toEqual([405, { message: '405 Method Not Allowed' }]);
    await checkEnded();
    expect(status(await c.call(`/projects/${pid}/merge_requests/1`, asUser))).toEqual(['can_be_merged', 'mergeable']);
  });

  it('with_merge_status_recheck=true makes a list start the check', async () => {
    const pid = await preparedMergeRequest('mr-list-recheck', 'develop', 'main');
    await post(`/projects/${pid}/merge_requests/1/approve`);
    const listed = await c.call(`/projects/${pid}/merge_requests?with_merge_status_recheck=true`, asUser);
    expect(status({ json: listed.json[0] })).toEqual(['checking', 'checking']);
  });

  it('a new target branch leaves it unchecked; a merge checks it at once and merges (200)', async () => {
    const pid = await preparedMergeRequest('mr-retarget', 'feature/login', 'main');
    const retargeted = await put(`/projects/${pid}/merge_requests/1`, { target_branch: 'develop' });
    expect(status(retargeted)).toEqual(['unchecked', 'unchecked']);
    const merged = await put(`/projects/${pid}/merge_requests/1/merge`);
    expect([merged.status, merged.json.state, ...status(merged)]).toEqual([200, 'merged', 'can_be_merged', 'not_open']);
  });
});

describe('§2 rebase', () => {
  it('accepts (202, rebase_in_progress), shows it with include_rebase_in_progress, and refuses a second one meanwhile (409)', async () => {
    const pid = await preparedMergeRequest('mr-rebase', 'develop', 'main');
    const r = await put(`/projects/${pid}/merge_requests/1/rebase`, { skip_ci: true });
    expect([r.status, r.json]).toEqual([202, { rebase_in_progress: true }]);
    const during = await c.call(`/projects/${pid}/merge_requests/1?include_rebase_in_progress=true`, asUser);
    expect(during.json.rebase_in_progress).toBe(true);
    const again = await put(`/projects/${pid}/merge_requests/1/rebase`);
    expect([again.status, again.json]).toEqual([
      409,
      { message: 'Failed to enqueue the rebase operation, possibly due to a long-lived transaction. Try again later.' },
    ]);
    await delay(REBASE_MS + 30);
    const after = await c.call(`/projects/${pid}/merge_requests/1?include_rebase_in_progress=true`, asUser);
    expect(after.json.rebase_in_progress).toBe(false);
    expect((await c.call(`/projects/${pid}/merge_requests/1`, asUser)).json.rebase_in_progress).toBeUndefined();
  });

  it('a caller who may not push to the source branch gets 403 with the reason', async () => {
    const outsider = c.sb.state.user(3)!.username;
    const r = await c.call('/projects/1/merge_requests/1/rebase', { as: 'admin', method: 'PUT', headers: { Sudo: outsider } });
    expect([r.status, r.json]).toEqual([403, { message: '403 Forbidden - Cannot push to source branch' }]);
  });

  it('an unknown iid is a 404', async () => {
    const r = await put('/projects/1/merge_requests/99/rebase');
    expect([r.status, r.json]).toEqual([404, { message: '404 Not found' }]);
  });
});

describe('§2 approvals', () => {
  it('approve (201), again (304), unapprove (201), again (304)', async () => {
    const before = await c.call('/projects/1/merge_requests/5/approvals', asUser);
    expect(before.json).toEqual({
      user_has_approved: false,
      user_can_approve: true,
      approved: false,
      approved_by: [],
      approvals_required: 1,
      approvals_left: 1,
    });
    const approved = await post('/projects/1/merge_requests/5/approve');
    expect([approved.status, approved.json.approved, approved.json.approved_by[0].user.username]).toEqual([201, true, 'jdoe']);
    await c.call('/projects/1/merge_requests/5', asUser);
    await checkEnded();
    expect((await c.call('/projects/1/merge_requests/5', asUser)).json.detailed_merge_status).toBe('mergeable');
    expect((await post('/projects/1/merge_requests/5/approve')).status).toBe(304);
    const unapproved = await post('/projects/1/merge_requests/5/unapprove');
    expect([unapproved.status, unapproved.json.approved_by]).toEqual([201, []]);
    expect((await post('/projects/1/merge_requests/5/unapprove')).status).toBe(304);
  });

  it('approve with a sha other than the head is a 409', async () => {
    const r = await post('/projects/1/merge_requests/5/approve', { sha: 'abc1234' });
    expect(r.status).toBe(409);
    expect(r.json.message).toMatch(/^SHA does not match HEAD of source branch: [0-9a-f]{40}$/);
  });
});

describe('§1 notes of a merge request', () => {
  it('creates (201), lists newest first by default, refuses an empty body, deletes (204)', async () => {
    const created = await post('/projects/1/merge_requests/3/notes', { body: 'Pipeline passed' });
    expect([created.status, created.json.noteable_type, created.json.noteable_iid, created.json.body]).toEqual([
      201,
      'MergeRequest',
      3,
      'Pipeline passed',
    ]);
    const list = await c.call('/projects/1/merge_requests/3/notes', asUser);
    expect(list.json[0].id).toBe(created.json.id);
    const empty = await post('/projects/1/merge_requests/3/notes', { body: ' ' });
    expect([empty.status, empty.json]).toEqual([400, { message: '400 Bad request - Note {:note=>["can\'t be blank"]}' }]);
    const gone = await c.call(`/projects/1/merge_requests/3/notes/${created.json.id}`, { ...asUser, method: 'DELETE' });
    expect(gone.status).toBe(204);
    expect((await c.call('/projects/1/merge_requests/3/notes', asUser)).json.map((n: any) => n.id)).not.toContain(created.json.id);
  });

  it('edits a created and a seeded note (200); a blank body is the model error', async () => {
    const created = await post('/projects/1/merge_requests/3/notes', { body: 'Pipeline passed' });
    const edited = await put(`/projects/1/merge_requests/3/notes/${created.json.id}`, { body: 'Pipeline passed (retried)' });
    expect([edited.status, edited.json.id, edited.json.body]).toEqual([200, created.json.id, 'Pipeline passed (retried)']);
    const seeded = (await c.call('/projects/1/merge_requests/1/notes?sort=asc', { as: 'admin' })).json[0];
    const r = await c.call(`/projects/1/merge_requests/1/notes/${seeded.id}`, { as: 'admin', method: 'PUT', json: { body: 'Edited' } });
    expect([r.status, r.json.body, r.json.created_at]).toEqual([200, 'Edited', seeded.created_at]);
    const listed = (await c.call('/projects/1/merge_requests/1/notes?sort=asc', { as: 'admin' })).json[0];
    expect([listed.id, listed.body]).toEqual([seeded.id, 'Edited']);
    const one = await c.call(`/projects/1/merge_requests/1/notes/${seeded.id}`, asUser);
    expect([one.status, one.json]).toEqual([200, listed]);
    const first = (await c.call('/projects/2/merge_requests/1/notes', asUser)).json[0];
    const byJob = await c.call(`/projects/2/merge_requests/1/notes/${first.id}`, { headers: { 'JOB-TOKEN': c.sb.tokens.job } });
    expect(byJob.status).toBe(200);
    const none = await c.call('/projects/1/merge_requests/1/notes/1', asUser);
    expect([none.status, none.json]).toEqual([404, { message: '404 Not found' }]);
    const blank = await put(`/projects/1/merge_requests/3/notes/${created.json.id}`, { body: '' });
    expect([blank.status, blank.json]).toEqual([400, { message: '400 Bad request - Note {:note=>["can\'t be blank"]}' }]);
  });

  it('notes of a missing merge request: 404 MergeRequest Not Found', async () => {
    const r = await c.call('/projects/1/merge_requests/99/notes', asUser);
    expect([r.status, r.json]).toEqual([404, { message: '404 MergeRequest Not Found' }]);
  });
});

describe('§2 changes from the synthetic repository', () => {
  it('feature/login adds src/app/login.ts against main', async () => {
    const r = await c.call('/projects/1/merge_requests/2/diffs', asUser);
    expect(r.json).toEqual([
      {
        old_path: 'src/app/login.ts',
        new_path: 'src/app/login.ts',
        a_mode: '0',
        b_mode: '100644',
        new_file: true,
        renamed_file: false,
        deleted_file: false,
        generated_file: false,
        diff: '@@ -0,0 +1,3 @@\n+export function login(): boolean {\n+  return true;\n+}\n',
      },
    ]);
  });

  it('a file written on the source branch through the files API shows as a modification', async () => {
    const w = await put('/projects/1/repository/files/src%2Flib%2Futil.ts', {
      branch: 'feature/search-v2',
      commit_message: 'sub',
      content: 'export function add(a: number, b: number): number {\n  return a - b;\n}\n',
    });
    expect(w.status).toBe(200);
    const r = await c.call('/projects/1/merge_requests/3/changes', asUser);
    // README.md is the branch's own change (its seeded commits); util.ts the write.
    expect([r.json.overflow, r.json.changes.map((x: any) => x.new_path), r.json.changes[1].diff]).toEqual([
      false,
      ['README.md', 'src/lib/util.ts'],
      '@@ -1,3 +1,3 @@\n export function add(a: number, b: number): number {\n-  return a + b;\n+  return a - b;\n }\n',
    ]);
  });
});

describe('merge requests from branches created through the API', () => {
  it('a created branch is a valid source (201); once deleted it is refused with 409 "Source branch … does not exist"', async () => {
    const pid = await freshProject('mr-from-created-branch');
    expect((await post(`/projects/${pid}/repository/branches`, { branch: 'topic/new', ref: 'main' })).status).toBe(201);
    const created = await post(`/projects/${pid}/merge_requests`, {
      title: 'new topic',
      source_branch: 'topic/new',
      target_branch: 'main',
    });
    expect([created.status, created.json.source_branch]).toEqual([201, 'topic/new']);
    expect((await put(`/projects/${pid}/merge_requests/${created.json.iid}`, { state_event: 'close' })).status).toBe(200);
    expect((await c.call(`/projects/${pid}/repository/branches/topic%2Fnew`, { ...asUser, method: 'DELETE' })).status).toBe(204);
    const refused = await post(`/projects/${pid}/merge_requests`, { title: 'again', source_branch: 'topic/new', target_branch: 'develop' });
    expect([refused.status, refused.json]).toEqual([409, { message: ['Source branch "topic/new" does not exist'] }]);
  });
});
