// Issues: service-endpoints.md §1 (list params, failures, edit) and §0 (enums).
import { describe, expect, it } from 'vitest';
import { ids, useSandbox } from './setup.js';

const c = useSandbox();
const iids = (r: { json: Array<{ iid: number }> }) => r.json.map((i) => i.iid);

/** Every issue of project 1, newest first (the default order). */
async function everyIssue(): Promise<Array<Record<string, any>>> {
  return (await c.call('/projects/1/issues?per_page=100', { as: 'user' })).json;
}

describe('§1 list parameters', () => {
  it('refuses state=open: the values are opened, closed, all', async () => {
    const r = await c.call('/projects/1/issues?state=open', { as: 'user' });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ error: 'state does not have a valid value' });
  });

  it('state=opened and state=closed split the list', async () => {
    const all = await everyIssue();
    const opened = await c.call('/projects/1/issues?state=opened', { as: 'user' });
    const closed = await c.call('/projects/1/issues?state=closed', { as: 'user' });
    expect(iids(opened)).toEqual(all.filter((i) => i.state === 'opened').map((i) => i.iid));
    expect(iids(closed)).toEqual(all.filter((i) => i.state === 'closed').map((i) => i.iid));
    expect(iids(closed)).toEqual([4]);
  });

  it('labels is an AND of labels', async () => {
    const all = await everyIssue();
    const r = await c.call('/projects/1/issues?labels=bug,backend', { as: 'user' });
    expect(iids(r)).toEqual(all.filter((i) => i.labels.includes('bug') && i.labels.includes('backend')).map((i) => i.iid));
    expect(iids(r)).toEqual([5, 3]);
  });

  it('labels=None lists unlabelled issues and an unknown label lists none', async () => {
    expect((await c.call('/projects/1/issues?labels=None', { as: 'user' })).json).toEqual([]);
    expect((await c.call('/projects/1/issues?labels=nope', { as: 'user' })).json).toEqual([]);
  });

  it('milestone takes a title, None or Any', async () => {
    const all = await everyIssue();
    const titled = await c.call('/projects/1/issues?milestone=v1.0', { as: 'user' });
    const none = await c.call('/projects/1/issues?milestone=None', { as: 'user' });
    const any = await c.call('/projects/1/issues?milestone=Any', { as: 'user' });
    expect(iids(titled)).toEqual(all.filter((i) => i.milestone?.title === 'v1.0').map((i) => i.iid));
    expect(iids(none)).toEqual(all.filter((i) => i.milestone === null).map((i) => i.iid));
    expect(iids(any)).toEqual(iids(titled));
    expect(iids(titled)).toEqual([6, 4, 3, 1]);
  });

  it('author_id and author_username pick the same issues', async () => {
    const all = await everyIssue();
    const author = all[0]!.author as { id: number; username: string };
    const byId = await c.call(`/projects/1/issues?author_id=${author.id}`, { as: 'user' });
    const byName = await c.call(`/projects/1/issues?author_username=${author.username}`, { as: 'user' });
    expect(iids(byId)).toEqual(all.filter((i) => i.author.id === author.id).map((i) => i.iid));
    expect(iids(byName)).toEqual(iids(byId));
  });

  it('author_id and author_username are mutually exclusive', async () => {
    const r = await c.call('/projects/1/issues?author_id=1&author_username=root', { as: 'user' });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ error: 'author_id, author_username are mutually exclusive' });
  });

  it('assignee_id takes an id, None or Any', async () => {
    const all = await everyIssue();
    const none = await c.call('/projects/1/issues?assignee_id=None', { as: 'user' });
    const any = await c.call('/projects/1/issues?assignee_id=Any', { as: 'user' });
    expect(iids(none)).toEqual(all.filter((i) => i.assignee === null).map((i) => i.iid));
    expect(iids(any)).toEqual(all.filter((i) => i.assignee !== null).map((i) => i.iid));
    expect(iids(any)).toEqual([5, 4]);
  });

  it('assignee_username takes one value on CE', async () => {
    const r = await c.call('/projects/1/issues?assignee_username[]=root&assignee_username[]=jdoe', { as: 'user' });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ error: 'assignee_username allows one value, but found 2: root, jdoe' });
  });

  it('search matches title and description', async () => {
    const all = await everyIssue();
    const word = (all[0]!.title as string).split(' ')[0]!.toLowerCase();
    const r = await c.call(`/projects/1/issues?search=${word}`, { as: 'user' });
    expect(iids(r)).toEqual(all.filter((i) => `${i.title} ${i.description}`.toLowerCase().includes(word)).map((i) => i.iid));
  });

  it('iids[] lists those iids only', async () => {
    const r = await c.call('/projects/1/issues?iids[]=2&iids[]=5', { as: 'user' });
    expect(iids(r)).toEqual([5, 2]);
  });

  it('created_after and updated_before bound the times, inclusive', async () => {
    const all = await everyIssue();
    const t = all[2]!.created_at as string;
    const after = await c.call(`/projects/1/issues?created_after=${t}`, { as: 'user' });
    expect(iids(after)).toEqual(all.filter((i) => i.created_at >= t).map((i) => i.iid));
    const u = all[2]!.updated_at as string;
    const before = await c.call(`/projects/1/issues?updated_before=${u}`, { as: 'user' });
    expect(iids(before)).toEqual(all.filter((i) => i.updated_at <= u).map((i) => i.iid));
  });

  it('order_by=updated_at&sort=asc orders by update time, oldest first', async () => {
    const all = await everyIssue();
    const r = await c.call('/projects/1/issues?order_by=updated_at&sort=asc', { as: 'user' });
    expect(iids(r)).toEqual([...all].sort((a, b) => (a.updated_at < b.updated_at ? -1 : 1)).map((i) => i.iid));
  });

  it('refuses an unknown order_by and sort', async () => {
    expect((await c.call('/projects/1/issues?order_by=iid', { as: 'user' })).json).toEqual({
      error: 'order_by does not have a valid value',
    });
    expect((await c.call('/projects/1/issues?sort=up', { as: 'user' })).json).toEqual({ error: 'sort does not have a valid value' });
  });
});

