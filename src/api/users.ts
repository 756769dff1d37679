import type { HttpClient, Page } from '../http/client.js';
import type { QueryParams } from '../http/encode.js';
import type { User } from './types.js';

export interface ListUsersQuery {
  search?: string;
  username?: string;
  orderBy?: string;
  sort?: 'asc' | 'desc';
  perPage: number;
  keyset: boolean;
}

export function listUsers(http: HttpClient, query: ListUsersQuery): AsyncGenerator<Page<User>> {
  const params: QueryParams = {
    search: query.search,
    username: query.username,
    order_by: query.orderBy,
    sort: query.sort,
    per_page: query.perPage,
  };
  if (query.keyset) Object.assign(params, { pagination: 'keyset', order_by: query.orderBy ?? 'id', sort: query.sort ?? 'asc' });
  return http.pages<User>('/users', params);
}

export interface CurrentUser {
  id: number;
  username: string;
  is_admin?: boolean;
}

/** The token's own user: answers only to a working credential, so it is how tokens are checked. */
export function getCurrentUser(http: HttpClient): Promise<CurrentUser> {
  return http.record<CurrentUser>({ path: '/user' });
}
