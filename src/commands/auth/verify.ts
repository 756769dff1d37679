import type { Context } from '../../context.js';
import type { HttpClientOptions } from '../../http/client.js';

export interface CurrentUser {
  id: number;
  username: string;
  is_admin?: boolean;
}

/** Checks a token the way every peer does: GET /user answers only to a working credential. */
export async function verifyToken(
  ctx: Context,
  target: Pick<HttpClientOptions, 'baseUrl' | 'credentials' | 'caFile' | 'onCredentialsRefreshed'>,
): Promise<CurrentUser> {
  const http = await ctx.createHttp(target);
  return (await http.request<CurrentUser>({ path: '/user' })).data;
}

export function describeUser(user: CurrentUser): string {
  return `@${user.username} (id ${user.id}${user.is_admin ? ', administrator' : ''})`;
}
