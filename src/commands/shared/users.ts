import { resolveExistingUserId, resolveUserId } from '../../api/users.js';
import type { HttpClient } from '../../http/client.js';
import type { QueryParams } from '../../http/encode.js';
import type { Column } from '../../output/columns.js';

const isId = (user: string) => /^\d+$/.test(user);

/**
 * User filters (`--author`, `--assignee`, `--reviewer`) take a username or a numeric id; the
 * service has a parameter for each (`author_username` / `author_id`). `None` and `Any` are values
 * of the id parameter.
 */
export function userParams(opts: Record<string, unknown>, filters: string[] = ['author', 'assignee']): QueryParams {
  const params: QueryParams = {};
  for (const name of filters) {
    const user = opts[name] as string | undefined;
    if (user === undefined) continue;
    const byId = isId(user) || user === 'None' || user === 'Any';
    params[byId ? `${name}_id` : `${name}_username`] = byId ? user : user.replace(/^@/, '');
  }
  return params;
}

/** Writes take user ids: a username is looked up once (`GET /users?username=`). */
export function userIds(http: HttpClient, users: string[]): Promise<number[]> {
  return Promise.all(users.map((user) => resolveUserId(http, user)));
}

/** For lists the service filters silently: every username and id must name a user, or nothing is sent. */
export function existingUserIds(http: HttpClient, users: string[]): Promise<number[]> {
  return Promise.all(users.map((user) => resolveExistingUserId(http, user)));
}

/** A column of users, groups or branches (an approval rule's) shown by username, path or name; `-` for none. */
export const namesColumn = (key: string): Column => ({
  field: key,
  show: (value) => (value as Array<Record<string, unknown>>).map((x) => String(x.username ?? x.full_path ?? x.name)).join(',') || '-',
});
