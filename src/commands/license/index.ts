import type { CommandSpec } from '../../cli/spec.js';
import { ApiError } from '../../http/api-error.js';
import type { Resource } from '../generic/resource.js';
import { ADMINISTRATOR } from '../generic/role.js';
import { getVerb } from '../generic/verbs.js';

const LICENSE: Resource = {
  path: '/license',
  params: {},
  fields: ['plan', 'starts_at', 'expires_at', 'expired', 'user_limit', 'active_users', 'maximum_user_count', 'overage', 'licensee'],
  roles: { get: ADMINISTRATOR },
};

const GET = getVerb(LICENSE, {
  path: LICENSE.path,
  description: "Show the instance's license: plan, dates, seats and users",
  requireToken: true,
  notes: 'Only administrators may do this. A Community Edition instance has no license and no such endpoint: it answers 404 (exit 5).',
  examples: ['svc license get', 'svc license get -o json --fields plan,expires_at,user_limit,active_users'],
});

/** The route's 404 means the edition, not a mistyped path: say so instead of the generic hint. */
const GET_SAYING_EDITION: CommandSpec = {
  ...GET,
  async run(ctx, args, opts) {
    try {
      await GET.run(ctx, args, opts);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 404) throw error;
      const message = 'GET /license failed: 404 Not Found (the instance has no license endpoint: Community Edition has no license)';
      throw new ApiError(404, error.body, message, error.exitCode);
    }
  },
};

export const commands = [GET_SAYING_EDITION];
