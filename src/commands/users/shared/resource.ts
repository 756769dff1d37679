import { resolveUserId } from '../../../api/users.js';
import type { Resource } from '../../generic/resource.js';
import { requiredTextParser } from '../../shared/args.js';

export const USER_FIELDS = ['id', 'username', 'name', 'state', 'email', 'is_admin', 'external', 'created_at', 'web_url'];

/** One user, named by id or username (a username is looked up first, as the service's paths take ids). */
export const USER: Resource = {
  path: '/users',
  id: 'user',
  params: {
    user: {
      help: 'numeric id or username',
      parse: requiredTextParser('user'),
      resolve: (http, value) => resolveUserId(http, String(value)),
    },
  },
  fields: USER_FIELDS,
};
