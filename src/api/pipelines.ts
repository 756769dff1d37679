import type { HttpClient } from '../http/client.js';
import { apiPath, type QueryParams } from '../http/encode.js';
import type { Pipeline, PipelineVariable } from './types.js';

/** Variables go in the JSON body as an array of hashes, so long lists never meet a 414. */
export async function createPipeline(
  http: HttpClient,
  project: string,
  input: { ref: string; variables: PipelineVariable[] },
): Promise<Pipeline> {
  const json = { ref: input.ref, variables: input.variables.length ? input.variables : undefined };
  return await http.record<Pipeline>({ method: 'POST', path: apiPath`/projects/${project}/pipeline`, json });
}

export async function getPipeline(http: HttpClient, project: string | number, pipelineId: string | number): Promise<Pipeline> {
  return await http.record<Pipeline>({ path: apiPath`/projects/${project}/pipelines/${pipelineId}` });
}

/** The newest pipeline of a ref (the default branch without one); the service answers 403 when there is none. */
export async function getLatestPipeline(http: HttpClient, project: string, ref: string | undefined): Promise<Pipeline> {
  return await http.record<Pipeline>({ path: apiPath`/projects/${project}/pipelines/latest`, query: { ref } });
}

export async function listPipelinesPage(http: HttpClient, project: string, query: QueryParams): Promise<Pipeline[]> {
  const res = await http.request<Pipeline[]>({ path: apiPath`/projects/${project}/pipelines`, query });
  return res.data;
}

export interface PipelineJob {
  id: number;
  name: string;
  stage: string;
  status: string;
  web_url: string;
  failure_reason?: string;
  allow_failure?: boolean;
}

/** A trigger job: a job whose work is the pipeline it started. */
export interface Bridge extends PipelineJob {
  downstream_pipeline: (Pipeline & { source?: string }) | null;
}

/** A pipeline's trigger jobs (those in `scope` statuses, if given) with the pipelines they started; a pipeline has few, so one page of 100 holds them. */
export async function listPipelineBridges(
  http: HttpClient,
  project: string | number,
  pipelineId: number,
  scope?: string[],
): Promise<Bridge[]> {
  const res = await http.request<Bridge[]>({
    path: apiPath`/projects/${project}/pipelines/${pipelineId}/bridges`,
    query: { scope, per_page: 100 },
  });
  return res.data;
}

export async function listFailedPipelineJobs(http: HttpClient, project: string | number, pipelineId: number): Promise<PipelineJob[]> {
  const path = apiPath`/projects/${project}/pipelines/${pipelineId}/jobs`;
  const jobs: PipelineJob[] = [];
  for await (const page of http.pages<PipelineJob>(path, { scope: ['failed'], per_page: 100 })) jobs.push(...page.items);
  return jobs;
}
