// What hangs on issues and merge requests besides notes: the time tracking endpoints of issues.rb and
// merge_requests.rb (Gitlab::TimeTrackingFormatter: 8-hour days, 5-day weeks), subscriptions.rb,
// todos.rb, award_emoji.rb (AwardEmojis::AddService: `not_found!("Award Emoji #{message}")`),
// issue_links.rb (IssuableLinks::CreateService texts) and merge_requests.rb `commits`, `closes_issues`.
import { describe, expect, it } from 'vitest';
import { useSandbox } from './setup.js';
import { TestClock } from '../../support/clock.js';

const clock = new TestClock();
const c = useSandbox({ projects: 5, clock: clock.now });
const post = (path: string, json: Record<string, unknown> = {}, as: 'admin' | 'user' = 'admin') =>
  c.call(path, { as, method: 'POST', json });

describe('time tracking', () => {
  it('sets an estimate, adds and resets spent time, and the issue entity shows the same stats', async () => {
    const est = await post('/projects/1/issues/3/time_estimate', { duration: '1d2h30m' });
    expect([est.status, est.json]).toEqual([
      200,
      { time_estimate: 37_800, total_time_spent: 0, human_time_estimate: '1d 2h 30m', human_total_time_spent: null },
    ]);
    const spent = await post('/projects/1/issues/3/add_spent_time', { duration: '1w 3h' });
    expect([spent.status, spent.json.total_time_spent, spent.json.human_total_time_spent]).toEqual([201, 154_800, '1w 3h']);
    expect((await post('/projects/1/issues/3/add_spent_time', { duration: '-3h' })).json.human_total_time_spent).toBe('1w');
    expect((await c.call('/projects/1/issues/3', { as: 'user' })).json.time_stats).toEqual({
      time_estimate: 37_800,
      total_time_spent: 144_000,
      human_time_estimate: '1d 2h 30m',
      human_total_time_spent: '1w',
    });
    expect((await post('/projects/1/issues/3/reset_spent_time')).json.total_time_spent).toBe(0);
    expect((await post('/projects/1/issues/3/reset_time_estimate')).json.time_estimate).toBe(0);
  });

  it('refuses a duration that does not parse, a missing one, and a merge request change below developer', async () => {
    expect((await post('/projects/1/issues/3/time_estimate', { duration: 'soon' })).json).toEqual({
      message: { time_estimate: ['must have a valid format and be greater than or equal to zero'] },
    });
    expect((await post('/projects/1/issues/3/time_estimate')).json).toEqual({ error: 'duration is missing' });
    expect((await post('/projects/4/merge_requests/1/time_estimate', { duration: '1h' }, 'user')).status).toBe(403);
    const mr = await post('/projects/1/merge_requests/1/time_estimate', { duration: '90m' });
    expect(mr.json.human_time_estimate).toBe('1h 30m');
    expect((await c.call('/projects/1/merge_requests/1', { as: 'admin' })).json.time_stats.time_estimate).toBe(5400);
    expect((await c.call('/projects/1/issues/999/time_stats', { as: 'admin' })).json).toEqual({ message: '404 Not found' });
  });
});

