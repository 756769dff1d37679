import type { Readable } from 'node:stream';
import type { ApiResponse, HttpClient, Page } from '../http/client.js';
import { apiPath, type QueryParams } from '../http/encode.js';
import { isMissingRoute } from './storage-moves.js';
import type { RepositoryFile } from './types.js';

/** File paths may hold `/` and `+`; `apiPath` encodes each as one segment. */
export async function getRepositoryFile(http: HttpClient, project: string, filePath: string, ref: string): Promise<RepositoryFile> {
  return await http.record<RepositoryFile>({ path: apiPath`/projects/${project}/repository/files/${filePath}`, query: { ref } });
}

/**
 * The file's bytes as a stream, from the raw route, which job tokens may use; without a ref the
 * service reads the default branch.
 */
export function streamRepositoryFile(http: HttpClient, project: string, filePath: string, ref?: string): Promise<ApiResponse<Readable>> {
  return http.request<Readable>({
    path: apiPath`/projects/${project}/repository/files/${filePath}/raw`,
    query: { ref },
    responseType: 'stream',
  });
}

/**
 * A branch's commits from the spec's route; an instance without that route (Grape's catch-all
 * 404, not `404 Branch Not Found`) lists the same commits from `/repository/commits?ref_name=`.
 */
export async function* branchCommitPages<T>(
  http: HttpClient,
  project: string,
  branch: string,
  query: QueryParams,
): AsyncGenerator<Page<T>> {
  const pages = http.pages<T>(apiPath`/projects/${project}/branches/${branch}/commits`, query);
  let first: IteratorResult<Page<T>>;
  try {
    first = await pages.next();
  } catch (error) {
    if (!isMissingRoute(error)) throw error;
    yield* http.pages<T>(apiPath`/projects/${project}/repository/commits`, { ...query, ref_name: branch });
    return;
  }
  if (first.done) return;
  yield first.value;
  yield* pages;
}

/** One change of a commit made through the API, in the service's words. */
export interface CommitAction {
  action: 'create' | 'update' | 'delete' | 'move' | 'chmod';
  file_path: string;
  previous_path?: string;
  content?: string;
  encoding?: 'text' | 'base64';
  execute_filemode?: boolean;
}

export interface CommitInput {
  branch: string;
  start_branch?: string;
  commit_message: string;
  actions: CommitAction[];
}

export interface CommitDetail {
  id: string;
  short_id: string;
  title: string;
  stats?: { additions: number; deletions: number; total: number };
  web_url: string;
}

/** Several file changes as one commit, applied in the order given, all or none. */
export async function createCommit(http: HttpClient, project: string, input: CommitInput): Promise<CommitDetail> {
  return await http.record<CommitDetail>({ method: 'POST', path: apiPath`/projects/${project}/repository/commits`, json: input });
}

/** A ref's files as an archive (`tar.gz` unless `format` says otherwise), streamed; the default branch without `sha`. */
export function downloadArchive(http: HttpClient, project: string, format: string, sha?: string): Promise<ApiResponse<Readable>> {
  return http.request<Readable>({
    path: apiPath`/projects/${project}/repository/archive` + `.${format}`,
    query: { sha },
    responseType: 'stream',
  });
}
