import { sendRequest } from '../../api/resource.js';
import { InterruptedError } from '../../errors.js';
import { ApiError } from '../../http/api-error.js';
import type { HttpClient } from '../../http/client.js';
import { apiPath } from '../../http/encode.js';
import { poolOn, settleBounded, type BoundedRun, type Settled } from '../shared/bounded.js';
import type { PlannedPipeline } from './select.js';

export type DeletionResult = 'deleted' | 'failed' | 'interrupted';

export interface DeletionOutcome {
  pipeline: PlannedPipeline;
  result: DeletionResult;
  /** Why it failed, as the service or the network said. */
  error?: string;
  /** The service refused it (403): every other deletion would be refused too. `scope`: the one the token lacked, if that was why. */
  refused?: { scope?: string };
}

/**
 * Deletes the pipelines, at most `maxInFlight` at once on the client's throttle (fewer for a while
 * after the service rate limited one), and gives each outcome as soon as it is known, in the order
 * they end. After a refusal no new deletion starts.
 */
export async function* deletePipelines(
  http: HttpClient,
  project: string,
  pipelines: PlannedPipeline[],
  plan: BoundedRun,
): AsyncGenerator<DeletionOutcome> {
  const deletions = settleBounded(
    pipelines,
    { ...poolOn(http, plan), stopAfter: (settled) => !settled.ok && isRefusal(settled.error) },
    (pipeline) =>
      sendRequest(http, 'DELETE', apiPath`/projects/${project}/pipelines/${pipeline.id}`).catch((error: unknown) => {
        // Whether the run was interrupted is decided when the deletion fails, not when its outcome is
        // read: a failure the service answered before Ctrl-C stays a failure.
        throw plan.signal.aborted ? new InterruptedError() : error;
      }),
  );
  for await (const settled of deletions) yield deletionOutcome(settled);
}

function deletionOutcome(settled: Settled<PlannedPipeline, unknown>): DeletionOutcome {
  const pipeline = settled.item;
  if (settled.ok) return { pipeline, result: 'deleted' };
  const { error } = settled;
  if (error instanceof InterruptedError) {
    return { pipeline, result: 'interrupted', error: 'interrupted before the service answered: it may be deleted or not' };
  }
  const outcome: DeletionOutcome = { pipeline, result: 'failed', error: error instanceof Error ? error.message : String(error) };
  if (isRefusal(error)) {
    const body = (error.body ?? {}) as { error?: unknown; scope?: unknown };
    outcome.refused = body.error === 'insufficient_scope' ? { scope: String(body.scope) } : {};
  }
  return outcome;
}

function isRefusal(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 403;
}
