// Auto-merge: lib/api/merge_requests.rb (`PUT …/merge` with `auto_merge`, and
// `POST …/cancel_merge_when_pipeline_succeeds`: `unauthorized! unless can_cancel_auto_merge?`, then
// what AutoMergeService#cancel returns, presented with POST's 201), app/services/auto_merge/base_service.rb
// (the caller becomes the merge user; cancel clears it), merge_when_pipeline_succeeds_service.rb (a failed
// pipeline leaves it set; `process` merges once the head pipeline succeeded), and the system note texts of
// app/services/system_notes/merge_requests_service.rb. The sandbox's choices: src/sandbox/README.md, "Auto-merge".
import { setTimeout as delay } from 'node:timers/promises';
import { beforeEach, describe, expect, it } from 'vitest';
import { MERGE_CHECK_MS } from '../../../src/sandbox/resources/merge-request-checks.js';
import { TestClock } from '../../support/clock.js';
import { useSandbox } from './setup.js';

const clock = new TestClock();
const c = useSandbox({ projects: 4, clock: clock.now });
beforeEach(() => clock.hold());
const asUser = { as: 'user' as const };
const post = (path: string, json: Record<string, unknown> = {}) => c.call(path, { ...asUser, method: 'POST', json });
const put = (path: string, json: Record<string, unknown> = {}) => c.call(path, { ...asUser, method: 'PUT', json });

/** jdoe's fork of project 1 with a checked merge request from feature/login into develop and a pipeline running on it. */
async function autoMerging(name: string, set = true): Promise<{ pid: number; sha: string }> {
  const fork = (await post('/projects/1/fork', { name, path: name })).json;
  await post(`/projects/${fork.id}/merge_requests`, { title: name, source_branch: 'feature/login', target_branch: 'develop' });
  await delay(MERGE_CHECK_MS + 30);
  const pipeline = (await post(`/projects/${fork.id}/pipeline`, { ref: 'feature/login' })).json;
  if (set) expect((await put(`/projects/${fork.id}/merge_requests/1/merge`, { merge_when_pipeline_succeeds: true })).status).toBe(200);
  return { pid: fork.id, sha: pipeline.sha };
}

const systemNotes = async (pid: number) =>
  ((await c.call(`/projects/${pid}/merge_requests/1/notes?sort=asc`, asUser)).json as Array<{ body: string; system: boolean }>)
    .filter((n) => n.system)
    .map((n) => n.body);

describe('PUT …/merge with auto_merge (or merge_when_pipeline_succeeds)', () => {
  it('sets it for the caller, the merge user, with a system note that user_notes_count leaves out', async () => {
    const { pid, sha } = await autoMerging('am-set');
    const mr = (await c.call(`/projects/${pid}/merge_requests/1`, asUser)).json;
    expect([mr.state, mr.merge_when_pipeline_succeeds, mr.merge_user.username, mr.user_notes_count]).toEqual(['opened', true, 'jdoe', 0]);
    expect(await systemNotes(pid)).toEqual([`enabled an automatic merge when the pipeline for ${sha} succeeds`]);
    // a second request keeps it as it is: no second note
    expect((await put(`/projects/${pid}/merge_requests/1/merge`, { auto_merge: true })).json.merge_when_pipeline_succeeds).toBe(true);
    expect((await systemNotes(pid)).length).toBe(1);
  });

  it('merges once the head pipeline succeeded, by the merge user', async () => {
    const { pid } = await autoMerging('am-merges');
    clock.advance(60_000);
    const mr = (await c.call(`/projects/${pid}/merge_requests/1`, asUser)).json;
    expect([mr.state, mr.merge_when_pipeline_succeeds, mr.merged_by.username]).toEqual(['merged', false, 'jdoe']);
  });

  it('a failed head pipeline leaves it set (ci_must_pass)', async () => {
    const fork = (await post('/projects/1/fork', { name: 'am-failed', path: 'am-failed' })).json;
    await post(`/projects/${fork.id}/merge_requests`, { title: 'x', source_branch: 'feature/login', target_branch: 'develop' });
    await delay(MERGE_CHECK_MS + 30);
    await post(`/projects/${fork.id}/pipeline`, { ref: 'feature/login', variables: [{ key: 'SANDBOX_PIPELINE_RESULT', value: 'failed' }] });
    await put(`/projects/${fork.id}/merge_requests/1/merge`, { auto_merge: true });
    clock.advance(60_000);
    const mr = (await c.call(`/projects/${fork.id}/merge_requests/1`, asUser)).json;
    expect([mr.state, mr.merge_when_pipeline_succeeds, mr.detailed_merge_status, mr.head_pipeline.status]).toEqual([
      'opened',
      true,
      'ci_must_pass',
      'failed',
    ]);
  });

  it('closing aborts it with the service note', async () => {
    const { pid } = await autoMerging('am-closed');
    const closed = await put(`/projects/${pid}/merge_requests/1`, { state_event: 'close' });
    expect([closed.status, closed.json.state, closed.json.merge_when_pipeline_succeeds, closed.json.merge_user]).toEqual([
      200,
      'closed',
      false,
      null,
    ]);
    expect((await systemNotes(pid)).slice(1)).toEqual(['aborted the automatic merge because merge request was closed']);
  });
});

describe('POST …/cancel_merge_when_pipeline_succeeds', () => {
  it('cancels it (201, the service result), with the note; the merge user is cleared', async () => {
    const { pid } = await autoMerging('am-cancel');
    const r = await post(`/projects/${pid}/merge_requests/1/cancel_merge_when_pipeline_succeeds`);
    expect([r.status, r.json]).toEqual([201, { status: 'success' }]);
    const mr = (await c.call(`/projects/${pid}/merge_requests/1`, asUser)).json;
    expect([mr.merge_when_pipeline_succeeds, mr.merge_user]).toEqual([false, null]);
    expect((await systemNotes(pid)).slice(1)).toEqual(['canceled the automatic merge']);
    clock.advance(60_000);
    expect((await c.call(`/projects/${pid}/merge_requests/1`, asUser)).json.state).toBe('opened');
  });

  it('when none is set: 201 with the error result of AutoMergeService#cancel', async () => {
    const { pid } = await autoMerging('am-none', false);
    const r = await post(`/projects/${pid}/merge_requests/1/cancel_merge_when_pipeline_succeeds`);
    expect([r.status, r.json]).toEqual([201, { status: 'error', message: "Can't cancel the automatic merge", http_status: 406 }]);
  });

  it('401 for a user who may neither merge it nor wrote it; 404 for an unknown iid; 401 without a token', async () => {
    const { pid } = await autoMerging('am-refused');
    const guest = await c.call(`/projects/1/merge_requests/1/cancel_merge_when_pipeline_succeeds`, {
      as: 'admin',
      method: 'POST',
      headers: { Sudo: '6' },
    });
    expect([guest.status, guest.json]).toEqual([401, { message: '401 Unauthorized' }]);
    const unknown = await post(`/projects/${pid}/merge_requests/99/cancel_merge_when_pipeline_succeeds`);
    expect([unknown.status, unknown.json]).toEqual([404, { message: '404 Not found' }]);
    const anonymous = await c.call(`/projects/${pid}/merge_requests/1/cancel_merge_when_pipeline_succeeds`, { method: 'POST' });
    expect(anonymous.status).toBe(401);
  });
});
