import type { HttpClient, Page } from '../http/client.js';
import type { QueryParams } from '../http/encode.js';
import type { Group } from './types.js';

export interface ListGroupsQuery {
  search?: string;
  perPage: number;
  /** Keyset by name (the only keyset order the service offers for groups). */
  keyset?: boolean;
}

export function listGroups(http: HttpClient, query: ListGroupsQuery): AsyncGenerator<Page<Group>> {
  const params: QueryParams = { search: query.search, per_page: query.perPage };
  if (query.keyset) Object.assign(params, { pagination: 'keyset', order_by: 'name', sort: 'asc' });
  return http.pages<Group>('/groups', params);
}
