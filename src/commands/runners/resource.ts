import { ApiError } from '../../http/api-error.js';
import type { Resource } from '../generic/resource.js';
import { idParam } from '../shared/args.js';

export const RUNNER_TYPES = ['instance_type', 'group_type', 'project_type'] as const;
export const RUNNER_STATUSES = ['online', 'offline', 'stale', 'never_contacted'] as const;

/** Who may change a runner (in its project or group), named when the service refuses. */
const RUNNER_ROLE = 'maintainer';

export const RUNNERS: Resource = {
  path: '/runners',
  id: 'runner',
  params: { runner: idParam('runner id', 'runner id') },
  columns: ['id', 'description', 'runner_type', 'status', 'paused'],
  fields: ['id', 'description', 'runner_type', 'status', 'paused', 'online', 'tag_list', 'contacted_at', 'version'],
  called: ([runner]) => `runner ${String(runner)}`,
  roles: { get: RUNNER_ROLE, jobs: RUNNER_ROLE, pause: RUNNER_ROLE, resume: RUNNER_ROLE, delete: RUNNER_ROLE },
  confirmDelete: true,
};

/** A 403 from the instance's runner list, said as what it is: for administrators only. */
export function adminOnlyError(error: unknown, what: string): unknown {
  if (!(error instanceof ApiError) || error.status !== 403) return error;
  return new ApiError(403, error.body, `${error.message} (${what}: this needs administrator access)`, error.exitCode);
}
