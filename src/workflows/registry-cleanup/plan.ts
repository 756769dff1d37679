import { checkedPages } from '../../api/records.js';
import { getRecord, listRecords, sendRequest } from '../../api/resource.js';
import type { ApiResponse, HttpClient } from '../../http/client.js';
import { apiPath, encodePathSegment } from '../../http/encode.js';
import { poolOn, settleBounded, type BoundedRun } from '../shared/bounded.js';
import { nameCandidates, tagsToDelete, type TagCriteria, type TagFacts } from './select.js';

export interface TagPlan {
  /** Every tag of the repository. */
  total: number;
  /** The tags to delete, by name. */
  tags: TagFacts[];
}

/**
 * Every tag of the repository (all pages), then the details of each name candidate (bounded, on the
 * client's throttle: the list carries no dates), judged as the service's clean-up would judge them.
 */
export async function planTagCleanup(
  http: HttpClient,
  project: string,
  repository: string,
  criteria: TagCriteria,
  run: BoundedRun & { now: number },
): Promise<TagPlan> {
  const names: string[] = [];
  const tagsPath = apiPath`/projects/${project}/registry/repositories/${repository}/tags`;
  const tags = listRecords<{ name: string }>(http, tagsPath, { per_page: 100 });
  for await (const page of checkedPages(tags, `GET ${tagsPath}`, { name: 'string' })) names.push(...page.items.map((t) => t.name));
  const candidates = nameCandidates(names, criteria);
  const facts: TagFacts[] = [];
  const detail = (name: string) => getRecord<TagFacts>(http, `${tagsPath}/${encodePathSegment(name)}`);
  for await (const outcome of settleBounded(candidates, poolOn(http, run), detail)) {
    if (!outcome.ok) throw outcome.error;
    // The name read is the one listed: a detail answered without it must not send DELETE …/tags/undefined.
    const { created_at, total_size, digest } = outcome.value;
    facts.push({ name: outcome.item, created_at, total_size, digest });
  }
  return { total: names.length, tags: tagsToDelete(facts, criteria, run.now) };
}

export function deleteTag(http: HttpClient, project: string, repository: string, tag: string): Promise<ApiResponse<unknown>> {
  return sendRequest(http, 'DELETE', apiPath`/projects/${project}/registry/repositories/${repository}/tags/${tag}`);
}

/** The service's own clean-up of the repository, in one request: accepted (202) and run later by the service. */
export function requestBulkCleanup(
  http: HttpClient,
  project: string,
  repository: string,
  criteria: TagCriteria & { olderThan?: string },
): Promise<ApiResponse<unknown>> {
  return sendRequest(http, 'DELETE', apiPath`/projects/${project}/registry/repositories/${repository}/tags`, {
    name_regex_delete: criteria.deleteRegex,
    name_regex_keep: criteria.keepRegex,
    keep_n: criteria.keepN,
    older_than: criteria.olderThan,
  });
}
