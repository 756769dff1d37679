// Commit statuses and compare, as lib/api/commit_statuses.rb, app/services/ci/create_commit_status_service.rb
// (read in gitlabhq/gitlabhq) and app/models/commit_status.rb (its state machine) answer, and as lib/api/repositories.rb and
// entities/compare.rb answer compare (service-endpoints.md §7, "Compare").
import { describe, expect, it } from 'vitest';
import { req } from '../helpers.js';
import { useSandbox } from './setup.js';

const c = useSandbox({ projects: 4 });

const head = async (ref: string) =>
  ((await c.call(`/projects/1/repository/commits/${encodeURIComponent(ref)}`, { as: 'user' })).json as { id: string }).id;
const post = (sha: string, json: Record<string, unknown>, as: 'user' | 'admin' = 'user', project = 1) =>
  c.call(`/projects/${project}/statuses/${sha}`, { as, method: 'POST', json });

describe('POST …/statuses/:sha and GET …/repository/commits/:sha/statuses', () => {
  it('moves the caller’s status of a name pending → running → success; another user, or a finished status, starts another', async () => {
    const sha = await head('main');
    const pending = await post(sha, { state: 'pending', name: 'lint', target_url: 'https://ci.example.com/1' });
    expect(pending.status).toBe(201);
    expect(pending.json).toMatchObject({ sha, ref: 'main', status: 'pending', name: 'lint', target_url: 'https://ci.example.com/1' });
    expect([pending.json.started_at, pending.json.finished_at, pending.json.description]).toEqual([null, null, null]);
    expect((pending.json.author as { username: string }).username).toBe('jdoe');
    const running = await post(sha, { state: 'running', name: 'lint' });
    expect([running.json.id, running.json.status, running.json.pipeline_id]).toEqual([
      pending.json.id,
      'running',
      pending.json.pipeline_id,
    ]);
    const done = await post(sha, { state: 'success', name: 'lint', description: 'clean' });
    expect([done.json.id, done.json.status, done.json.description]).toEqual([pending.json.id, 'success', 'clean']);
    const wrongPipeline = await post(sha, { state: 'running', name: 'lint', pipeline_id: 1 });
    expect([wrongPipeline.status, wrongPipeline.json]).toEqual([404, { message: '404 Pipeline for pipeline_id, sha and ref Not Found' }]);
    const byAdmin = await post(sha, { state: 'running', name: 'lint', pipeline_id: pending.json.pipeline_id }, 'admin');
    expect([byAdmin.json.status, byAdmin.json.pipeline_id]).toEqual(['running', pending.json.pipeline_id]);
    expect(byAdmin.json.id).not.toBe(pending.json.id);
    const again = await post(sha, { state: 'failed', name: 'lint' });
    expect(again.json.id).not.toBe(pending.json.id);
    const latest = await c.call(`/projects/1/repository/commits/${sha}/statuses`, { as: 'user' });
    expect((latest.json as Array<{ id: number; status: string }>).map((s) => [s.id, s.status])).toEqual([[again.json.id, 'failed']]);
    const all = await c.call(`/projects/1/repository/commits/${sha}/statuses?all=true`, { as: 'user' });
    expect((all.json as Array<{ status: string }>).map((s) => s.status)).toEqual(['success', 'running', 'failed']);
  });

  it('a move the state machine has no edge for: 400 "Cannot transition status via :<event> from :<state>"', async () => {
    const sha = await head('develop');
    expect((await post(sha, { state: 'running', name: 'build' })).status).toBe(201);
    const twice = await post(sha, { state: 'running', name: 'build' });
    expect([twice.status, twice.json]).toEqual([400, { message: 'Cannot transition status via :run from :running' }]);
    const back = await post(sha, { state: 'pending', name: 'build' });
    expect([back.status, back.json]).toEqual([400, { message: 'Cannot transition status via :enqueue from :running' }]);
  });

  it('name defaults to "default"; state is checked by Grape; an unknown commit is 404; a guest gets 403', async () => {
    const sha = await head('main');
    const named = await post(sha, { state: 'success' });
    expect([named.status, named.json.name]).toEqual([201, 'default']);
    const bad = await post(sha, { state: 'done' });
    expect([bad.status, bad.json]).toEqual([400, { error: 'state does not have a valid value' }]);
    const none = await post(sha, {});
    expect([none.status, none.json]).toEqual([400, { error: 'state is missing' }]);
    const unknown = await post('0123456789abcdef0123456789abcdef01234567', { state: 'pending' });
    expect([unknown.status, unknown.json]).toEqual([404, { message: '404 Commit Not Found' }]);
    const p4 = ((await c.call('/projects/4/repository/commits/main', { as: 'user' })).json as { id: string }).id;
    const guest = await post(p4, { state: 'pending' }, 'user', 4);
    expect([guest.status, guest.json]).toEqual([403, { message: '403 Forbidden' }]);
  });

  it('filters the list by ref, stage and name; read by the full SHA only; a POST takes a branch; none is []', async () => {
    const sha = await head('feature/login');
    await post(sha, { state: 'pending', name: 'a', ref: 'feature/login' });
    await post(sha, { state: 'pending', name: 'b', ref: 'other' });
    const names = async (query: string) =>
      ((await c.call(`/projects/1/repository/commits/${sha}/statuses${query}`, { as: 'user' })).json as Array<{ name: string }>).map(
        (s) => s.name,
      );
    expect(await names('?ref=other')).toEqual(['b']);
    expect(await names('?name=a')).toEqual(['a']);
    expect(await names('?stage=external')).toEqual(['a', 'b']);
    expect(await names('?stage=test')).toEqual([]);
    expect(await names('')).toEqual(['a', 'b']);
    const short = await c.call(`/projects/1/repository/commits/${sha.slice(0, 8)}/statuses`, { as: 'user' });
    expect([short.status, short.json]).toEqual([200, []]);
    const byBranch = await post('develop', { state: 'pending', name: 'by-branch' });
    expect([byBranch.status, byBranch.json.sha, byBranch.json.ref]).toEqual([201, await head('develop'), 'develop']);
    const empty = await c.call(`/projects/1/repository/commits/${await head('fix/issue-1')}/statuses`, { as: 'user' });
    expect([empty.status, empty.json]).toEqual([200, []]);
    const unknown = await c.call('/projects/1/repository/commits/0123456789abcdef0123456789abcdef01234567/statuses', { as: 'user' });
    expect([unknown.status, unknown.json]).toEqual([404, { message: '404 Commit Not Found' }]);
  });
});