describe('subscriptions, to-dos and award emoji', () => {
  it('subscribes once (201, then 304), and unsubscribes', async () => {
    const on = await post('/projects/1/merge_requests/1/subscribe', {}, 'user');
    expect([on.status, on.json.iid, on.json.subscribed]).toEqual([201, 1, true]);
    expect((await post('/projects/1/merge_requests/1/subscribe', {}, 'user')).status).toBe(304);
    expect((await post('/projects/1/merge_requests/1/unsubscribe', {}, 'user')).json.subscribed).toBe(false);
    expect((await post('/projects/1/merge_requests/1/unsubscribe', {}, 'user')).status).toBe(304);
  });

  it('adds a to-do once, lists the caller’s pending ones, and marks them done', async () => {
    const todo = await post('/projects/1/issues/1/todo', {}, 'user');
    expect([todo.status, todo.json.action_name, todo.json.target_type, todo.json.target.iid, todo.json.state]).toEqual([
      201,
      'marked',
      'Issue',
      1,
      'pending',
    ]);
    expect((await post('/projects/1/issues/1/todo', {}, 'user')).status).toBe(304);
    const list = await c.call('/todos', { as: 'user' });
    expect([list.headers['x-total'], list.json[0].id, list.json[0].target_url]).toEqual([
      '1',
      todo.json.id,
      `${c.sb.url}/acme/platform/icy-tiger-1/-/issues/1`,
    ]);
    expect((await c.call('/todos', { as: 'admin' })).json).toEqual([]);
    expect((await post(`/todos/${todo.json.id}/mark_as_done`, {}, 'user')).json.state).toBe('done');
    expect((await c.call('/todos', { as: 'user' })).json).toEqual([]);
    expect((await c.call('/todos?state=done', { as: 'user' })).json.map((t: { id: number }) => t.id)).toEqual([todo.json.id]);
  });

  it('awards an emoji once per user and name, and only its user removes it', async () => {
    const award = await post('/projects/1/issues/2/award_emoji', { name: 'tada' }, 'user');
    expect([award.status, award.json.name, award.json.user.id, award.json.awardable_id, award.json.awardable_type]).toEqual([
      201,
      'tada',
      2,
      102,
      'Issue',
    ]);
    expect(award.json.created_at).toBe(new Date(clock.now()).toISOString());
    expect((await post('/projects/1/issues/2/award_emoji', { name: 'tada' }, 'user')).json).toEqual({
      message: '404 Award Emoji Name has already been taken Not Found',
    });
    expect((await post('/projects/1/issues/2/award_emoji', { name: 'no-such' }, 'user')).json).toEqual({
      message: '404 Award Emoji Name is not a valid emoji name Not Found',
    });
    expect((await c.call('/projects/1/issues/2/award_emoji', { as: 'admin' })).json.map((a: { id: number }) => a.id)).toEqual([
      award.json.id,
    ]);
    const other = await post('/projects/1/issues/2/award_emoji', { name: 'tada' }, 'admin');
    expect((await c.call(`/projects/1/issues/2/award_emoji/${other.json.id}`, { as: 'user', method: 'DELETE' })).status).toBe(401);
    expect((await c.call(`/projects/1/issues/2/award_emoji/${award.json.id}`, { as: 'user', method: 'DELETE' })).status).toBe(204);
    expect((await c.call(`/projects/1/issues/2/award_emoji/${award.json.id}`, { as: 'user' })).json).toEqual({ message: '404 Not found' });
  });
  it('awards an emoji on a note of an issue or a merge request, and answers 404 Not found for a note that is not there', async () => {
    const note = await post('/projects/1/issues/4/notes', { body: 'Nice' }, 'user');
    const award = await post(`/projects/1/issues/4/notes/${note.json.id}/award_emoji`, { name: 'heart' }, 'admin');
    expect([award.status, award.json.awardable_type, award.json.awardable_id, award.json.name]).toEqual([
      201,
      'Note',
      note.json.id,
      'heart',
    ]);
    const listed = await c.call(`/projects/1/issues/4/notes/${note.json.id}/award_emoji`, { as: 'user' });
    expect(listed.json.map((a: { id: number }) => a.id)).toEqual([award.json.id]);
    expect((await c.call('/projects/1/issues/4/award_emoji', { as: 'user' })).json).toEqual([]);
    const mrNote = await post('/projects/1/merge_requests/1/notes', { body: 'LGTM' }, 'admin');
    const onMr = await post(`/projects/1/merge_requests/1/notes/${mrNote.json.id}/award_emoji`, { name: 'thumbsup' }, 'user');
    expect([onMr.status, onMr.json.awardable_type]).toEqual([201, 'Note']);
    expect((await post('/projects/1/issues/4/notes/99999999/award_emoji', { name: 'heart' })).json).toEqual({ message: '404 Not found' });
  });
});

