import type { HttpClient } from '../http/client.js';
import { apiPath } from '../http/encode.js';
import type { RepositoryFile } from './types.js';

/** File paths may hold `/` and `+`; `apiPath` encodes each as one segment. */
export async function getRepositoryFile(http: HttpClient, project: string, filePath: string, ref: string): Promise<RepositoryFile> {
  return await http.record<RepositoryFile>({ path: apiPath`/projects/${project}/repository/files/${filePath}`, query: { ref } });
}
