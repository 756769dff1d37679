import { ExitCode, SvcError, UsageError } from '../errors.js';
import { ApiError } from '../http/api-error.js';
import type { HttpClient, Page } from '../http/client.js';
import type { QueryParams } from '../http/encode.js';
import { describeJson } from '../http/pagination.js';
import { checkRecords } from './records.js';

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
  const text = user.trim().replace(/^@/, '');
  if (/^\d+$/.test(text)) {
    // Rounded, 9007199254740993 would name user 9007199254740992: another user, not a 404.
    if (!Number.isSafeInteger(Number(text)))
      throw new UsageError(`user id ${text} is past ${Number.MAX_SAFE_INTEGER}, the largest svc sends exactly`);
    return Number(text);
  }
  const { data } = await http.request<unknown>({ path: '/users', query: { username: text } });
  // Anything but a list is no answer to the search: an HTML page or `{}` from a proxy is not "no such user".
  if (!Array.isArray(data)) throw new SvcError(`GET /users returned ${describeJson(data)} where a list was expected`);
  if (data.length === 0) throw new SvcError(`no user with username '${text}'`, ExitCode.notFound);
  const [found] = checkRecords(data as UserSummary[], `GET /users?username=${text}`, { id: 'number' });
  return (found as UserSummary).id;
}

/**
 * Like `resolveUserId`, but an id is looked up too: for lists the service takes as they are and drops
 * what matches no user (an approval rule's `user_ids`), so an unknown id is exit 5 here instead.
 */
export async function resolveExistingUserId(http: HttpClient, user: string): Promise<number> {
  const id = await resolveUserId(http, user);
  if (!/^\d+$/.test(user.trim().replace(/^@/, ''))) return id;
  try {
    await getUser(http, id);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw new SvcError(`no user with the id ${id}`, ExitCode.notFound);
    throw error;
  }
  return id;
}

export interface UserRecord extends UserSummary {
  name: string;
}

export function getUser(http: HttpClient, id: number): Promise<UserRecord> {
  return http.record<UserRecord>({ path: `/users/${id}` });
}

export function createUser(http: HttpClient, body: QueryParams): Promise<UserRecord> {
  return http.record<UserRecord>({ method: 'POST', path: '/users', json: body });
}

export function updateUser(http: HttpClient, id: number, body: QueryParams): Promise<UserRecord> {
  return http.record<UserRecord>({ method: 'PUT', path: `/users/${id}`, json: body });
}

export type UserStateAction = 'block' | 'unblock' | 'deactivate' | 'activate' | 'ban' | 'unban';

/** The service answers `true`, `false` or `null` (201): read the user afterwards to see what changed. */
export async function changeUserState(http: HttpClient, id: number, action: UserStateAction): Promise<void> {
  await http.request({ method: 'POST', path: `/users/${id}/${action}` });
}

/** A direct membership as `GET /users/:id/memberships` lists it (a group is a `Namespace`). */
export interface UserMembership {
  source_id: number;
  source_name: string;
  source_type: 'Project' | 'Namespace';
  access_level: number;
}

export function listMemberships(http: HttpClient, id: number, query: QueryParams): AsyncGenerator<Page<UserMembership>> {
  return http.pages<UserMembership>(`/users/${id}/memberships`, query);
}

/** The service answers 204 and deletes the user in the background; `hardDelete` removes their contributions too. */
export async function deleteUser(http: HttpClient, id: number, hardDelete: boolean): Promise<number> {
  const response = await http.request({ method: 'DELETE', path: `/users/${id}`, query: hardDelete ? { hard_delete: true } : undefined });
  return response.status;
}
