import type { ApiResponse, HttpClient, Page } from '../http/client.js';
import { apiPath, type QueryParams } from '../http/encode.js';
import type { Group } from './types.js';

export interface GroupState extends Group {
  parent_id: number | null;
  /** Set while a delayed deletion is pending (YYYY-MM-DD). */
  marked_for_deletion_on?: string | null;
}

/** A group by numeric id or full path (`parent/child`). */
export function getGroup(http: HttpClient, group: string | number): Promise<GroupState> {
  return http.record<GroupState>({ path: apiPath`/groups/${group}` });
}

/** 202 where the service delays deletion (the group is marked and renamed), else done. */
export function deleteGroup(http: HttpClient, group: string | number): Promise<ApiResponse<unknown>> {
  return http.request({ method: 'DELETE', path: apiPath`/groups/${group}` });
}

/** Under another group (`group_id`), or to the top level without it. */
export function transferGroup(http: HttpClient, group: string | number, body: QueryParams): Promise<GroupState> {
  return http.record<GroupState>({ method: 'POST', path: apiPath`/groups/${group}/transfer`, json: body });
}

/** The projects of a group and of its subgroups, as ids and paths. */
export function listGroupProjectIds(http: HttpClient, group: number): AsyncGenerator<Page<{ id: number; path_with_namespace: string }>> {
  return http.pages(apiPath`/groups/${group}/projects`, { include_subgroups: true, simple: true, per_page: 100 });
}
