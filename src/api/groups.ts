import type { HttpClient } from '../http/client.js';
import { apiPath } from '../http/encode.js';
import type { Group } from './types.js';

/** A group by numeric id or full path (`parent/child`). */
export function getGroup(http: HttpClient, group: string | number): Promise<Group> {
  return http.record<Group>({ path: apiPath`/groups/${group}` });
}
