import type { HttpClient, Page } from '../http/client.js';
import { apiPath } from '../http/encode.js';
import type { Issue, Note } from './types.js';

/** Issues are addressed by their per-project `iid`, never by the global `id`. */
export async function getIssue(http: HttpClient, project: string, iid: number): Promise<Issue> {
  return await http.record<Issue>({ path: apiPath`/projects/${project}/issues/${iid}` });
}

export function listIssueNotes(
  http: HttpClient,
  project: string,
  iid: number,
  query: { sort?: 'asc' | 'desc'; perPage: number },
): AsyncGenerator<Page<Note>> {
  return http.pages<Note>(apiPath`/projects/${project}/issues/${iid}/notes`, { sort: query.sort, per_page: query.perPage });
}
