// State events: the service's lib/api/resource_state_events.rb and entities/resource_state_event.rb
// (`{id, user, created_at, resource_type, resource_id, state, source_commit, source_merge_request}`,
// oldest first, paged; an unknown id is `find`'s 404).
import { describe, expect, it } from 'vitest';
import { useSandbox } from './setup.js';

const c = useSandbox({ projects: 5 });
const call = (method: string, path: string, json: Record<string, unknown> = {}) => c.call(path, { as: 'admin', method, json });
const states = (r: { json: Array<{ state: string }> }) => r.json.map((e) => e.state);

describe('resource state events', () => {
  it('records an issue closed and reopened by an edit, and closed by a /close note; nothing for an edit that keeps the state', async () => {
    const issue = await call('POST', '/projects/3/issues', { title: 'States' });
    const base = `/projects/3/issues/${issue.json.iid}`;
    expect((await c.call(`${base}/resource_state_events`, { as: 'user' })).json).toEqual([]);
    await call('PUT', base, { state_event: 'close' });
    await call('PUT', base, { title: 'States, renamed' });
    await call('PUT', base, { state_event: 'reopen' });
    await call('POST', `${base}/notes`, { body: '/close' });
    const r = await c.call(`${base}/resource_state_events`, { as: 'user' });
    expect([r.status, states(r), r.headers['x-total']]).toEqual([200, ['closed', 'reopened', 'closed'], '3']);
    expect(r.json[0]).toEqual({
      id: r.json[0].id,
      user: r.json[0].user,
      created_at: r.json[0].created_at,
      resource_type: 'Issue',
      resource_id: issue.json.id,
      state: 'closed',
      source_commit: null,
      source_merge_request: null,
    });
    expect(r.json[0].user.username).toBe('root');
    const one = await c.call(`${base}/resource_state_events/${r.json[1].id}`, { as: 'user' });
    expect([one.status, one.json.state]).toEqual([200, 'reopened']);
    const none = await c.call(`${base}/resource_state_events/999`, { as: 'user' });
    expect([none.status, none.json]).toEqual([404, { message: '404 Not found' }]);
  });

  it('records a merge request closed and reopened, and one merged (a seeded one mergeable now, no preparation to wait for)', async () => {
    const r = await c.call('/merge_requests?scope=all&state=opened&per_page=100', { as: 'admin' });
    const open = r.json as Array<{ project_id: number; iid: number; detailed_merge_status: string }>;
    const mergeable = open.find((m) => m.detailed_merge_status === 'mergeable')!;
    const other = open.find((m) => m !== mergeable)!;
    const base = `/projects/${other.project_id}/merge_requests/${other.iid}`;
    await call('PUT', base, { state_event: 'close' });
    await call('PUT', base, { state_event: 'reopen' });
    const reopened = await c.call(`${base}/resource_state_events`, { as: 'admin' });
    expect([states(reopened), reopened.json[0].resource_type]).toEqual([['closed', 'reopened'], 'MergeRequest']);
    const mergedBase = `/projects/${mergeable.project_id}/merge_requests/${mergeable.iid}`;
    expect((await call('PUT', `${mergedBase}/merge`)).status).toBe(200);
    expect(states(await c.call(`${mergedBase}/resource_state_events`, { as: 'admin' }))).toEqual(['merged']);
  });
});
