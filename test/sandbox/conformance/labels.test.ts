// Project and group labels: the service's lib/api/labels.rb, group_labels.rb, helpers/label_helpers.rb
// (find by id or title, `conflict!('Label already exists')`, `not_found!('Label')`, `at_least_one_of`,
// `destroy_conditionally!` → 204), entities/label_basic.rb, label.rb, project_label.rb (the fields,
// counts only with `with_counts`), app/models/label.rb (title and colour validation: `must be a valid
// color code`) and the project and group policies (`admin_label`: planner and up). The sandbox's
// choices are in src/sandbox/README.md, "Labels".
import { describe, expect, it } from 'vitest';
import { useSandbox } from './setup.js';

const c = useSandbox({ projects: 10 });
const sudo = (username: string) => ({ as: 'admin' as const, headers: { Sudo: username } });
const names = (json: Array<{ name: string }>) => json.map((l) => l.name);
const post = (path: string, json: Record<string, unknown>, as: object = { as: 'admin' }) => c.call(path, { ...as, method: 'POST', json });
const put = (path: string, json: Record<string, unknown>) => c.call(path, { as: 'admin', method: 'PUT', json });

/** A user (not a member of acme through the seed) given `level` on project 3 or on group globex. */
async function member(where: '/projects/3' | '/groups/globex', userId: number, level: number): Promise<string> {
  const r = await c.call(`${where}/members`, { as: 'admin', method: 'POST', json: { user_id: userId, access_level: level } });
  expect(r.status).toBe(201);
  return r.json.username;
}

describe('GET /projects/:id/labels', () => {
  it('lists the project labels and its ancestor groups ones by title, as ProjectLabel entities, paged', async () => {
    const r = await c.call('/projects/1/labels?per_page=4', { as: 'user' });
    expect([r.status, r.headers['x-total'], r.headers['x-total-pages']]).toEqual([200, '6', '2']);
    expect(names(r.json)).toEqual(['backend', 'bug', 'documentation', 'feature']);
    expect(r.json[1]).toEqual({
      id: 1,
      name: 'bug',
      color: '#d9534f',
      description: 'Something does not work',
      description_html: '<p dir="auto">Something does not work</p>',
      text_color: '#FFFFFF',
      remove_on_close: false,
      subscribed: false,
      priority: 1,
      is_project_label: true,
    });
    const rest = await c.call('/projects/1/labels?per_page=4&page=2', { as: 'user' });
    expect(rest.json.map((l: { name: string; is_project_label: boolean }) => [l.name, l.is_project_label])).toEqual([
      ['needs-review', false],
      ['security', false],
    ]);
  });

  it('include_ancestor_groups=false leaves the group labels out; search filters by title', async () => {
    const own = await c.call('/projects/1/labels?include_ancestor_groups=false', { as: 'user' });
    expect(names(own.json)).toEqual(['backend', 'bug', 'documentation', 'feature']);
    const found = await c.call('/projects/1/labels?search=E', { as: 'user' });
    expect(names(found.json)).toEqual(['backend', 'documentation', 'feature', 'needs-review', 'security']);
  });

  it('with_counts=true adds the issue and merge request counts the lists answer', async () => {
    const r = await c.call('/projects/1/labels?with_counts=true&include_ancestor_groups=false', { as: 'user' });
    for (const label of r.json) {
      const total = async (what: string, state: string) =>
        Number((await c.call(`/projects/1/${what}?labels=${label.name}&state=${state}`, { as: 'user' })).headers['x-total']);
      expect([label.open_issues_count, label.closed_issues_count, label.open_merge_requests_count]).toEqual([
        await total('issues', 'opened'),
        await total('issues', 'closed'),
        await total('merge_requests', 'opened'),
      ]);
    }
    expect(r.json.map((l: { open_issues_count: number }) => l.open_issues_count)).toEqual([2, 3, 0, 2]);
    const single = await c.call('/projects/1/labels/bug?with_counts=true', { as: 'user' });
    expect('open_issues_count' in single.json).toBe(false);
  });

  it('needs a signed-in caller', async () => {
    const r = await c.call('/projects/1/labels');
    expect([r.status, r.json]).toEqual([401, { message: '401 Unauthorized' }]);
  });
});

