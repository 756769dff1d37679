import { compareIds } from '../../api/records.js';
import { listRecords, sendRequest } from '../../api/resource.js';
import type { ApiResponse, HttpClient } from '../../http/client.js';
import { apiPath } from '../../http/encode.js';

/** What the plan shows of a package version, and what it deletes by. */
export interface PlannedPackage {
  id: number;
  name: string;
  version: string;
  package_type: string;
  created_at: string;
}

export interface PackageCriteria {
  /** Keep the newest N versions of each package (name and type). */
  keepN?: number;
  /** Delete only versions created longer ago than this. */
  olderThanMs?: number;
  /** Only packages whose name contains this (the service's `package_name`). */
  name?: string;
  /** Only packages of this type (`package_type`). */
  type?: string;
}

/**
 * Of each package (one name and type), the versions to delete: the newest `keepN` by creation time
 * are kept, then only those created before `now - olderThanMs` go. The plan is ordered by name, then
 * oldest first.
 */
export function packagesToDelete(packages: readonly PlannedPackage[], criteria: PackageCriteria, now: number): PlannedPackage[] {
  const byPackage = new Map<string, PlannedPackage[]>();
  for (const pkg of packages) {
    const key = `${pkg.package_type}\n${pkg.name}`;
    byPackage.set(key, [...(byPackage.get(key) ?? []), pkg]);
  }
  const created = (pkg: PlannedPackage) => Date.parse(pkg.created_at);
  const chosen: PlannedPackage[] = [];
  for (const versions of byPackage.values()) {
    let rest = [...versions].sort((a, b) => created(b) - created(a) || compareIds(b.id, a.id));
    if (criteria.keepN !== undefined) rest = rest.slice(criteria.keepN);
    const olderThan = criteria.olderThanMs;
    if (olderThan !== undefined) rest = rest.filter((pkg) => created(pkg) < now - olderThan);
    chosen.push(...rest);
  }
  return chosen.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : created(a) - created(b) || compareIds(a.id, b.id)));
}

/** Every package of the project that the filters select (all pages), read before anything is deleted. */
export async function planPackageCleanup(
  http: HttpClient,
  project: string,
  criteria: PackageCriteria,
  now: number,
): Promise<PlannedPackage[]> {
  const query = { package_name: criteria.name, package_type: criteria.type, order_by: 'created_at', sort: 'asc', per_page: 100 };
  const found: PlannedPackage[] = [];
  for await (const page of listRecords<PlannedPackage>(http, apiPath`/projects/${project}/packages`, query)) {
    for (const { id, name, version, package_type, created_at } of page.items) found.push({ id, name, version, package_type, created_at });
  }
  return packagesToDelete(found, criteria, now);
}

export function deletePackage(http: HttpClient, project: string, id: number): Promise<ApiResponse<unknown>> {
  return sendRequest(http, 'DELETE', apiPath`/projects/${project}/packages/${id}`);
}