describe('issue links', () => {
  it('links two issues once, shows the link from both sides, and deletes it', async () => {
    const made = await post('/projects/2/issues/1/links', {
      target_project_id: 'acme/platform/eager-lynx-2',
      target_issue_iid: 2,
      link_type: 'blocks',
    });
    expect([made.status, made.json.source_issue.iid, made.json.target_issue.iid, made.json.link_type]).toEqual([201, 1, 2, 'blocks']);
    expect(Object.keys(made.json.source_issue)).toEqual([
      'id',
      'iid',
      'project_id',
      'title',
      'description',
      'state',
      'created_at',
      'updated_at',
      'web_url',
    ]);
    const fromTarget = await c.call('/projects/2/issues/2/links', { as: 'user' });
    expect(
      fromTarget.json.map((i: { iid: number; issue_link_id: number; link_type: string }) => [i.iid, i.issue_link_id, i.link_type]),
    ).toEqual([[1, 1, 'is_blocked_by']]);
    expect((await post('/projects/2/issues/2/links', { target_project_id: 2, target_issue_iid: 1 })).json).toEqual({
      message: 'Issue(s) already assigned',
    });
    expect((await post('/projects/2/issues/2/links', { target_project_id: 2, target_issue_iid: 2 })).json).toEqual({
      message: 'No matching issue found. Make sure that you are adding a valid issue URL.',
    });
    expect((await post('/projects/2/issues/2/links', { target_project_id: 'no/where', target_issue_iid: 1 })).json).toEqual({
      message: '404 Project Not Found',
    });
    expect((await post('/projects/2/issues/2/links', { target_project_id: 2 })).json).toEqual({ error: 'target_issue_iid is missing' });
    const gone = await c.call('/projects/2/issues/2/links/1', { as: 'admin', method: 'DELETE' });
    expect([gone.status, gone.json.link_type]).toEqual([200, 'blocks']);
    expect((await c.call('/projects/2/issues/1/links', { as: 'user' })).json).toEqual([]);
  });
});

describe('merge request commits and closed issues', () => {
  it('lists the source commits the target lacks, and the issues its description closes', async () => {
    const commits = await c.call('/projects/1/merge_requests/1/commits', { as: 'user' });
    const develop = (await c.call('/projects/1/repository/commits?ref_name=develop&per_page=100', { as: 'user' })).json as Array<{
      id: string;
    }>;
    const main = new Set(
      ((await c.call('/projects/1/repository/commits?ref_name=main&per_page=100', { as: 'user' })).json as Array<{ id: string }>).map(
        (x) => x.id,
      ),
    );
    expect(commits.json.map((x: { id: string }) => x.id)).toEqual(develop.filter((x) => !main.has(x.id)).map((x) => x.id));
    expect(commits.json.length).toBe(3);
    const mr = await post('/projects/1/merge_requests', {
      source_branch: 'fix/issue-1',
      target_branch: 'main',
      title: 'Login',
      description: 'Closes #2, #3 and fixes #999. Related to #4.',
    });
    const closes = await c.call(`/projects/1/merge_requests/${mr.json.iid}/closes_issues`, { as: 'user' });
    expect(closes.json.map((i: { iid: number }) => i.iid)).toEqual([2, 3]);
  });
});

describe('participants (issues.rb, merge_requests.rb `participants`)', () => {
  it('an issue: its author, assignees, then who commented, each once, as UserBasic (unpaged)', async () => {
    const issue = await post('/projects/3/issues', { title: 'Who takes part', assignee_ids: [3] }, 'user');
    const path = `/projects/3/issues/${issue.json.iid}`;
    await post(`${path}/notes`, { body: 'first' });
    await post(`${path}/notes`, { body: 'again' });
    await post(`${path}/notes`, { body: 'me too' }, 'user');
    const r = await c.call(`${path}/participants`, { as: 'user' });
    expect(r.status).toBe(200);
    expect(r.json.map((u: { username: string }) => u.username)).toEqual(['jdoe', issue.json.assignees[0].username, 'root']);
    expect(Object.keys(r.json[0])).toEqual(['id', 'username', 'name', 'state', 'locked', 'avatar_url', 'web_url']);
    expect(r.headers['x-total']).toBeUndefined();
    const none = await c.call('/projects/3/issues/999/participants', { as: 'user' });
    expect(none.status).toBe(404);
  });

  it('a merge request: its author, assignees, reviewers, then who commented, paged', async () => {
    await post('/projects/4/repository/branches', { branch: 'participants', ref: 'main' });
    const mr = await post('/projects/4/merge_requests', {
      source_branch: 'participants',
      target_branch: 'main',
      title: 'Participants',
      reviewer_ids: [2],
    });
    await post(`/projects/4/merge_requests/${mr.json.iid}/notes`, { body: 'looks good' }, 'user');
    const r = await c.call(`/projects/4/merge_requests/${mr.json.iid}/participants`, { as: 'admin' });
    expect([r.status, r.json.map((u: { username: string }) => u.username), r.headers['x-total']]).toEqual([200, ['root', 'jdoe'], '2']);
  });
});

