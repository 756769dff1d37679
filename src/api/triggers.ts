import type { HttpClient } from '../http/client.js';
import { apiPath } from '../http/encode.js';
import type { Pipeline } from './types.js';

/**
 * Starts a pipeline through the trigger API. It needs no credentials but the token in the body
 * (a pipeline trigger token or a CI job token); variables go as a hash, unlike `POST /pipeline`.
 */
export async function triggerPipeline(
  http: HttpClient,
  project: string,
  input: { token: string; ref: string; variables: Record<string, string> },
): Promise<Pipeline> {
  const json = { token: input.token, ref: input.ref, variables: Object.keys(input.variables).length ? input.variables : undefined };
  return await http.record<Pipeline>({ method: 'POST', path: apiPath`/projects/${project}/trigger/pipeline`, json });
}
