import type { HttpClient, Page } from '../http/client.js';
import { apiPath, type QueryParams } from '../http/encode.js';

/** A runner as listed (reference §12); `status` also takes `paused`, which no filter lists. */
export interface Runner {
  id: number;
  description: string | null;
  runner_type: 'instance_type' | 'group_type' | 'project_type';
  status: string;
  paused: boolean;
  online: boolean | null;
}

export interface RunnerDetails extends Runner {
  contacted_at: string | null;
  tag_list?: string[];
}

/** Every runner of the instance (administrators only), by the service's filters. */
export function listAllRunners(http: HttpClient, query: QueryParams): AsyncGenerator<Page<Runner>> {
  return http.pages<Runner>('/runners/all', query);
}

export function getRunner(http: HttpClient, id: number | string): Promise<RunnerDetails> {
  return http.record<RunnerDetails>({ path: apiPath`/runners/${id}` });
}

/** 204 when deleted. */
export async function deleteRunner(http: HttpClient, id: number | string): Promise<void> {
  await http.request({ method: 'DELETE', path: apiPath`/runners/${id}` });
}
