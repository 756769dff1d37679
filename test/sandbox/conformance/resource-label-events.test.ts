// Label events: lib/api/resource_label_events.rb and entities/resource_label_event.rb (`id`, `user`,
// `created_at`, `resource_type`, `resource_id`, `label`, `action`).
import { describe, expect, it } from 'vitest';
import { useSandbox } from './setup.js';
import { TestClock } from '../../support/clock.js';

const clock = new TestClock();
const c = useSandbox({ projects: 5, clock: clock.now });
const call = (method: string, path: string, json: Record<string, unknown> = {}) => c.call(path, { as: 'admin', method, json });

describe('resource label events', () => {
  it('records the labels an issue gains and loses, with the label as it is', async () => {
    const made = await call('POST', '/projects/1/issues', { title: 'Labelled', labels: 'bug' });
    await call('PUT', `/projects/1/issues/${made.json.iid}`, { add_labels: 'backend', remove_labels: 'bug' });
    await call('PUT', `/projects/1/issues/${made.json.iid}`, { title: 'no label change' });
    const list = await c.call(`/projects/1/issues/${made.json.iid}/resource_label_events`, { as: 'user' });
    expect(list.json.map((e: { action: string; label: { name: string } }) => [e.action, e.label.name])).toEqual([
      ['add', 'bug'],
      ['add', 'backend'],
      ['remove', 'bug'],
    ]);
    expect(list.json[0]).toEqual({
      id: 1,
      user: {
        id: 1,
        username: 'root',
        name: 'Administrator',
        state: 'active',
        locked: false,
        avatar_url: null,
        web_url: `${c.sb.url}/root`,
      },
      created_at: new Date(clock.now()).toISOString(),
      resource_type: 'Issue',
      resource_id: made.json.id,
      label: { id: 1, name: 'bug', color: '#d9534f', description: 'Something does not work' },
      action: 'add',
    });
    const one = await c.call(`/projects/1/issues/${made.json.iid}/resource_label_events/2`, { as: 'user' });
    expect(one.json.label.name).toBe('backend');
    expect((await c.call(`/projects/1/issues/1/resource_label_events/2`, { as: 'user' })).json).toEqual({ message: '404 Not found' });
  });

  it('records a merge request’s label changes, a group label with its own id', async () => {
    const before = (await c.call('/projects/1/merge_requests/1', { as: 'admin' })).json.labels as string[];
    expect(before).toEqual(['feature']);
    await call('PUT', '/projects/1/merge_requests/1', { labels: 'security' });
    const list = await c.call('/projects/1/merge_requests/1/resource_label_events', { as: 'user' });
    const seen = list.json.map((e: { action: string; resource_type: string; label: { name: string } }) => [
      e.action,
      e.resource_type,
      e.label.name,
    ]);
    expect(seen).toEqual([
      ['add', 'MergeRequest', 'security'],
      ['remove', 'MergeRequest', 'feature'],
    ]);
    const group = (await c.call('/projects/1/labels?search=security', { as: 'user' })).json[0];
    expect(group.is_project_label).toBe(false);
    expect(list.json[0].label).toEqual({ id: group.id, name: 'security', color: '#dc143c', description: 'Needs a security review' });
  });
});