describe('an issue’s merge requests (issues.rb `closed_by`, `related_merge_requests`)', () => {
  it('closed_by: those whose description closes it (MergeRequestBasic); related: those naming it at all (MergeRequest)', async () => {
    const issue = await post('/projects/3/issues', { title: 'Needs a fix' });
    const iid = issue.json.iid as number;
    for (const branch of ['fix-it', 'mention-it', 'unrelated']) await post('/projects/3/repository/branches', { branch, ref: 'main' });
    const open = (source_branch: string, description: string) =>
      post('/projects/3/merge_requests', { source_branch, target_branch: 'main', title: source_branch, description });
    const fixing = await open('fix-it', `Fixes #${iid}`);
    const naming = await open('mention-it', `Follows up on #${iid}.`);
    await open('unrelated', `About #${iid}0 and !${iid}`);
    const closedBy = await c.call(`/projects/3/issues/${iid}/closed_by`, { as: 'user' });
    expect([closedBy.status, closedBy.json.map((m: { iid: number }) => m.iid)]).toEqual([200, [fixing.json.iid]]);
    expect('diff_refs' in closedBy.json[0]).toBe(false);
    const related = await c.call(`/projects/3/issues/${iid}/related_merge_requests`, { as: 'user' });
    expect([related.status, related.json.map((m: { iid: number }) => m.iid)]).toEqual([200, [fixing.json.iid, naming.json.iid]]);
    expect('diff_refs' in related.json[0]).toBe(true);
    const none = await c.call('/projects/3/issues/999/closed_by', { as: 'user' });
    expect(none.status).toBe(404);
  });
});

describe('`subscribed` on a single read follows the caller’s subscription', () => {
  it('an issue: its author is subscribed until they unsubscribe, others until they subscribe; lists leave it out', async () => {
    const issue = await post('/projects/3/issues', { title: 'Watched' }, 'user');
    const path = `/projects/3/issues/${issue.json.iid}`;
    expect((await c.call(path, { as: 'user' })).json.subscribed).toBe(true);
    expect((await c.call(path, { as: 'admin' })).json.subscribed).toBe(false);
    await post(`${path}/unsubscribe`, {}, 'user');
    await post(`${path}/subscribe`);
    expect([(await c.call(path, { as: 'user' })).json.subscribed, (await c.call(path, { as: 'admin' })).json.subscribed]).toEqual([
      false,
      true,
    ]);
    const listed = (await c.call(`/projects/3/issues?iids[]=${issue.json.iid}`, { as: 'user' })).json[0];
    expect('subscribed' in listed).toBe(false);
  });

  it('a merge request likewise', async () => {
    await post('/projects/3/repository/branches', { branch: 'watched', ref: 'main' });
    const mr = await post('/projects/3/merge_requests', { source_branch: 'watched', target_branch: 'main', title: 'Watched' });
    const path = `/projects/3/merge_requests/${mr.json.iid}`;
    expect([mr.json.subscribed, (await c.call(path, { as: 'user' })).json.subscribed]).toEqual([true, false]);
    await post(`${path}/subscribe`, {}, 'user');
    expect((await c.call(path, { as: 'user' })).json.subscribed).toBe(true);
  });
});
