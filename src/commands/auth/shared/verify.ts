import type { Context } from '../../../context.js';
import type { HttpClientOptions } from '../../../http/client.js';

import { getCurrentUser, type CurrentUser } from '../../../api/users.js';

export type { CurrentUser };

/** Checks a token the way every peer does: GET /user answers only to a working credential. */
export async function verifyToken(
  ctx: Context,
  target: Pick<HttpClientOptions, 'baseUrl' | 'credentials' | 'caFile' | 'onCredentialsRefreshed'>,
): Promise<CurrentUser> {
  const http = await ctx.createHttp(target);
  return getCurrentUser(http);
}

export function describeUser(user: CurrentUser): string {
  return `@${user.username} (id ${user.id}${user.is_admin ? ', administrator' : ''})`;
}