describe('GET /projects/:id/labels/:label_id', () => {
  it('finds a label by id or by title, group labels included', async () => {
    const byId = await c.call('/projects/1/labels/2', { as: 'user' });
    const byTitle = await c.call('/projects/1/labels/feature', { as: 'user' });
    expect([byId.status, byId.json]).toEqual([200, byTitle.json]);
    const group = await c.call('/projects/1/labels/security', { as: 'user' });
    expect([group.json.is_project_label, group.json.priority]).toEqual([false, null]);
  });

  it('answers 404 Label Not Found for an unknown one', async () => {
    const r = await c.call('/projects/1/labels/nothing-here', { as: 'user' });
    expect([r.status, r.json]).toEqual([404, { message: '404 Label Not Found' }]);
  });
});

describe('POST /projects/:id/labels', () => {
  it('creates a label (201): a CSS colour name becomes its hex code, priority kept', async () => {
    const r = await post('/projects/4/labels', { name: 'ops', color: 'Red', description: 'a <b>', priority: 3 });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ name: 'ops', color: '#FF0000', description_html: '<p dir="auto">a &lt;b&gt;</p>', priority: 3 });
    expect(r.json.text_color).toBe('#FFFFFF');
    const light = await post('/projects/4/labels', { name: 'pale', color: '#eee' });
    expect([light.status, light.json.color, light.json.text_color, light.json.priority]).toEqual([201, '#eee', '#333333', null]);
  });

  it('answers 409 Label already exists for a title the project has, or has from a group', async () => {
    for (const name of ['bug', 'security']) {
      const r = await post('/projects/4/labels', { name, color: '#000000' });
      expect([r.status, r.json]).toEqual([409, { message: 'Label already exists' }]);
    }
  });

  it('names missing parameters, then checks title and colour as the model does', async () => {
    const missing = await post('/projects/4/labels', {});
    expect([missing.status, missing.json]).toEqual([400, { error: 'name is missing, color is missing' }]);
    const priority = await post('/projects/4/labels', { name: 'x', color: '#123456', priority: 'high' });
    expect([priority.status, priority.json]).toEqual([400, { error: 'priority is invalid' }]);
    const colour = await post('/projects/4/labels', { name: 'x', color: '#12345' });
    expect([colour.status, colour.json]).toEqual([400, { message: { color: ['must be a valid color code'] } }]);
    const comma = await post('/projects/4/labels', { name: 'a,b', color: 'blueish' });
    expect([comma.status, comma.json]).toEqual([400, { message: { title: ['is invalid'], color: ['must be a valid color code'] } }]);
  });

  it('a guest may read labels but not create them (403); a planner or reporter may', async () => {
    const guest = await member('/projects/3', 3, 10);
    expect((await c.call('/projects/3/labels', sudo(guest))).status).toBe(200);
    const refused = await post('/projects/3/labels', { name: 'g', color: '#000000' }, sudo(guest));
    expect([refused.status, refused.json]).toEqual([403, { message: '403 Forbidden' }]);
    const planner = await member('/projects/3', 4, 15);
    expect((await post('/projects/3/labels', { name: 'p', color: '#000000' }, sudo(planner))).status).toBe(201);
    const reporter = await member('/projects/3', 5, 20);
    expect((await post('/projects/3/labels', { name: 'r', color: '#000000' }, sudo(reporter))).status).toBe(201);
  });
});

describe('PUT and DELETE /projects/:id/labels/:label_id', () => {
  it('renames and recolours (200); priority "" removes the priority', async () => {
    const r = await put('/projects/5/labels/bug', { new_name: 'defect', color: 'green', priority: '' });
    expect([r.status, r.json.name, r.json.color, r.json.priority]).toEqual([200, 'defect', '#008000', null]);
    expect((await c.call('/projects/5/labels/bug', { as: 'user' })).status).toBe(404);
  });

  it('needs one of the fields, refuses a title in use, and cannot touch a group label', async () => {
    const none = await put('/projects/5/labels/feature', {});
    expect([none.status, none.json]).toEqual([
      400,
      { error: 'new_name, color, description, priority, archived are missing, at least one parameter must be provided' },
    ]);
    const taken = await put('/projects/5/labels/feature', { new_name: 'backend' });
    expect([taken.status, taken.json]).toEqual([400, { message: { title: ['has already been taken'] } }]);
    const group = await put('/projects/5/labels/security', { color: '#000000' });
    expect([group.status, group.json]).toEqual([404, { message: '404 Label Not Found' }]);
  });

  it('deletes (204), and the label is gone', async () => {
    const r = await c.call('/projects/5/labels/documentation', { as: 'admin', method: 'DELETE' });
    expect([r.status, r.text]).toEqual([204, '']);
    expect((await c.call('/projects/5/labels/documentation', { as: 'admin', method: 'DELETE' })).status).toBe(404);
  });
});

