// Discussions on issues and merge requests: lib/api/discussions.rb (list, get, create, reply, resolve),
// entities/discussion.rb (`id`, `individual_note`, `notes`) and note.rb (`DiscussionNote`, `resolvable`,
// `resolved`, `resolved_by`, `resolved_at`).
import { describe, expect, it } from 'vitest';
import { useSandbox } from './setup.js';
import { TestClock } from '../../support/clock.js';

const clock = new TestClock();
const c = useSandbox({ projects: 5, clock: clock.now });
const call = (method: string, path: string, json: Record<string, unknown> = {}, as: 'admin' | 'user' = 'user') =>
  c.call(path, { as, method, json });

describe('discussions', () => {
  it('shows each note of an issue as a discussion, starts a thread, and takes replies', async () => {
    const notes = (await c.call('/projects/1/issues/1/notes?sort=asc&per_page=100', { as: 'user' })).json as Array<{ id: number }>;
    const before = await c.call('/projects/1/issues/1/discussions?per_page=100', { as: 'user' });
    expect(
      before.json.map((d: { individual_note: boolean; notes: Array<{ id: number }> }) => [d.individual_note, d.notes.map((n) => n.id)]),
    ).toEqual(notes.map((n) => [true, [n.id]]));
    const started = await call('POST', '/projects/1/issues/1/discussions', { body: 'Shall we?' });
    expect([started.status, started.json.individual_note, started.json.notes[0].body, started.json.notes[0].type]).toEqual([
      201,
      false,
      'Shall we?',
      'DiscussionNote',
    ]);
    const reply = await call('POST', `/projects/1/issues/1/discussions/${started.json.id}/notes`, { body: 'Yes' });
    expect([reply.status, reply.json.body, reply.json.type]).toEqual([201, 'Yes', 'DiscussionNote']);
    const one = await c.call(`/projects/1/issues/1/discussions/${started.json.id}`, { as: 'user' });
    expect(one.json.notes.map((n: { body: string }) => n.body)).toEqual(['Shall we?', 'Yes']);
    const after = await c.call('/projects/1/issues/1/discussions?per_page=100', { as: 'user' });
    expect(after.json.length).toBe(notes.length + 1);
    expect((await c.call('/projects/1/issues/1/notes?per_page=100', { as: 'user' })).json.length).toBe(notes.length + 2);
  });

  it('replying to a lone note makes it a thread that keeps its id', async () => {
    const lone = await call('POST', '/projects/2/issues/1/notes', { body: 'First' });
    const list = await c.call('/projects/2/issues/1/discussions?per_page=100', { as: 'user' });
    const d = list.json.find((x: { notes: Array<{ id: number }> }) => x.notes[0]!.id === lone.json.id);
    expect(d.individual_note).toBe(true);
    await call('POST', `/projects/2/issues/1/discussions/${d.id}/notes`, { body: 'Second' });
    const same = await c.call(`/projects/2/issues/1/discussions/${d.id}`, { as: 'user' });
    expect([same.json.individual_note, same.json.notes.map((n: { body: string }) => n.body)]).toEqual([false, ['First', 'Second']]);
  });

  it('resolves a merge request thread and reopens it; an issue thread is not resolvable', async () => {
    const started = await call('POST', '/projects/1/merge_requests/1/discussions', { body: 'Rename this' }, 'admin');
    expect([started.json.notes[0].resolvable, started.json.notes[0].resolved]).toEqual([true, false]);
    const resolved = await c.call(`/projects/1/merge_requests/1/discussions/${started.json.id}?resolved=true`, {
      as: 'admin',
      method: 'PUT',
    });
    expect([resolved.json.notes[0].resolved, resolved.json.notes[0].resolved_by.username, resolved.json.notes[0].resolved_at]).toEqual([
      true,
      'root',
      new Date(clock.now()).toISOString(),
    ]);
    const reopened = await c.call(`/projects/1/merge_requests/1/discussions/${started.json.id}?resolved=false`, {
      as: 'admin',
      method: 'PUT',
    });
    expect([reopened.json.notes[0].resolved, reopened.json.notes[0].resolved_by]).toEqual([false, null]);
    expect((await c.call('/projects/1/issues/1/discussions/nope', { as: 'user' })).json).toEqual({ message: '404 Discussion Not Found' });
    expect((await call('POST', '/projects/1/issues/1/discussions', {})).json).toEqual({ error: 'body is missing' });
    expect((await c.call(`/projects/1/issues/1/discussions/${started.json.id}?resolved=true`, { as: 'admin', method: 'PUT' })).status).toBe(
      405,
    );
  });
});
