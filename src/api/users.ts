import { ExitCode, SvcError } from '../errors.js';
import type { HttpClient } from '../http/client.js';

export interface CurrentUser {
  id: number;
  username: string;
  is_admin?: boolean;
}

export interface UserSummary {
  id: number;
  username: string;
  state: string;
}

/** The token's own user: answers only to a working credential, so it is how tokens are checked. */
export function getCurrentUser(http: HttpClient): Promise<CurrentUser> {
  return http.record<CurrentUser>({ path: '/user' });
}

/** A user given by id or username, as the id the service's paths take; an unknown username is exit 5. */
export async function resolveUserId(http: HttpClient, user: string): Promise<number> {
  const text = user.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const { data } = await http.request<UserSummary[]>({ path: '/users', query: { username: text } });
  const found = Array.isArray(data) ? data[0] : undefined;
  if (!found) throw new SvcError(`no user with username '${text}'`, ExitCode.notFound);
  return found.id;
}
