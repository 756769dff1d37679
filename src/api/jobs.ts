import type { Readable } from 'node:stream';
import type { ApiResponse, HttpClient } from '../http/client.js';
import { apiPath } from '../http/encode.js';

/**
 * The job's artifact archive as a stream. The service answers with a redirect to object
 * storage; the HTTP layer follows it without sending credentials to that other origin.
 */
export function downloadJobArtifacts(http: HttpClient, project: string, jobId: string | number): Promise<ApiResponse<Readable>> {
  return http.request<Readable>({
    path: apiPath`/projects/${project}/jobs/${jobId}/artifacts`,
    responseType: 'stream',
  });
}

export function getJob(http: HttpClient, project: string, jobId: string | number): Promise<Record<string, unknown>> {
  return http.record<Record<string, unknown>>({ path: apiPath`/projects/${project}/jobs/${jobId}` });
}

/** The job's whole log so far (the service has no ranges); it grows while the job runs. */
export async function getJobLog(http: HttpClient, project: string, jobId: string | number): Promise<Buffer> {
  const res = await http.request<Buffer>({ path: apiPath`/projects/${project}/jobs/${jobId}/trace`, responseType: 'buffer' });
  return res.data;
}

export function streamJobLog(http: HttpClient, project: string, jobId: string | number): Promise<ApiResponse<Readable>> {
  return http.request<Readable>({ path: apiPath`/projects/${project}/jobs/${jobId}/trace`, responseType: 'stream' });
}
