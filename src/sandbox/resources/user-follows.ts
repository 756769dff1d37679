// Following users (lib/api/users.rb `follow`, `unfollow`, `followers`, `following`): following or
// unfollowing answers 201 with the user as UserBasic, or `304 Not Modified` with no body when nothing
// changes (following oneself included, as `User#follow` refuses it); the lists are UserBasic, paged,
// for signed-in callers (anonymous: `403 Forbidden - Not authorized!`). An unknown user is `404 User Not Found` (README, "Following").
import { ask } from '../engine/ports.js';
import { userBasic } from '../entities/user.js';
import type { Ctx } from '../server/context.js';
import { E } from '../server/errors.js';
import { pageOf } from '../server/paging.js';
import { sendJson, sendList, sendText } from '../server/respond.js';
import { storeFor } from '../store/collection.js';
import type { Mounts } from './mounts.js';

/** `<follower id>:<followee id>`, in the order the follows were made. */
const follows = storeFor(() => ({ pairs: new Set<string>() }));

const pair = (follower: number, followee: number) => `${follower}:${followee}`;

function listed(ctx: Ctx, side: 0 | 1): void {
  if (!ctx.user) throw E.forbidden('Not authorized!');
  const user = ask('targetUser')(ctx);
  const ids = [...follows(ctx.world).pairs]
    .map((p) => p.split(':').map(Number) as [number, number])
    .filter((p) => p[side === 0 ? 1 : 0] === user.id)
    .map((p) => p[side]);
  sendList(
    ctx,
    pageOf(ctx, ids).map((id) => userBasic(ctx.world, ctx.world.users.get(id)!)),
  );
}

export function mountUserFollows({ root }: Mounts): void {
  for (const [action, on] of [
    ['follow', true],
    ['unfollow', false],
  ] as const) {
    root.post(`/users/:id/${action}`, { auth: 'user' }, (ctx) => {
      const user = ask('targetUser')(ctx);
      const set = follows(ctx.world).pairs;
      const key = pair(ctx.user!.id, user.id);
      if (set.has(key) === on || user.id === ctx.user!.id) return sendText(ctx, 304, '', 'application/json');
      if (on) set.add(key);
      else set.delete(key);
      sendJson(ctx, 201, userBasic(ctx.world, user));
    });
  }
  // The users API authenticates only writes; these lists refuse an anonymous caller themselves.
  root.get('/users/:id/followers', { auth: 'public' }, (ctx) => listed(ctx, 0));
  root.get('/users/:id/following', { auth: 'public' }, (ctx) => listed(ctx, 1));
}
