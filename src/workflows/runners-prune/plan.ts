import { checkedPages, compareIds } from '../../api/records.js';
import { getRunner, listAllRunners, type Runner } from '../../api/runners.js';
import { SvcError } from '../../errors.js';
import type { HttpClient } from '../../http/client.js';
import { formatCell } from '../../output/format.js';
import { poolOn, settleBounded, type BoundedRun } from '../shared/bounded.js';

export interface PlannedRunner {
  id: number;
  description: string | null;
  runner_type: string;
  status: string;
  /** Known only when --older-than asked for each runner's details. */
  contacted_at?: string | null;
}

export interface PruneSelection extends BoundedRun {
  /** Keep only runners whose last contact is older than this (ms before `now`). */
  olderThanMs?: number;
  now: number;
}

/**
 * Every stale runner of the instance (all pages). With an age, each one's details are read (the
 * list does not carry `contacted_at`), and runners that never made contact are left out: the
 * service does not say how old they are.
 */
export async function planPrune(http: HttpClient, selection: PruneSelection): Promise<PlannedRunner[]> {
  const stale: Runner[] = [];
  const runners = listAllRunners(http, { status: 'stale', per_page: 100 });
  for await (const page of checkedPages(runners, 'GET /runners/all', { id: 'number' })) stale.push(...page.items);
  // A server that ignored the filter (or a proxy's cached page) would have every runner deleted.
  const other = stale.find((runner) => runner.status !== 'stale');
  if (other) {
    throw new SvcError(
      `GET /runners/all?status=stale listed runner ${String(other.id)} as ${formatCell(other.status) || 'without a status'}: the filter was not applied, so nothing is deleted`,
    );
  }
  const olderThan = selection.olderThanMs;
  if (olderThan === undefined) return stale.map(({ id, description, runner_type, status }) => ({ id, description, runner_type, status }));
  const plan: PlannedRunner[] = [];
  let failure: unknown;
  for await (const outcome of settleBounded(stale, poolOn(http, selection), (runner) => getRunner(http, runner.id))) {
    if (!outcome.ok) {
      failure ??= outcome.error;
      continue;
    }
    const runner = outcome.item;
    const contacted = outcome.value.contacted_at;
    // A last contact missing or unreadable says no age, as none does: kept. As NaN it passed for old enough.
    const at = typeof contacted === 'string' ? Date.parse(contacted) : Number.NaN;
    if (Number.isNaN(at) || selection.now - at <= olderThan) continue;
    plan.push({
      id: runner.id,
      description: runner.description,
      runner_type: runner.runner_type,
      status: runner.status,
      contacted_at: contacted,
    });
  }
  if (failure !== undefined) throw failure;
  if (selection.signal.aborted) return [];
  return plan.sort((a, b) => compareIds(a.id, b.id));
}