describe('§1 failures', () => {
  it('answers a missing issue read with {"message":"404 Not found"}', async () => {
    const r = await c.call('/projects/1/issues/999', { as: 'user' });
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ message: '404 Not found' });
  });

  it('answers iid 0 the same way', async () => {
    const r = await c.call('/projects/1/issues/0', { as: 'user' });
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ message: '404 Not found' });
  });

  it('answers a missing issue delete with {"message":"404 Issue Not Found"}', async () => {
    const r = await c.call('/projects/1/issues/999', { as: 'admin', method: 'DELETE' });
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ message: '404 Issue Not Found' });
  });

  it('answers a bad state_event with the enum error', async () => {
    const r = await c.call('/projects/1/issues/1', { as: 'admin', method: 'PUT', json: { state_event: 'closed' } });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ error: 'state_event does not have a valid value' });
  });

  it('answers an edit without any editable parameter with the at-least-one error', async () => {
    const r = await c.call('/projects/1/issues/1', { as: 'admin', method: 'PUT', json: {} });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({
      error:
        'assignee_id, assignee_ids, confidential, created_at, description, discussion_locked, due_date, labels, add_labels, remove_labels, milestone_id, state_event, title, issue_type are missing, at least one parameter must be provided',
    });
  });
});

describe('§1 writes', () => {
  it('creates with 201 and the next iid', async () => {
    const r = await c.call('/projects/3/issues', { as: 'admin', method: 'POST', json: { title: 'New one', labels: 'bug,ui' } });
    expect(r.status).toBe(201);
    const all = (await c.call('/projects/3/issues?per_page=100', { as: 'admin' })).json as Array<{
      iid: number;
      title: string;
      labels: string[];
    }>;
    expect(all[0]).toMatchObject({ iid: r.json.iid, title: 'New one', labels: ['bug', 'ui'] });
    expect(r.json.iid).toBe(Math.max(...all.slice(1).map((i) => i.iid)) + 1);
  });

  it('closes with state_event=close, setting closed_at and closed_by', async () => {
    const r = await c.call('/projects/1/issues/1', { as: 'admin', method: 'PUT', json: { state_event: 'close' } });
    expect(r.status).toBe(200);
    expect(r.json.state).toBe('closed');
    expect(r.json.closed_at).toBe(r.json.updated_at);
    expect(r.json.closed_by.username).toBe('root');
    const again = await c.call('/projects/1/issues/1', { as: 'user' });
    expect(again.json.state).toBe('closed');
  });

  it('applies add_labels and remove_labels incrementally', async () => {
    const before = (await c.call('/projects/1/issues/2', { as: 'admin' })).json.labels as string[];
    const r = await c.call('/projects/1/issues/2', { as: 'admin', method: 'PUT', json: { add_labels: 'x1', remove_labels: before[0] } });
    expect(r.json.labels).toEqual([...before.slice(1), 'x1']);
  });

  it('deletes with 204; the issue is then gone', async () => {
    const r = await c.call('/projects/1/issues/3', { as: 'admin', method: 'DELETE' });
    expect(r.status).toBe(204);
    expect(r.text).toBe('');
    expect((await c.call('/projects/1/issues/3', { as: 'admin' })).json).toEqual({ message: '404 Not found' });
  });

  it('refuses a delete below owner with 403', async () => {
    const r = await c.call('/projects/2/issues/1', { as: 'user', method: 'DELETE' });
    expect(r.status).toBe(403);
    expect(r.json).toEqual({ message: '403 Forbidden' });
  });
});

