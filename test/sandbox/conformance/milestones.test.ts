// Project and group milestones: the service's lib/api/project_milestones.rb, group_milestones.rb and
// milestone_responses.rb (`order_id_desc`, `state` active|closed|all, `title`, `search`, `iids`
// dropped with `include_ancestors`, `state_event` close|activate, `at_least_one_of`, `not_found!('Milestone')`,
// `render_api_error!("Failed to create milestone #{errors.messages}", 400)`, delete → 204),
// entities/milestone.rb (the fields, `expired`), app/models/milestone.rb (title unique in a project
// and its group: `already being used for another group or project milestone.`; `must be greater than
// start date`) and the policies (`admin_milestone`). Choices: src/sandbox/README.md, "Milestones".
import { describe, expect, it } from 'vitest';
import { useSandbox } from './setup.js';

const c = useSandbox({ projects: 10 });
const sudo = (username: string) => ({ as: 'admin' as const, headers: { Sudo: username } });
const titles = (json: Array<{ title: string }>) => json.map((m) => m.title);
const post = (path: string, json: Record<string, unknown>, as: object = { as: 'admin' }) => c.call(path, { ...as, method: 'POST', json });
const put = (path: string, json: Record<string, unknown>) => c.call(path, { as: 'admin', method: 'PUT', json });

async function member(where: string, userId: number, level: number): Promise<string> {
  const r = await c.call(`${where}/members`, { as: 'admin', method: 'POST', json: { user_id: userId, access_level: level } });
  expect(r.status).toBe(201);
  return r.json.username;
}

describe('GET /projects/:id/milestones', () => {
  it('a seeded project has v1.0 (id 1, iid 1), as a Milestone entity', async () => {
    const r = await c.call('/projects/1/milestones', { as: 'user' });
    expect([r.status, r.headers['x-total']]).toEqual([200, '1']);
    const { created_at, updated_at, web_url, ...rest } = r.json[0];
    expect(rest).toEqual({
      id: 1,
      iid: 1,
      project_id: 1,
      title: 'v1.0',
      description: null,
      state: 'active',
      due_date: null,
      start_date: null,
      expired: false,
    });
    expect([created_at, updated_at]).toEqual([created_at, created_at]);
    expect(web_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[^ ]+\/-\/milestones\/1$/);
  });

  it('lists newest first and filters by state, title, search and iids', async () => {
    const a = await post('/projects/2/milestones', { title: 'v2.0', description: 'The big one' });
    const b = await post('/projects/2/milestones', { title: 'v2.1' });
    expect([a.status, a.json.iid, b.json.iid, b.json.id - a.json.id]).toEqual([201, 2, 3, 1]);
    expect(titles((await c.call('/projects/2/milestones', { as: 'user' })).json)).toEqual(['v2.1', 'v2.0', 'v1.0']);
    await put(`/projects/2/milestones/${b.json.id}`, { state_event: 'close' });
    expect(titles((await c.call('/projects/2/milestones?state=active', { as: 'user' })).json)).toEqual(['v2.0', 'v1.0']);
    expect(titles((await c.call('/projects/2/milestones?state=closed', { as: 'user' })).json)).toEqual(['v2.1']);
    expect(titles((await c.call('/projects/2/milestones?title=v2.0', { as: 'user' })).json)).toEqual(['v2.0']);
    expect(titles((await c.call('/projects/2/milestones?search=BIG', { as: 'user' })).json)).toEqual(['v2.0']);
    expect(titles((await c.call('/projects/2/milestones?iids[]=1&iids[]=3', { as: 'user' })).json)).toEqual(['v2.1', 'v1.0']);
    const bad = await c.call('/projects/2/milestones?state=open', { as: 'user' });
    expect([bad.status, bad.json]).toEqual([400, { error: 'state does not have a valid value' }]);
  });

  it('include_ancestors adds the milestones of the groups above (and drops iids)', async () => {
    const p = (await c.call('/projects/3', { as: 'admin' })).json;
    const g = await post(`/groups/${p.namespace.id}/milestones`, { title: 'Q3' });
    expect(g.status).toBe(201);
    const r = await c.call('/projects/3/milestones?include_ancestors=true&iids[]=5', { as: 'user' });
    expect(r.json.map((m: { title: string; group_id?: number }) => [m.title, m.group_id])).toEqual([
      ['Q3', p.namespace.id],
      ['v1.0', undefined],
    ]);
  });
});

describe('GET /projects/:id/milestones/:milestone_id', () => {
  it('reads one by id; an unknown one, or an iid, is 404 Milestone Not Found', async () => {
    expect((await c.call('/projects/1/milestones/1', { as: 'user' })).json.title).toBe('v1.0');
    const missing = await c.call('/projects/1/milestones/999', { as: 'user' });
    expect([missing.status, missing.json]).toEqual([404, { message: '404 Milestone Not Found' }]);
  });
});

