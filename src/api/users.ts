import type { HttpClient } from '../http/client.js';

export interface CurrentUser {
  id: number;
  username: string;
  is_admin?: boolean;
}

/** The token's own user: answers only to a working credential, so it is how tokens are checked. */
export function getCurrentUser(http: HttpClient): Promise<CurrentUser> {
  return http.record<CurrentUser>({ path: '/user' });
}