describe('§1 assignees', () => {
  it('assigns a known user and drops an unknown one', async () => {
    const known = await c.call('/projects/3/issues', { as: 'admin', method: 'POST', json: { title: 'a', assignee_id: 2 } });
    expect(known.json.assignee.username).toBe('jdoe');
    const unknown = await c.call('/projects/3/issues', { as: 'admin', method: 'POST', json: { title: 'b', assignee_id: 9999 } });
    expect(unknown.status).toBe(201);
    expect(unknown.json.assignee).toBe(null);
    expect(unknown.json.assignees).toEqual([]);
  });
});

type IssueJson = { id: number; iid: number; project_id: number; created_at: string; author: { username: string } };

/** Every issue of the given projects, newest first, as the cross-project lists order them. */
async function issuesOf(projectIds: number[], as: 'admin' | 'user'): Promise<IssueJson[]> {
  const all: IssueJson[] = [];
  for (const id of projectIds) all.push(...(await c.call(`/projects/${id}/issues?per_page=100`, { as })).json);
  return all.sort((a, b) => (a.created_at === b.created_at ? b.id - a.id : a.created_at < b.created_at ? 1 : -1));
}

/** Ids of the seeded projects under a group path (subgroups included) whose issues a listing covers. */
function projectsUnder(prefix: string): number[] {
  const ids: number[] = [];
  for (let id = 1; id <= 30; id++) {
    const p = c.sb.state.project(id)!;
    if (p.fullPath.startsWith(`${prefix}/`) && p.issuesEnabled && !p.archived) ids.push(id);
  }
  return ids;
}

describe('§1 group and instance lists', () => {
  it('GET /groups/:id/issues lists the issues of the group and its subgroups, newest first', async () => {
    const projects = projectsUnder('acme');
    expect(projects).toContain(1);
    expect(projects).toContain(3);
    const r = await c.call('/groups/acme/issues?per_page=100', { as: 'admin' });
    expect(r.status).toBe(200);
    expect(ids(r)).toEqual((await issuesOf(projects, 'admin')).map((i) => i.id));
    expect(r.headers['x-total']).toBe(String(r.json.length));
  });

  it('the group list takes the same filters as the project list', async () => {
    const projects = projectsUnder('acme');
    const r = await c.call('/groups/1/issues?per_page=100&state=opened&labels=bug', { as: 'admin' });
    const expected = (await issuesOf(projects, 'admin')).filter((i: any) => i.state === 'opened' && i.labels.includes('bug'));
    expect(ids(r)).toEqual(expected.map((i) => i.id));
  });

  it('a later page and a write are seen: the group list follows created and deleted issues', async () => {
    const first = ids(await c.call('/groups/acme/issues?per_page=5&page=2', { as: 'admin' }));
    const made = await c.call('/projects/3/issues', { as: 'admin', method: 'POST', json: { title: 'fresh' } });
    expect(ids(await c.call('/groups/acme/issues?per_page=5', { as: 'admin' }))[0]).toBe(made.json.id);
    await c.call(`/projects/3/issues/${made.json.iid}`, { as: 'admin', method: 'DELETE' });
    expect(ids(await c.call('/groups/acme/issues?per_page=5&page=2', { as: 'admin' }))).toEqual(first);
  });

  it('answers an unknown group with {"message":"404 Group Not Found"}', async () => {
    const r = await c.call('/groups/no-such-group/issues', { as: 'admin' });
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ message: '404 Group Not Found' });
  });

  it('GET /issues needs a token unless scope=all', async () => {
    const r = await c.call('/issues');
    expect(r.status).toBe(401);
    expect(r.json).toEqual({ message: '401 Unauthorized' });
    const open = await c.call('/issues?scope=all&per_page=100');
    expect(open.status).toBe(200);
    const publicIds: number[] = [];
    for (let id = 1; id <= 30; id++) {
      const p = c.sb.state.project(id)!;
      if (p.visibility === 'public' && p.issuesEnabled && !p.archived) publicIds.push(id);
    }
    expect(ids(open)).toEqual((await issuesOf(publicIds, 'admin')).slice(0, 100).map((i) => i.id));
  });

  it("GET /issues defaults to scope=created_by_me: the caller's own issues", async () => {
    const r = await c.call('/issues?per_page=100', { as: 'user' });
    expect(r.status).toBe(200);
    const everyone = (await c.call('/issues?scope=all&per_page=100', { as: 'user' })).json as IssueJson[];
    expect(r.json.length).toBeLessThan(everyone.length);
    expect((r.json as IssueJson[]).map((i) => i.author.username)).toEqual(r.json.map(() => 'jdoe'));
  });
});

