import { listRecords } from '../../api/resource.js';
import type { Pipeline } from '../../api/types.js';
import type { HttpClient } from '../../http/client.js';
import { apiPath } from '../../http/encode.js';

export interface CleanupFilter {
  /** Pipelines last updated before this time. */
  updatedBefore: Date;
  status?: string;
  ref?: string;
}

/** What the plan shows of a pipeline, and what an outcome record carries. */
export interface PlannedPipeline {
  id: number;
  ref: string;
  status: string;
  updated_at: string;
  web_url: string;
}

/**
 * Every pipeline of the project that matches, oldest first, read to the last page before anything
 * is deleted: deleting while paging would shift the pages under the reader.
 */
export async function selectPipelines(
  http: HttpClient,
  project: string,
  filter: CleanupFilter,
  perPage: number,
): Promise<PlannedPipeline[]> {
  const query = {
    updated_before: filter.updatedBefore.toISOString(),
    status: filter.status,
    ref: filter.ref,
    order_by: 'id',
    sort: 'asc',
    per_page: perPage,
  };
  const selected: PlannedPipeline[] = [];
  for await (const page of listRecords<Pipeline & { updated_at: string }>(http, apiPath`/projects/${project}/pipelines`, query)) {
    for (const { id, ref, status, updated_at, web_url } of page.items) selected.push({ id, ref, status, updated_at, web_url });
  }
  return selected;
}
