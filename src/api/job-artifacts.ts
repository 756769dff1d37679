import type { Readable } from 'node:stream';
import type { ApiResponse, HttpClient } from '../http/client.js';
import { apiPath, encodePathSegment } from '../http/encode.js';

/** A path inside an archive: the route takes the rest of the URL, so its `/` stay and each name is encoded. */
function archivePath(filePath: string): string {
  return filePath
    .replace(/^\/+/, '')
    .split('/')
    .map((name) => encodePathSegment(name))
    .join('/');
}

/**
 * The archive of the latest successful job of that name on a branch or tag (not a SHA); like the
 * archive by job id, it is a redirect to object storage.
 */
export function downloadRefArtifacts(http: HttpClient, project: string, ref: string, job: string): Promise<ApiResponse<Readable>> {
  return http.request<Readable>({
    path: apiPath`/projects/${project}/jobs/artifacts/${ref}/download`,
    query: { job },
    responseType: 'stream',
  });
}

/** One file from inside a job's artifact archive. */
export function downloadArtifactFile(http: HttpClient, project: string, jobId: string, filePath: string): Promise<ApiResponse<Readable>> {
  return http.request<Readable>({
    path: apiPath`/projects/${project}/jobs/${jobId}/artifacts/` + archivePath(filePath),
    responseType: 'stream',
  });
}

/** One file from inside the archive of the latest successful job of that name on a branch or tag. */
export function downloadRefArtifactFile(
  http: HttpClient,
  project: string,
  ref: string,
  job: string,
  filePath: string,
): Promise<ApiResponse<Readable>> {
  return http.request<Readable>({
    path: apiPath`/projects/${project}/jobs/artifacts/${ref}/raw/` + archivePath(filePath),
    query: { job },
    responseType: 'stream',
  });
}