describe('§1 create fields', () => {
  it('keeps milestone, due_date, confidential and the first of assignee_ids', async () => {
    const r = await c.call('/projects/3/issues', {
      as: 'admin',
      method: 'POST',
      json: { title: 'full', milestone: 'v1.0', due_date: '2026-12-24', confidential: true, assignee_ids: [2, 1] },
    });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ due_date: '2026-12-24', confidential: true, milestone: { title: 'v1.0' } });
    expect(r.json.assignees.map((u: { username: string }) => u.username)).toEqual(['jdoe']);
  });

  it('refuses a due_date that is not YYYY-MM-DD', async () => {
    const r = await c.call('/projects/3/issues', { as: 'admin', method: 'POST', json: { title: 'x', due_date: 'tomorrow' } });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ error: 'due_date is invalid' });
  });

  it('hides a confidential issue from readers who are not reporters, its author or assignee', async () => {
    const made = await c.call('/projects/1/issues', { as: 'admin', method: 'POST', json: { title: 'secret', confidential: true } });
    const iid = made.json.iid as number;
    const anonymous = await c.call(`/projects/1/issues/${iid}`);
    expect(anonymous.status).toBe(404);
    expect(anonymous.json).toEqual({ message: '404 Not found' });
    const listed = await c.call('/projects/1/issues?per_page=100');
    expect(iids(listed)).not.toContain(iid);
    const onlyConfidential = await c.call('/projects/1/issues?confidential=true', { as: 'admin' });
    expect(iids(onlyConfidential)).toEqual([iid]);
  });
});

