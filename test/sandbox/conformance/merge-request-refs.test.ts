// A merge request's merge ref and approval reset: lib/api/merge_requests.rb `merge_ref` (the mergeability
// check's message as a 400) and `reset_approvals` (bots only, `unauthorized!` otherwise, `status :accepted`).
import { describe, expect, it } from 'vitest';
import { useSandbox } from './setup.js';

const c = useSandbox({ projects: 5 });

describe('merge ref and approval reset', () => {
  it('answers the merge ref of an open merge request, and 400 once it is closed', async () => {
    const ref = await c.call('/projects/1/merge_requests/1/merge_ref', { as: 'user' });
    expect(ref.status).toBe(200);
    expect(Object.keys(ref.json)).toEqual(['commit_id']);
    expect(ref.json.commit_id).toMatch(/^[0-9a-f]{40}$/);
    expect((await c.call('/projects/1/merge_requests/1/merge_ref', { as: 'user' })).json).toEqual(ref.json);
    await c.call('/projects/1/merge_requests/1', { as: 'admin', method: 'PUT', json: { state_event: 'close' } });
    expect((await c.call('/projects/1/merge_requests/1/merge_ref', { as: 'user' })).json).toEqual({
      message: 'Merge request is not mergeable',
    });
    expect((await c.call('/projects/1/merge_requests/999/merge_ref', { as: 'user' })).json).toEqual({ message: '404 Not found' });
  });

  it('lets a project bot reset the approvals (202) and refuses a person, administrators included (401)', async () => {
    expect((await c.call('/projects/2/merge_requests/1/approve', { as: 'admin', method: 'POST' })).status).toBe(201);
    const bot = await c.call('/projects/2/access_tokens', {
      as: 'admin',
      method: 'POST',
      json: { name: 'reset-bot', scopes: ['api'], access_level: 30 },
    });
    expect((await c.call('/projects/2/merge_requests/1/reset_approvals', { as: 'admin', method: 'PUT' })).json).toEqual({
      message: '401 Unauthorized',
    });
    const reset = await c.call('/projects/2/merge_requests/1/reset_approvals', { token: bot.json.token, method: 'PUT' });
    expect([reset.status, reset.text]).toEqual([202, '']);
    expect((await c.call('/projects/2/merge_requests/1/approvals', { as: 'admin' })).json.approved_by).toEqual([]);
  });
});
