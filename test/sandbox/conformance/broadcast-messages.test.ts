// Broadcast messages: gitlab-org/gitlab lib/api/admin/broadcast_messages.rb (list and read without
// authentication, newest first; writes `authenticated_as_admin!`; `starts_at` defaults to now and `ends_at`
// to an hour later; `broadcast_type` banner|notification, `theme` and `target_access_levels` by their
// declared values; delete `destroy_conditionally!` 204), entities/system/broadcast_message.rb (fields and
// `active?`), app/models/system/broadcast_message.rb (presence of `message`, colour codes).
import { describe, expect, it } from 'vitest';
import { useSandbox } from './setup.js';

const c = useSandbox({ projects: 3 });
const admin = (method: string, path: string, json?: unknown) => c.call(path, { as: 'admin', method, json });

describe('/broadcast_messages', () => {
  it('creates (201) with the defaults: now to an hour later, a banner, active', async () => {
    const r = await admin('POST', '/broadcast_messages', { message: 'Maintenance tonight' });
    expect(r.status).toBe(201);
    const { starts_at, ends_at, ...rest } = r.json;
    expect(Date.parse(ends_at) - Date.parse(starts_at)).toBe(3_600_000);
    expect(rest).toEqual({
      id: 1,
      message: 'Maintenance tonight',
      color: '#E1D8FF',
      font: '#FFFFFF',
      target_access_levels: [],
      target_path: null,
      broadcast_type: 'banner',
      theme: 'indigo',
      dismissable: null,
      active: true,
    });
  });

  it('is active only between its times, and lists newest first without authentication', async () => {
    const later = await admin('POST', '/broadcast_messages', {
      message: 'Next year',
      starts_at: '2099-01-01T00:00:00Z',
      ends_at: '2099-01-02T00:00:00Z',
      broadcast_type: 'notification',
      target_access_levels: [40, 50],
      dismissable: true,
    });
    expect([later.status, later.json.active, later.json.target_access_levels, later.json.starts_at]).toEqual([
      201,
      false,
      [40, 50],
      '2099-01-01T00:00:00.000Z',
    ]);
    const list = await c.call('/broadcast_messages');
    expect([list.status, list.headers['x-total'], list.json.map((m: { id: number }) => m.id)]).toEqual([200, '2', [2, 1]]);
    expect((await c.call('/broadcast_messages/2')).json.message).toBe('Next year');
  });

  it('refuses what Grape and the model refuse (400), a non-administrator (403), an unknown id (404)', async () => {
    const cases: Array<[unknown, unknown]> = [
      [{}, { error: 'message is missing' }],
      [{ message: 'x', broadcast_type: 'popup' }, { error: 'broadcast_type does not have a valid value' }],
      [{ message: 'x', target_access_levels: [15] }, { error: 'target_access_levels does not have a valid value' }],
      [{ message: 'x', starts_at: 'soon' }, { error: 'starts_at is invalid' }],
      [{ message: 'x', color: 'red' }, { message: { color: ['must be a valid color code'] } }],
      [{ message: ' ' }, { message: { message: ["can't be blank"] } }],
    ];
    for (const [body, error] of cases) {
      const r = await admin('POST', '/broadcast_messages', body);
      expect([r.status, r.json]).toEqual([400, error]);
    }
    const user = await c.call('/broadcast_messages', { as: 'user', method: 'POST', json: { message: 'x' } });
    expect([user.status, user.json]).toEqual([403, { message: '403 Forbidden' }]);
    const unknown = await c.call('/broadcast_messages/99');
    expect([unknown.status, unknown.json]).toEqual([404, { message: '404 Not found' }]);
  });

  it('updates (200) and deletes (204)', async () => {
    const r = await admin('PUT', '/broadcast_messages/1', { message: 'Maintenance moved', theme: 'red' });
    expect([r.status, r.json.message, r.json.theme]).toEqual([200, 'Maintenance moved', 'red']);
    const gone = await admin('DELETE', '/broadcast_messages/1');
    expect([gone.status, gone.text]).toEqual([204, '']);
    expect((await c.call('/broadcast_messages/1')).status).toBe(404);
  });
});