describe('/groups/:id/labels', () => {
  it('lists a group labels as GroupLabel entities (no priority, no is_project_label)', async () => {
    const r = await c.call('/groups/acme/labels', { as: 'user' });
    expect([r.status, names(r.json)]).toEqual([200, ['needs-review', 'security']]);
    expect(Object.keys(r.json[0]).sort()).toEqual([
      'color',
      'description',
      'description_html',
      'id',
      'name',
      'remove_on_close',
      'subscribed',
      'text_color',
    ]);
    const sub = await c.call('/groups/acme%2Fplatform/labels?include_ancestor_groups=false', { as: 'user' });
    expect(sub.json).toEqual([]);
  });

  it('counts the issues of every project below the group', async () => {
    const issue = await post('/projects/1/issues', { title: 'leak', labels: 'security' });
    expect(issue.status).toBe(201);
    const r = await c.call('/groups/acme/labels?with_counts=true', { as: 'user' });
    const security = r.json.find((l: { name: string }) => l.name === 'security');
    expect([security.open_issues_count, security.closed_issues_count, security.open_merge_requests_count]).toEqual([1, 0, 0]);
  });

  it('creates, updates and deletes; 409 for a title it has, 403 for a guest', async () => {
    const created = await post('/groups/globex/labels', { name: 'infra', color: 'navy' });
    expect([created.status, created.json.color]).toEqual([201, '#000080']);
    const dup = await post('/groups/globex/labels', { name: 'infra', color: 'navy' });
    expect([dup.status, dup.json]).toEqual([409, { message: 'Label already exists' }]);
    const none = await put('/groups/globex/labels/infra', {});
    expect(none.json).toEqual({ error: 'new_name, color, description, archived are missing, at least one parameter must be provided' });
    const renamed = await put(`/groups/globex/labels/${created.json.id}`, { new_name: 'platform' });
    expect([renamed.status, renamed.json.name]).toEqual([200, 'platform']);
    const guest = await member('/groups/globex', 7, 10);
    const refused = await post('/groups/globex/labels', { name: 'g', color: '#000000' }, sudo(guest));
    expect([refused.status, refused.json]).toEqual([403, { message: '403 Forbidden' }]);
    const gone = await c.call('/groups/globex/labels/platform', { as: 'admin', method: 'DELETE' });
    expect(gone.status).toBe(204);
    const missing = await c.call('/groups/globex/labels/platform', { as: 'admin' });
    expect([missing.status, missing.json]).toEqual([404, { message: '404 Label Not Found' }]);
  });
});

describe('the label named in the body: PUT and DELETE /projects/:id/labels and /groups/:id/labels (deprecated, still served)', () => {
  it('updates and deletes by name or label_id, exactly one of them (python-gitlab 3.x and the Ruby gem send these)', async () => {
    const made = await post('/projects/6/labels', { name: 'by-body', color: '#123456' });
    const byName = await put('/projects/6/labels', { name: 'by-body', new_name: 'by-body-2' });
    expect([byName.status, byName.json.id, byName.json.name]).toEqual([200, made.json.id, 'by-body-2']);
    const byId = await put('/projects/6/labels', { label_id: made.json.id, color: '#654321' });
    expect([byId.status, byId.json.name, byId.json.color]).toEqual([200, 'by-body-2', '#654321']);
    const neither = await put('/projects/6/labels', { color: '#111111' });
    expect([neither.status, neither.json]).toEqual([400, { error: 'label_id, name are missing, exactly one parameter must be provided' }]);
    const both = await put('/projects/6/labels', { name: 'by-body-2', label_id: made.json.id, color: '#111111' });
    expect([both.status, both.json]).toEqual([400, { error: 'label_id, name are mutually exclusive' }]);
    const nothing = await put('/projects/6/labels', { name: 'by-body-2' });
    expect(nothing.status).toBe(400);
    const unknown = await put('/projects/6/labels', { name: 'no-such', color: '#111111' });
    expect([unknown.status, unknown.json]).toEqual([404, { message: '404 Label Not Found' }]);
    const gone = await c.call('/projects/6/labels', { as: 'admin', method: 'DELETE', json: { label_id: made.json.id } });
    expect(gone.status).toBe(204);
    expect((await c.call('/projects/6/labels/by-body-2', { as: 'admin' })).status).toBe(404);
  });

  it('a group takes name or label_id to update, and only name to delete', async () => {
    const made = await post('/groups/globex/labels', { name: 'group-by-body', color: '#123456' });
    const renamed = await put('/groups/globex/labels', { name: 'group-by-body', description: 'now described' });
    expect([renamed.status, renamed.json.description]).toEqual([200, 'now described']);
    const byId = await c.call('/groups/globex/labels', { as: 'admin', method: 'DELETE', json: { label_id: made.json.id } });
    expect([byId.status, byId.json]).toEqual([400, { error: 'name is missing' }]);
    const byName = await c.call('/groups/globex/labels', { as: 'admin', method: 'DELETE', json: { name: 'group-by-body' } });
    expect(byName.status).toBe(204);
  });
});

