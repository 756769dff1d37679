import { deleteRunner } from '../../api/runners.js';
import type { HttpClient } from '../../http/client.js';
import { poolOn, settleBounded, type BoundedRun } from '../shared/bounded.js';
import type { PlannedRunner } from './plan.js';

export interface PruneTally {
  deleted: number;
  failed: Array<{ id: number; error: unknown }>;
  /** Runners left alone because the run was interrupted. */
  notStarted: number;
}

/** Deletes the planned runners with bounded concurrency; a failure is counted and the others go on. */
export async function deleteRunners(
  http: HttpClient,
  plan: readonly PlannedRunner[],
  run: BoundedRun,
  onDeleted: (tally: PruneTally) => void,
): Promise<PruneTally> {
  const tally: PruneTally = { deleted: 0, failed: [], notStarted: 0 };
  for await (const outcome of settleBounded(plan, poolOn(http, run), (runner) => deleteRunner(http, runner.id))) {
    if (outcome.ok) tally.deleted++;
    else tally.failed.push({ id: outcome.item.id, error: outcome.error });
    onDeleted(tally);
  }
  tally.notStarted = plan.length - tally.deleted - tally.failed.length;
  return tally;
}
