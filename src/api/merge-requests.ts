import type { ApiResponse, HttpClient, Page } from '../http/client.js';
import { apiPath, type QueryParams } from '../http/encode.js';

export interface MergeRequest {
  id: number;
  iid: number;
  title: string;
  state: string;
  draft: boolean;
  source_branch: string;
  target_branch: string;
  merge_status: string;
  detailed_merge_status: string;
  sha: string;
  web_url: string;
  head_pipeline?: { id: number; status: string } | null;
  [key: string]: unknown;
}

export interface MergeRequestDiff {
  old_path: string;
  new_path: string;
  a_mode: string;
  b_mode: string;
  new_file: boolean;
  renamed_file: boolean;
  deleted_file: boolean;
  diff: string;
}

export interface MergeInput {
  squash?: boolean;
  should_remove_source_branch?: boolean;
  sha?: string;
  auto_merge?: boolean;
}

const mrPath = (project: string, iid: string) => apiPath`/projects/${project}/merge_requests/${iid}`;

export function getMergeRequest(http: HttpClient, project: string, iid: string, query?: QueryParams): Promise<MergeRequest> {
  return http.record<MergeRequest>({ path: mrPath(project, iid), query });
}

/** Starts a rebase of the source branch onto the target; the service answers 202 and does it in the background. */
export function rebaseMergeRequest(
  http: HttpClient,
  project: string,
  iid: string,
  skipCi: boolean,
): Promise<{ rebase_in_progress: boolean }> {
  return http.record<{ rebase_in_progress: boolean }>({
    method: 'PUT',
    path: `${mrPath(project, iid)}/rebase`,
    json: skipCi ? { skip_ci: true } : {},
  });
}

export function createMergeRequest(http: HttpClient, project: string, body: QueryParams): Promise<MergeRequest> {
  return http.record<MergeRequest>({ method: 'POST', path: apiPath`/projects/${project}/merge_requests`, json: body });
}

export function updateMergeRequest(http: HttpClient, project: string, iid: string, body: QueryParams): Promise<MergeRequest> {
  return http.record<MergeRequest>({ method: 'PUT', path: mrPath(project, iid), json: body });
}

export function mergeMergeRequest(http: HttpClient, project: string, iid: string, input: MergeInput): Promise<MergeRequest> {
  return http.record<MergeRequest>({ method: 'PUT', path: `${mrPath(project, iid)}/merge`, json: { ...input } });
}

/** `approve` or `unapprove`: 201 with the approvals, or 304 when there was nothing to change. */
export function setApproval(
  http: HttpClient,
  project: string,
  iid: string,
  action: 'approve' | 'unapprove',
): Promise<ApiResponse<unknown>> {
  return http.request({ method: 'POST', path: `${mrPath(project, iid)}/${action}` });
}

/** A version of a merge request's diff: the service makes one per push to its source branch. */
export interface MergeRequestVersion {
  id: number;
  head_commit_sha: string;
  base_commit_sha: string;
  start_commit_sha: string;
  created_at: string;
  [key: string]: unknown;
}

export interface MergeRequestVersionFull extends MergeRequestVersion {
  diffs: MergeRequestDiff[];
}

/** The versions, newest first. */
export function mergeRequestVersions(http: HttpClient, project: string, iid: string): AsyncGenerator<Page<MergeRequestVersion>> {
  return http.pages<MergeRequestVersion>(`${mrPath(project, iid)}/versions`, { per_page: 100 });
}

/** The newest version alone: one page of one. */
export async function newestMergeRequestVersion(http: HttpClient, project: string, iid: string): Promise<MergeRequestVersion | undefined> {
  const res = await http.request<MergeRequestVersion[]>({ path: `${mrPath(project, iid)}/versions`, query: { per_page: 1 } });
  return res.data[0];
}

export function getMergeRequestVersion(http: HttpClient, project: string, iid: string, id: number): Promise<MergeRequestVersionFull> {
  return http.record<MergeRequestVersionFull>({ path: `${mrPath(project, iid)}/versions/${id}` });
}
