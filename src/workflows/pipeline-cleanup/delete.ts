import { sendRequest } from '../../api/resource.js';
import { ApiError } from '../../http/api-error.js';
import type { HttpClient } from '../../http/client.js';
import { apiPath } from '../../http/encode.js';
import { InFlightLimit } from '../bulk/limit.js';
import type { Clock } from '../shared/clock.js';
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

export interface DeletionPlan {
  maxInFlight: number;
  clock: Clock;
  /** Aborted: no new deletion starts; the outcomes of those under way are still given. */
  signal: AbortSignal;
}

/**
 * Deletes the pipelines, at most `maxInFlight` at once (fewer for a while after the service rate
 * limited one), and gives each outcome as soon as it is known, in the order they end. After a
 * refusal no new deletion starts.
 */
export async function* deletePipelines(
  http: HttpClient,
  project: string,
  pipelines: PlannedPipeline[],
  plan: DeletionPlan,
): AsyncGenerator<DeletionOutcome> {
  const limit = new InFlightLimit(plan.maxInFlight, plan.clock);
  const running = new Map<number, Promise<[number, DeletionOutcome]>>();
  let next = 0;
  let refused = false;
  for (;;) {
    while (next < pipelines.length && running.size < limit.current && !plan.signal.aborted && !refused) {
      const index = next++;
      const deletion = deleteOne(http, project, pipelines[index] as PlannedPipeline, limit, plan.signal);
      running.set(
        index,
        deletion.then((outcome) => [index, outcome]),
      );
    }
    if (running.size === 0) return;
    const [index, outcome] = await Promise.race(running.values());
    running.delete(index);
    refused ||= outcome.refused !== undefined;
    yield outcome;
  }
}

/** Never rejects: a failure is an outcome, so the deletions under way are all accounted for. */
async function deleteOne(
  http: HttpClient,
  project: string,
  pipeline: PlannedPipeline,
  limit: InFlightLimit,
  signal: AbortSignal,
): Promise<DeletionOutcome> {
  try {
    await limit.watch(() => sendRequest(http, 'DELETE', apiPath`/projects/${project}/pipelines/${pipeline.id}`));
    limit.succeeded();
    return { pipeline, result: 'deleted' };
  } catch (error) {
    if (signal.aborted) {
      return { pipeline, result: 'interrupted', error: 'interrupted before the service answered: it may be deleted or not' };
    }
    const outcome: DeletionOutcome = { pipeline, result: 'failed', error: error instanceof Error ? error.message : String(error) };
    if (error instanceof ApiError && error.status === 403) {
      const body = (error.body ?? {}) as { error?: unknown; scope?: unknown };
      outcome.refused = body.error === 'insufficient_scope' ? { scope: String(body.scope) } : {};
    }
    return outcome;
  }
}
