import { resolveUserId } from '../../../api/users.js';
import type { HttpClient } from '../../../http/client.js';
import type { QueryParams } from '../../../http/encode.js';

const isId = (user: string) => /^\d+$/.test(user);

/**
 * `--author` and `--assignee` take a username or a numeric id; the service has a parameter for
 * each (`author_username` / `author_id`). `None` and `Any` are values of the id parameter.
 */
export function userParams(opts: Record<string, unknown>): QueryParams {
  const params: QueryParams = {};
  const author = opts.author as string | undefined;
  if (author !== undefined) params[isId(author) ? 'author_id' : 'author_username'] = author;
  const assignee = opts.assignee as string | undefined;
  if (assignee !== undefined) {
    const byId = isId(assignee) || assignee === 'None' || assignee === 'Any';
    params[byId ? 'assignee_id' : 'assignee_username'] = assignee;
  }
  return params;
}

/** Writes take user ids: a username is looked up once (`GET /users?username=`). */
export function userIds(http: HttpClient, users: string[]): Promise<number[]> {
  return Promise.all(users.map((user) => resolveUserId(http, user)));
}