describe('§1 notes', () => {
  const notesOf = async (iid: number) =>
    (await c.call(`/projects/3/issues/${iid}/notes?per_page=100`, { as: 'admin' })).json as Array<{ id: number; body: string }>;

  it('creates a note with 201; it lists first (sort desc) and counts in user_notes_count', async () => {
    const before = (await c.call('/projects/3/issues/2', { as: 'admin' })).json.user_notes_count as number;
    const seeded = await notesOf(2);
    expect(seeded).toHaveLength(before);
    const r = await c.call('/projects/3/issues/2/notes', { as: 'user', method: 'POST', json: { body: 'Seen again on main' } });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({
      body: 'Seen again on main',
      author: { username: 'jdoe' },
      noteable_type: 'Issue',
      noteable_iid: 2,
      system: false,
    });
    const after = await notesOf(2);
    expect(after.map((n) => n.id)).toEqual([r.json.id, ...seeded.map((n) => n.id)]);
    expect((await c.call('/projects/3/issues/2', { as: 'admin' })).json.user_notes_count).toBe(before + 1);
  });

  it("answers a blank body with the model error and a missing one with Grape's", async () => {
    const blank = await c.call('/projects/3/issues/2/notes', { as: 'user', method: 'POST', json: { body: '  ' } });
    expect(blank.status).toBe(400);
    expect(blank.json).toEqual({ message: '400 Bad request - Note {:note=>["can\'t be blank"]}' });
    const missing = await c.call('/projects/3/issues/2/notes', { as: 'user', method: 'POST', json: {} });
    expect(missing.status).toBe(400);
    expect(missing.json).toEqual({ error: 'body is missing' });
  });

  it('answers a missing issue with 404 Issue Not Found and a missing note with 404 Not found', async () => {
    const issue = await c.call('/projects/3/issues/999/notes', { as: 'user', method: 'POST', json: { body: 'x' } });
    expect(issue.status).toBe(404);
    expect(issue.json).toEqual({ message: '404 Issue Not Found' });
    const note = await c.call('/projects/3/issues/2/notes/1', { as: 'admin', method: 'DELETE' });
    expect(note.status).toBe(404);
    expect(note.json).toEqual({ message: '404 Not found' });
  });

  it('reads one note by id, and answers a missing one with 404 Not found', async () => {
    const made = await c.call('/projects/3/issues/2/notes', { as: 'user', method: 'POST', json: { body: 'one' } });
    const r = await c.call(`/projects/3/issues/2/notes/${made.json.id}`, { as: 'user' });
    expect(r.status).toBe(200);
    expect(r.json).toEqual(made.json);
    const missing = await c.call('/projects/3/issues/2/notes/1', { as: 'user' });
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ message: '404 Not found' });
  });

  it('deletes with 204; a second delete is 404', async () => {
    const made = await c.call('/projects/3/issues/2/notes', { as: 'user', method: 'POST', json: { body: 'to remove' } });
    const r = await c.call(`/projects/3/issues/2/notes/${made.json.id}`, { as: 'user', method: 'DELETE' });
    expect(r.status).toBe(204);
    expect(r.text).toBe('');
    expect((await notesOf(2)).map((n) => n.id)).not.toContain(made.json.id);
    const again = await c.call(`/projects/3/issues/2/notes/${made.json.id}`, { as: 'user', method: 'DELETE' });
    expect(again.status).toBe(404);
  });

  it("refuses to delete another user's note below maintainer with 403", async () => {
    const outsider = c.sb.state.user(3)!.username;
    const made = await c.call('/projects/1/issues/2/notes', { as: 'user', method: 'POST', json: { body: "jdoe's" } });
    const r = await c.call(`/projects/1/issues/2/notes/${made.json.id}`, { as: 'admin', method: 'DELETE', headers: { Sudo: outsider } });
    expect(r.status).toBe(403);
    expect(r.json).toEqual({ message: '403 Forbidden' });
  });

  it('edits a note with PUT (200), the new body and updated_at; a blank body is the model error', async () => {
    const made = await c.call('/projects/3/issues/2/notes', { as: 'user', method: 'POST', json: { body: 'first take' } });
    const r = await c.call(`/projects/3/issues/2/notes/${made.json.id}`, { as: 'user', method: 'PUT', json: { body: 'second take' } });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ ...made.json, body: 'second take', updated_at: r.json.updated_at, commands_changes: {} });
    expect(r.json.updated_at >= made.json.created_at).toBe(true);
    expect((await notesOf(2)).find((n) => n.id === made.json.id)!.body).toBe('second take');
    const blank = await c.call(`/projects/3/issues/2/notes/${made.json.id}`, { as: 'user', method: 'PUT', json: { body: ' ' } });
    expect([blank.status, blank.json]).toEqual([400, { message: '400 Bad request - Note {:note=>["can\'t be blank"]}' }]);
    const missing = await c.call('/projects/3/issues/2/notes/1', { as: 'user', method: 'PUT', json: { body: 'x' } });
    expect([missing.status, missing.json]).toEqual([404, { message: '404 Not found' }]);
  });

  it("refuses to edit another user's note below maintainer with 403", async () => {
    const outsider = c.sb.state.user(3)!.username;
    const made = await c.call('/projects/1/issues/2/notes', { as: 'user', method: 'POST', json: { body: "jdoe's" } });
    const r = await c.call(`/projects/1/issues/2/notes/${made.json.id}`, {
      as: 'admin',
      method: 'PUT',
      json: { body: 'not yours' },
      headers: { Sudo: outsider },
    });
    expect([r.status, r.json]).toEqual([403, { message: '403 Forbidden' }]);
  });

  it('answers a body of only quick actions with 202, the changes and the summary, and applies them', async () => {
    const count = (await notesOf(5)).length;
    const r = await c.call('/projects/3/issues/5/notes', { as: 'admin', method: 'POST', json: { body: '/close' } });
    expect(r.status).toBe(202);
    expect(r.json).toEqual({ commands_changes: { state_event: 'close' }, summary: ['Closed this issue.'] });
    expect((await c.call('/projects/3/issues/5', { as: 'admin' })).json.state).toBe('closed');
    expect(await notesOf(5)).toHaveLength(count);
  });
});

