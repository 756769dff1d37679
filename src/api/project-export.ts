import type { Readable } from 'node:stream';
import type { ApiResponse, HttpClient } from '../http/client.js';
import { apiPath } from '../http/encode.js';

/** ProjectIdentity with where its export stands (reference §8). */
export interface ProjectExport {
  id: number;
  path_with_namespace: string;
  export_status: string;
  _links?: { api_url: string; web_url: string };
}

/** Schedules an export (202): the service builds the archive in the background. */
export function scheduleProjectExport(http: HttpClient, project: string | number, description?: string): Promise<ApiResponse<unknown>> {
  return http.request({
    method: 'POST',
    path: apiPath`/projects/${project}/export`,
    json: description === undefined ? undefined : { description },
  });
}

export function getProjectExport(http: HttpClient, project: string | number): Promise<ProjectExport> {
  return http.record<ProjectExport>({ path: apiPath`/projects/${project}/export` });
}

/** The finished archive as a stream. */
export function downloadProjectExport(http: HttpClient, project: string | number): Promise<ApiResponse<Readable>> {
  return http.request<Readable>({ path: apiPath`/projects/${project}/export/download`, responseType: 'stream' });
}
