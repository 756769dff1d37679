// Following users: the service's lib/api/users.rb (`follow`/`unfollow` present the user as UserBasic, or
// `not_modified!`; `followers`/`following` paged, `forbidden!('Not authorized!')` without a user).
import { describe, expect, it } from 'vitest';
import { useSandbox } from './setup.js';

const c = useSandbox({ projects: 5 });

describe('POST /users/:id/follow and unfollow, GET /users/:id/followers and following', () => {
  it('follows (201, UserBasic), 304 with no body when nothing changes, and lists both sides', async () => {
    const on = await c.call('/users/3/follow', { as: 'user', method: 'POST' });
    expect([on.status, Object.keys(on.json), on.json.id]).toEqual([
      201,
      ['id', 'username', 'name', 'state', 'locked', 'avatar_url', 'web_url'],
      3,
    ]);
    const again = await c.call('/users/3/follow', { as: 'user', method: 'POST' });
    expect([again.status, again.text]).toEqual([304, '']);
    expect((await c.call('/users/3/follow', { as: 'admin', method: 'POST' })).status).toBe(201);
    const followers = await c.call('/users/3/followers', { as: 'user' });
    expect([followers.status, followers.json.map((u: { username: string }) => u.username), followers.headers['x-total']]).toEqual([
      200,
      ['jdoe', 'root'],
      '2',
    ]);
    const following = await c.call('/users/2/following', { as: 'admin' });
    expect(following.json.map((u: { id: number }) => u.id)).toEqual([3]);
    const off = await c.call('/users/3/unfollow', { as: 'user', method: 'POST' });
    expect([off.status, off.json.id]).toEqual([201, 3]);
    expect((await c.call('/users/3/unfollow', { as: 'user', method: 'POST' })).status).toBe(304);
    expect((await c.call('/users/3/followers', { as: 'user' })).json.map((u: { username: string }) => u.username)).toEqual(['root']);
  });

  it('does not follow oneself (304); an unknown user is 404 User Not Found; the lists need a signed-in caller', async () => {
    expect((await c.call('/users/2/follow', { as: 'user', method: 'POST' })).status).toBe(304);
    const none = await c.call('/users/9999/follow', { as: 'user', method: 'POST' });
    expect([none.status, none.json]).toEqual([404, { message: '404 User Not Found' }]);
    const anonymous = await c.call('/users/3/followers');
    expect([anonymous.status, anonymous.json]).toEqual([403, { message: '403 Forbidden - Not authorized!' }]);
  });
});
