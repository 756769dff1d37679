import type { Readable } from 'node:stream';
import type { ApiResponse, HttpClient } from '../http/client.js';
import { apiPath } from '../http/encode.js';
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
