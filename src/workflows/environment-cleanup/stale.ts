import { checkRecords } from '../../api/records.js';
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
  const environmentsPath = apiPath`/projects/${project}/environments`;
  const available = checkRecords(
    await listAllRecords<PlannedEnvironment & { updated_at: string }>(http, environmentsPath, { states: 'available' }),
    `GET ${environmentsPath}`,
    { id: 'number', name: 'string' },
  );
  // The service keeps an environment with a deployment updated at `before` or later; the listing's filter is strict.
  const since = new Date(before.getTime() - 1).toISOString();
  const deploymentsPath = apiPath`/projects/${project}/deployments`;
  const deployments = checkRecords(
    await listAllRecords<{ environment: { id: number } | null }>(http, deploymentsPath, { updated_after: since, order_by: 'updated_at' }),
    `GET ${deploymentsPath}`,
    {},
  );
  // Ids are told apart by their text: one past 2^53 is parsed as an object holding it (json.ts).
  const deployed = new Set(deployments.map((d) => String(d.environment?.id)));
  let protectedNames = new Set<string>();
  let protectedUnknown = false;
  try {
    const protectedPath = apiPath`/projects/${project}/protected_environments`;
    const list = checkRecords(await listAllRecords<{ name: string }>(http, protectedPath, {}), `GET ${protectedPath}`, { name: 'string' });
    protectedNames = new Set(list.map((pe) => pe.name));
  } catch (error) {
    if (!(error instanceof ApiError) || (error.status !== 403 && error.status !== 404)) throw error;
    protectedUnknown = error.status === 403;
  }
  const environments = available
    .filter((e) => Date.parse(e.updated_at) < before.getTime() && !deployed.has(String(e.id)) && !protectedNames.has(e.name))
    .map(({ id, name, state, tier, updated_at }) => ({ id, name, state, tier, updated_at }));
  return { environments, protectedUnknown };
}
