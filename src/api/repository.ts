import type { HttpClient, Page } from '../http/client.js';
import { apiPath } from '../http/encode.js';
import type { Commit, RepositoryFile, Tag } from './types.js';

/** File path, branch and tag names may hold `/` and `+`; `apiPath` encodes each as one segment. */
export async function getRepositoryFile(http: HttpClient, project: string, filePath: string, ref: string): Promise<RepositoryFile> {
  return await http.record<RepositoryFile>({ path: apiPath`/projects/${project}/repository/files/${filePath}`, query: { ref } });
}

export function listBranchCommits(http: HttpClient, project: string, branch: string, query: { perPage: number }): AsyncGenerator<Page<Commit>> {
  return http.pages<Commit>(apiPath`/projects/${project}/branches/${branch}/commits`, { per_page: query.perPage });
}

export async function getTag(http: HttpClient, project: string, tag: string): Promise<Tag> {
  return await http.record<Tag>({ path: apiPath`/projects/${project}/repository/tags/${tag}` });
}