describe('POST and PUT /projects/:id/milestones', () => {
  it('requires a title; dates are kept, a past due date is expired', async () => {
    const none = await post('/projects/4/milestones', { description: 'x' });
    expect([none.status, none.json]).toEqual([400, { error: 'title is missing' }]);
    const m = await post('/projects/4/milestones', { title: 'old', start_date: '2020-01-01', due_date: '2020-02-01' });
    expect([m.status, m.json.start_date, m.json.due_date, m.json.expired]).toEqual([201, '2020-01-01', '2020-02-01', true]);
    const later = await post('/projects/4/milestones', { title: 'later', due_date: '2999-12-31' });
    expect(later.json.expired).toBe(false);
  });

  it('refuses a due date before the start date and a title in use, as the model does', async () => {
    const early = await post('/projects/5/milestones', { title: 'x', start_date: '2030-02-01', due_date: '2030-01-01' });
    expect([early.status, early.json]).toEqual([
      400,
      { message: 'Failed to create milestone {:due_date=>["must be greater than start date"]}' },
    ]);
    const dup = await post('/projects/5/milestones', { title: 'v1.0' });
    expect([dup.status, dup.json]).toEqual([
      400,
      { message: 'Failed to create milestone {:title=>["already being used for another group or project milestone."]}' },
    ]);
    const m = await post('/projects/5/milestones', { title: 'y', start_date: '2030-02-01' });
    const upd = await put(`/projects/5/milestones/${m.json.id}`, { due_date: '2030-01-15' });
    expect([upd.status, upd.json]).toEqual([
      400,
      { message: 'Failed to update milestone {:due_date=>["must be greater than start date"]}' },
    ]);
  });

  it('closes and activates with state_event; needs one field; refuses another event', async () => {
    const closed = await put('/projects/6/milestones/1', { state_event: 'close' });
    expect([closed.status, closed.json.state]).toEqual([200, 'closed']);
    const active = await put('/projects/6/milestones/1', { state_event: 'activate', title: 'v1.0.x' });
    expect([active.json.state, active.json.title]).toEqual(['active', 'v1.0.x']);
    const none = await put('/projects/6/milestones/1', {});
    expect(none.json).toEqual({
      error: 'title, description, due_date, start_date, state_event are missing, at least one parameter must be provided',
    });
    const odd = await put('/projects/6/milestones/1', { state_event: 'reopen' });
    expect([odd.status, odd.json]).toEqual([400, { error: 'state_event does not have a valid value' }]);
  });

  it('a guest may read but not write (403); a planner may', async () => {
    const guest = await member('/projects/7', 3, 10);
    expect((await c.call('/projects/7/milestones', sudo(guest))).status).toBe(200);
    const refused = await post('/projects/7/milestones', { title: 'g' }, sudo(guest));
    expect([refused.status, refused.json]).toEqual([403, { message: '403 Forbidden' }]);
    const planner = await member('/projects/7', 4, 15);
    expect((await post('/projects/7/milestones', { title: 'p' }, sudo(planner))).status).toBe(201);
  });
});

describe('DELETE /projects/:id/milestones/:milestone_id', () => {
  it('deletes (204), and releases no longer know it', async () => {
    const gone = await c.call('/projects/8/milestones/1', { as: 'admin', method: 'DELETE' });
    expect(gone.status).toBe(204);
    const missing = await c.call('/projects/8/milestones/1', { as: 'user' });
    expect(missing.status).toBe(404);
    const rel = await post('/projects/8/releases', { tag_name: 'v9', ref: 'main', milestones: ['v1.0'] });
    expect([rel.status, rel.json]).toEqual([400, { message: 'Milestone(s) not found: v1.0' }]);
  });
});

describe('releases and milestones', () => {
  it('a release names milestones of the store, and shows them as they are now', async () => {
    const m = await post('/projects/10/milestones', { title: 'v3.0', due_date: '2030-06-30' });
    const rel = await post('/projects/10/releases', { tag_name: 'v3.0.0', ref: 'main', milestone_ids: [m.json.id] });
    expect([rel.status, rel.json.milestones.map((x: { id: number; iid: number }) => [x.id, x.iid])]).toEqual([201, [[m.json.id, 2]]]);
    await put(`/projects/10/milestones/${m.json.id}`, { state_event: 'close' });
    const read = await c.call('/projects/10/releases/v3.0.0', { as: 'admin' });
    expect(read.json.milestones).toEqual([(await c.call(`/projects/10/milestones/${m.json.id}`, { as: 'admin' })).json]);
    expect(read.json.milestones[0].state).toBe('closed');
  });
});

describe('/groups/:id/milestones', () => {
  it('creates, lists with group_id, refuses a title one of its projects has, deletes', async () => {
    const p = (await c.call('/projects/9', { as: 'admin' })).json;
    const gid = p.namespace.id;
    const m = await post(`/groups/${gid}/milestones`, { title: 'Sprint 1' });
    expect([m.status, m.json.group_id, m.json.iid, 'project_id' in m.json]).toEqual([201, gid, 1, false]);
    const dup = await post(`/groups/${gid}/milestones`, { title: 'v1.0' });
    expect(dup.status).toBe(400);
    const fromProject = await post('/projects/9/milestones', { title: 'Sprint 1' });
    expect(fromProject.json.message).toBe(
      'Failed to create milestone {:title=>["already being used for another group or project milestone."]}',
    );
    const gone = await c.call(`/groups/${gid}/milestones/${m.json.id}`, { as: 'admin', method: 'DELETE' });
    expect(gone.status).toBe(204);
    expect((await c.call(`/groups/${gid}/milestones/${m.json.id}`, { as: 'user' })).json).toEqual({ message: '404 Milestone Not Found' });
  });
});
