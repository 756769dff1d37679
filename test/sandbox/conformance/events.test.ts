// Contribution events: lib/api/events.rb (filters, `scope=all`), entities/event.rb and
// push_event_payload.rb (the fields), app/models/event.rb (`action_name`: opened, closed, accepted,
// commented on, pushed new, pushed to, joined, left, created).
import { describe, expect, it } from 'vitest';
import { useSandbox } from './setup.js';
import { TestClock } from '../../support/clock.js';

const clock = new TestClock();
const c = useSandbox({ projects: 5, clock: clock.now });
const call = (method: string, path: string, json: Record<string, unknown> = {}, as: 'admin' | 'user' = 'user') =>
  c.call(path, { as, method, json });
const names = (r: { json: Array<{ action_name: string }> }) => r.json.map((e) => e.action_name);

describe('events', () => {
  it('records the writes the service records, newest first, with their targets and payloads', async () => {
    const at = new Date(clock.now()).toISOString();
    const opened = await call('POST', '/projects/1/issues', { title: 'Broken login' });
    clock.advance(1000);
    await call('PUT', `/projects/1/issues/${opened.json.iid}`, { state_event: 'close' });
    await call('POST', `/projects/1/issues/${opened.json.iid}/notes`, { body: 'Fixed' });
    const branch = await call('POST', '/projects/1/repository/branches', { branch: 'topic', ref: 'main' });
    await call('PUT', `/projects/1/issues/${opened.json.iid}`, { title: 'renamed' });
    const mine = await c.call('/events', { as: 'user' });
    expect(names(mine)).toEqual(['pushed new', 'commented on', 'closed', 'opened']);
    expect(mine.json[3]).toEqual({
      id: 1,
      project_id: 1,
      action_name: 'opened',
      target_id: opened.json.id,
      target_iid: opened.json.iid,
      target_type: 'Issue',
      author_id: 2,
      target_title: 'Broken login',
      created_at: at,
      author: { id: 2, username: 'jdoe', name: 'Jane Doe', state: 'active', locked: false, avatar_url: null, web_url: `${c.sb.url}/jdoe` },
      imported: false,
      imported_from: 'none',
      author_username: 'jdoe',
    });
    expect(mine.json[0].push_data).toEqual({
      commit_count: 0,
      action: 'created',
      ref_type: 'branch',
      commit_from: null,
      commit_to: branch.json.commit.id,
      ref: 'topic',
      commit_title: branch.json.commit.title,
      ref_count: null,
    });
    expect([mine.json[1].target_type, mine.json[1].note.body]).toEqual(['Note', 'Fixed']);
  });

  it('filters by action, target type, dates and order, and by project and user', async () => {
    expect(names(await c.call('/projects/1/events?action=closed', { as: 'user' }))).toEqual(['closed']);
    expect(names(await c.call('/users/jdoe/events?target_type=issue&sort=asc', { as: 'admin' }))).toEqual(['opened', 'closed']);
    const today = new Date(clock.now()).toISOString().slice(0, 10);
    expect((await c.call(`/events?before=${today}`, { as: 'user' })).json).toEqual([]);
    expect((await c.call('/events', { as: 'admin' })).json).toEqual([]);
    expect(names(await c.call('/events?scope=all&per_page=1', { as: 'admin' }))).toEqual(['pushed new']);
    expect((await c.call('/events?before=yesterday', { as: 'user' })).json).toEqual({ error: 'before is invalid' });
    expect((await c.call('/users/nobody-here/events', { as: 'user' })).json).toEqual({ message: '404 User Not Found' });
  });

  it('records joining and leaving a project as the member’s own events', async () => {
    await call('POST', '/projects/2/members', { user_id: 5, access_level: 30 }, 'admin');
    await call('DELETE', '/projects/2/members/5', {}, 'admin');
    const user5 = await c.call('/users/5/events', { as: 'admin' });
    expect(
      user5.json.map((e: { action_name: string; author_id: number; project_id: number }) => [e.action_name, e.author_id, e.project_id]),
    ).toEqual([
      ['left', 5, 2],
      ['joined', 5, 2],
    ]);
  });
});
