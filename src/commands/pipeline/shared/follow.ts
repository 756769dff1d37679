import type { Context } from '../../../context.js';
import { getPipeline } from '../../../api/pipelines.js';
import type { Pipeline } from '../../../api/types.js';
import { IncompleteError } from '../../../errors.js';
import type { HttpClient } from '../../../http/client.js';
import { watchUntilFinal, type WaitFlags } from '../../shared/wait.js';
import { PIPELINE_FIELDS } from './resource.js';

/**
 * Statuses from which a pipeline moves on by itself (`scheduled` runs its delayed jobs when their
 * time comes). Every other status is final: `success`, and `failed`, `canceled`, `skipped` and
 * `manual` (blocked until a person starts a manual job), which count as not successful.
 */
export const ACTIVE_PIPELINE_STATUSES = new Set([
  'created',
  'waiting_for_resource',
  'preparing',
  'pending',
  'running',
  'scheduled',
  'canceling',
]);

/** Polls the pipeline to a final status, prints it, and fails with exit 8 unless it succeeded. */
export async function followPipeline(
  ctx: Context,
  http: HttpClient,
  project: string,
  flags: WaitFlags,
  initial: Pipeline | undefined,
  pipelineId: string | number,
): Promise<void> {
  const subject = `pipeline ${pipelineId}`;
  const result = await watchUntilFinal(ctx, flags, {
    subject,
    initial,
    fetch: () => getPipeline(http, project, pipelineId),
    status: (pipeline) => pipeline.status,
    isFinal: (pipeline) => !ACTIVE_PIPELINE_STATUSES.has(pipeline.status),
    onInterrupt: `${subject} keeps running on the server${initial ? `: ${initial.web_url}` : ''}`,
  });
  const { record } = result;
  await ctx.printRecord(record, PIPELINE_FIELDS);
  if (result.timedOut) {
    throw new IncompleteError(`${subject} still ${record.status} after ${result.elapsedS} s; it keeps running: ${record.web_url}`);
  }
  if (record.status !== 'success') throw new IncompleteError(`${subject} ended ${record.status}: ${record.web_url}`);
  ctx.info(`${subject} succeeded: ${record.web_url}`);
}
