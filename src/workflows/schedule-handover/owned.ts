// The pipeline schedules one user owns, across every project the token can read schedules of: what
// a maintainer hands over (`schedules take-ownership`) when that user leaves. The service lists
// schedules per project only, so each page of projects is read with up to `maxInFlight` schedule
// listings at once, on the client's one throttle, and yields the matches of that page in project order.
import { checkedPages } from '../../api/records.js';
import { resolveExistingUserId } from '../../api/users.js';
import { ApiError } from '../../http/api-error.js';
import type { HttpClient } from '../../http/client.js';
import { apiPath, type QueryParams } from '../../http/encode.js';
import type { Page } from '../../http/types.js';

export interface OwnerScan {
  /** a username, or a user id */
  owner: string;
  maxInFlight: number;
  /** the schedules listing's own filter (`scope`) */
  query: QueryParams;
  /** Said once at the end when some projects' schedules could not be read. */
  warn: (line: string) => void;
}

interface Schedule {
  owner?: { id: number; username: string } | null;
  [key: string]: unknown;
}

interface ProjectRow {
  id: number;
  path_with_namespace: string;
}

/** Pages of the matching schedules, each with `project` (the project's path) first. */
export async function* schedulesOwnedBy(http: HttpClient, scan: OwnerScan): AsyncGenerator<Page<Record<string, unknown>>> {
  // Looked up first: a user that does not exist is exit 5, not an empty list after reading every project.
  const ownerId = await resolveExistingUserId(http, scan.owner);
  const me = await http.record<{ is_admin?: boolean }>({ path: '/user' });
  const slots = http.throttle(scan.maxInFlight);
  const owned = (s: Schedule) => s.owner?.id === ownerId;
  // Schedules need the reporter role; an administrator reads every project's.
  const projects = http.pages<ProjectRow>('/projects', {
    simple: true,
    per_page: 100,
    pagination: 'keyset',
    order_by: 'id',
    sort: 'asc',
    ...(me.is_admin === true ? {} : { min_access_level: 20 }),
  });
  const unreadable: string[] = [];
  for await (const page of checkedPages(projects, 'GET /projects', { id: 'number', path_with_namespace: 'string' })) {
    const found = await Promise.all(
      page.items.map((p) =>
        slots.run(async () => {
          try {
            const schedules: Schedule[] = [];
            const path = apiPath`/projects/${p.id}/pipeline_schedules`;
            for await (const part of checkedPages(http.pages<Schedule>(path, { ...scan.query, per_page: 100 }), `GET ${path}`, {})) {
              schedules.push(...part.items);
            }
            return schedules.filter(owned).map((s) => ({ project: p.path_with_namespace, ...s }));
          } catch (error) {
            // Gone since it was listed (404), or pipelines off for it (403): nothing of it to hand over.
            if (!(error instanceof ApiError) || (error.status !== 403 && error.status !== 404)) throw error;
            unreadable.push(p.path_with_namespace);
            return [];
          }
        }),
      ),
    );
    yield { items: found.flat(), headers: {}, url: page.url, hasNext: page.hasNext };
  }
  if (unreadable.length > 0) {
    const shown = unreadable.slice(0, 5).join(', ') + (unreadable.length > 5 ? ', …' : '');
    scan.warn(
      `the schedules of ${unreadable.length} project${unreadable.length === 1 ? '' : 's'} could not be read (403 or 404): ${shown}`,
    );
  }
}