describe('a signed-in user who is no member of a public or internal project has guest access (ProjectPolicy `public_user_access`)', () => {
  it('opens an issue on a public and on an internal project (201), comments on it, may not edit another’s issue (403); a private one stays hidden', async () => {
    for (const pid of [4, 14]) {
      const made = await c.call(`/projects/${pid}/issues`, { as: 'user', method: 'POST', json: { title: 'From outside' } });
      expect([made.status, made.json.author.username]).toEqual([201, 'jdoe']);
      const note = await c.call(`/projects/${pid}/issues/${made.json.iid}/notes`, { as: 'user', method: 'POST', json: { body: 'me' } });
      expect(note.status).toBe(201);
      const others = await c.call(`/projects/${pid}/issues/1`, { as: 'user', method: 'PUT', json: { title: 'taken over' } });
      expect([others.status, others.json]).toEqual([403, { message: '403 Forbidden' }]);
    }
    const hidden = await c.call('/projects/6/issues', { as: 'user', method: 'POST', json: { title: 'x' } });
    expect([hidden.status, hidden.json]).toEqual([404, { message: '404 Project Not Found' }]);
    const anonymous = await c.call('/projects/4/issues', { method: 'POST', json: { title: 'x' } });
    expect(anonymous.status).toBe(401);
  });
});

describe('POST /projects/:id/issues/:issue_iid/move (Issues::MoveService)', () => {
  it('starts the issue again in the target project (201) and closes the original, which points at it', async () => {
    const made = await c.call('/projects/3/issues', {
      as: 'user',
      method: 'POST',
      json: { title: 'Moving on', description: '- [x] done\n- [ ] not yet', labels: 'bug' },
    });
    expect([made.json.has_tasks, made.json.task_status, made.json.moved_to_id]).toEqual([true, '1 of 2 checklist items completed', null]);
    const moved = await c.call(`/projects/3/issues/${made.json.iid}/move`, { as: 'user', method: 'POST', json: { to_project_id: 5 } });
    expect(moved.status).toBe(201);
    expect(moved.json).toMatchObject({ project_id: 5, title: 'Moving on', state: 'opened', labels: ['bug'], moved_to_id: null });
    expect(moved.json.author.username).toBe('jdoe');
    expect(moved.json.iid).toBe(
      Math.max(...(await c.call('/projects/5/issues?per_page=100', { as: 'user' })).json.map((i: { iid: number }) => i.iid)),
    );
    const original = await c.call(`/projects/3/issues/${made.json.iid}`, { as: 'user' });
    expect([original.json.state, original.json.moved_to_id, original.json.closed_by.username]).toEqual(['closed', moved.json.id, 'jdoe']);
    const again = await c.call(`/projects/3/issues/${made.json.iid}/move`, { as: 'user', method: 'POST', json: { to_project_id: 1 } });
    expect([again.status, again.json]).toEqual([400, { message: 'Cannot move issue due to insufficient permissions!' }]);
  });

  it('refuses the same project, a target where the caller is no reporter (400), an unknown project (404) and no target (400)', async () => {
    const made = await c.call('/projects/3/issues', { as: 'user', method: 'POST', json: { title: 'Staying' } });
    const path = `/projects/3/issues/${made.json.iid}/move`;
    const move = (json: Record<string, unknown>) => c.call(path, { as: 'user', method: 'POST', json });
    expect((await move({ to_project_id: 3 })).json).toEqual({ message: 'Cannot move issue to project it originates from!' });
    expect((await move({ to_project_id: 4 })).json).toEqual({ message: 'Cannot move issue due to insufficient permissions!' });
    const unknown = await move({ to_project_id: 99999 });
    expect([unknown.status, unknown.json]).toEqual([404, { message: '404 Project Not Found' }]);
    const missing = await move({});
    expect([missing.status, missing.json]).toEqual([400, { error: 'to_project_id is missing' }]);
  });
});

describe('GET /issues/:id (endpoints §1: global id, administrators only)', () => {
  it('answers a seeded or a created issue by its global id to an administrator; others 403; an unknown id 404 Not found', async () => {
    const seeded = await c.call('/projects/1/issues/1', { as: 'admin' });
    const byId = await c.call(`/issues/${seeded.json.id}`, { as: 'admin' });
    expect([byId.status, byId.json]).toEqual([200, seeded.json]);
    const made = await c.call('/projects/3/issues', { as: 'user', method: 'POST', json: { title: 'Global' } });
    expect((await c.call(`/issues/${made.json.id}`, { as: 'admin' })).json.iid).toBe(made.json.iid);
    const refused = await c.call(`/issues/${made.json.id}`, { as: 'user' });
    expect([refused.status, refused.json]).toEqual([403, { message: '403 Forbidden' }]);
    const none = await c.call('/issues/99999999', { as: 'admin' });
    expect([none.status, none.json]).toEqual([404, { message: '404 Not found' }]);
  });
});
