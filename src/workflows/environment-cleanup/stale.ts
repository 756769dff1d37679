import { listAllRecords } from '../../api/resource.js';
import type { HttpClient } from '../../http/client.js';
import { ApiError } from '../../http/api-error.js';
import { apiPath } from '../../http/encode.js';

/** What the plan shows of an environment, and what an outcome record carries. */
export interface PlannedEnvironment {
  id: number;
  name: string;
  state: string;
  tier: string;
  updated_at: string;
}

export interface StalePlan {
  environments: PlannedEnvironment[];
  /** The protected environments could not be read (maintainer role, premium tier): the service keeps them. */
  protectedUnknown: boolean;
}

/**
 * The environments the service's stop_stale stops, computed from the listings as it computes them:
 * available, last updated before `before`, no deployment updated at or after it, and not protected.
 */
export async function planStaleEnvironments(http: HttpClient, project: string, before: Date): Promise<StalePlan> {
  const available = await listAllRecords<PlannedEnvironment & { updated_at: string }>(http, apiPath`/projects/${project}/environments`, {
    states: 'available',
  });
  // The service keeps an environment with a deployment updated at `before` or later; the listing's filter is strict.
  const since = new Date(before.getTime() - 1).toISOString();
  const deployments = await listAllRecords<{ environment: { id: number } | null }>(http, apiPath`/projects/${project}/deployments`, {
    updated_after: since,
    order_by: 'updated_at',
  });
  const deployed = new Set(deployments.map((d) => d.environment?.id));
  let protectedNames = new Set<string>();
  let protectedUnknown = false;
  try {
    const list = await listAllRecords<{ name: string }>(http, apiPath`/projects/${project}/protected_environments`, {});
    protectedNames = new Set(list.map((pe) => pe.name));
  } catch (error) {
    if (!(error instanceof ApiError) || (error.status !== 403 && error.status !== 404)) throw error;
    protectedUnknown = error.status === 403;
  }
  const environments = available
    .filter((e) => Date.parse(e.updated_at) < before.getTime() && !deployed.has(e.id) && !protectedNames.has(e.name))
    .map(({ id, name, state, tier, updated_at }) => ({ id, name, state, tier, updated_at }));
  return { environments, protectedUnknown };
}
