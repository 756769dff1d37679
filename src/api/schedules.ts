import type { HttpClient, Page } from '../http/client.js';
import { apiPath } from '../http/encode.js';

export interface PipelineSchedule {
  id: number;
  description: string;
  owner: { id: number; username: string } | null;
}

export function listSchedules(http: HttpClient, project: number): AsyncGenerator<Page<PipelineSchedule>> {
  return http.pages<PipelineSchedule>(apiPath`/projects/${project}/pipeline_schedules`, { per_page: 100 });
}

/** The service makes the caller the owner: `as` (a username, sent as Sudo) takes it over instead. */
export function takeScheduleOwnership(http: HttpClient, project: number, schedule: number, as: string): Promise<PipelineSchedule> {
  return http.record<PipelineSchedule>({
    method: 'POST',
    path: apiPath`/projects/${project}/pipeline_schedules/${schedule}/take_ownership`,
    headers: { sudo: as },
  });
}