describe('GET …/repository/compare', () => {
  it('answers commits oldest first, the newest as commit, the diffs from the merge base, and the web_url', async () => {
    const [main, login] = [await head('main'), await head('feature/login')];
    const r = await c.call('/projects/1/repository/compare?from=main&to=feature%2Flogin', { as: 'user' });
    expect(r.status).toBe(200);
    expect(Object.keys(r.json)).toEqual(['commit', 'commits', 'diffs', 'compare_timeout', 'compare_same_ref', 'web_url']);
    const commits = r.json.commits as Array<{ id: string }>;
    expect(commits.length).toBe(3);
    expect((r.json.commit as { id: string }).id).toBe(login);
    expect(commits[2]!.id).toBe(login);
    expect((r.json.diffs as Array<{ new_path: string; new_file: boolean }>).map((d) => [d.new_path, d.new_file])).toEqual([
      ['src/app/login.ts', true],
    ]);
    expect((r.json.diffs as Array<{ diff: string }>)[0]!.diff).toBe(
      '@@ -0,0 +1,3 @@\n+export function login(): boolean {\n+  return true;\n+}\n',
    );
    expect([r.json.compare_timeout, r.json.compare_same_ref]).toEqual([false, false]);
    expect(r.json.web_url).toBe(
      `${c.sb.url}/acme/platform/${(await c.call('/projects/1', { as: 'user' })).json.path}/-/compare/${main}...${login}`,
    );
  });

  it("one commit on both sides, even by two names (a tag and a branch): no commits, commit null, compare_same_ref true; back to main: main's newer commits, diffs only with straight", async () => {
    const same = await c.call('/projects/1/repository/compare?from=main&to=main', { as: 'user' });
    expect([same.json.commit, same.json.commits, same.json.diffs, same.json.compare_same_ref]).toEqual([null, [], [], true]);
    const tagged = await c.call('/projects/1/repository/compare?from=v2.0.0-rc.1&to=develop', { as: 'user' });
    expect([tagged.json.commits, tagged.json.compare_same_ref]).toEqual([[], true]);
    const back = await c.call('/projects/1/repository/compare?from=feature%2Flogin&to=main', { as: 'user' });
    // feature/login leaves main after its 6th commit; main has 6 more since, all of them the same files.
    expect([(back.json.commits as unknown[]).length, back.json.diffs]).toEqual([6, []]);
    const straight = await c.call('/projects/1/repository/compare?from=feature%2Flogin&to=main&straight=true', { as: 'user' });
    expect((straight.json.diffs as Array<{ old_path: string; deleted_file: boolean }>).map((d) => [d.old_path, d.deleted_file])).toEqual([
      ['src/app/login.ts', true],
    ]);
  });

  it('an unknown ref: 404 "404 Ref Not Found"; from and to are required; a job token is not a credential here (reference §4.5)', async () => {
    const r = await c.call('/projects/1/repository/compare?from=main&to=nope', { as: 'user' });
    expect([r.status, r.json]).toEqual([404, { message: '404 Ref Not Found' }]);
    const missing = await c.call('/projects/1/repository/compare', { as: 'user' });
    expect([missing.status, missing.json]).toEqual([400, { error: 'from is missing, to is missing' }]);
    const job = await req(c.sb.url, '/api/v4/projects/2/repository/compare?from=main&to=develop', {
      headers: { 'JOB-TOKEN': c.sb.tokens.job },
    });
    expect([job.status, job.json]).toEqual([401, { message: '401 Unauthorized' }]);
  });
});