describe('POST …/labels/:label_id/subscribe and unsubscribe', () => {
  it('subscribes the caller (201, subscribed: true for them only), 304 with no body when nothing changes', async () => {
    const on = await post('/projects/5/labels/feature/subscribe', {});
    expect([on.status, on.json.name, on.json.subscribed]).toEqual([201, 'feature', true]);
    const again = await post('/projects/5/labels/feature/subscribe', {});
    expect([again.status, again.text]).toEqual([304, '']);
    expect((await c.call('/projects/5/labels/feature', { as: 'admin' })).json.subscribed).toBe(true);
    expect((await c.call('/projects/5/labels/feature', { as: 'user' })).json.subscribed).toBe(false);
    const off = await post('/projects/5/labels/feature/unsubscribe', {});
    expect([off.status, off.json.subscribed]).toEqual([201, false]);
    expect((await post('/projects/5/labels/feature/unsubscribe', {})).status).toBe(304);
  });

  it('reaches a group label through a project or its group; an unknown label is 404 Label Not Found', async () => {
    const viaProject = await post('/projects/5/labels/security/subscribe', {});
    expect([viaProject.status, viaProject.json.is_project_label, viaProject.json.subscribed]).toEqual([201, false, true]);
    const viaGroup = await post('/groups/globex/labels/security/subscribe', {});
    expect(viaGroup.status).toBe(304);
    const none = await post('/groups/globex/labels/no-such/unsubscribe', {});
    expect([none.status, none.json]).toEqual([404, { message: '404 Label Not Found' }]);
  });
});

describe('PUT /projects/:id/labels/:label_id/promote', () => {
  it('turns the project label into a group label (200, GroupLabel) and removes that title from every project of the group', async () => {
    await post('/projects/5/labels', { name: 'to-promote', color: '#0000ff', description: 'shared' });
    await post('/projects/6/labels', { name: 'to-promote', color: '#ff0000' });
    const r = await put('/projects/6/labels/to-promote/promote', {});
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      id: r.json.id,
      name: 'to-promote',
      color: '#ff0000',
      description: null,
      description_html: '',
      text_color: '#FFFFFF',
      remove_on_close: false,
      subscribed: false,
    });
    const group = await c.call('/groups/globex/labels/to-promote', { as: 'admin' });
    expect([group.status, group.json.id]).toEqual([200, r.json.id]);
    for (const project of [5, 6]) {
      const seen = await c.call(`/projects/${project}/labels/to-promote`, { as: 'admin' });
      expect([seen.json.id, seen.json.is_project_label]).toEqual([r.json.id, false]);
    }
  });

  it('answers 400 for a project outside any group, 404 Label Not Found for an unknown label', async () => {
    const personal = await put('/projects/8/labels/bug/promote', {});
    expect([personal.status, personal.json]).toEqual([400, { message: 'Failed to promote project label to group label' }]);
    const none = await put('/projects/6/labels/no-such/promote', {});
    expect([none.status, none.json]).toEqual([404, { message: '404 Label Not Found' }]);
  });
});
