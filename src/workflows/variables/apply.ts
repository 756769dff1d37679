import { createVariable, deleteVariable, updateVariable, type VariableOwner } from '../../api/variables.js';
import type { HttpClient } from '../../http/client.js';
import type { SyncAction, SyncStep } from './plan.js';

export interface SyncFailure {
  step: SyncStep;
  message: string;
}

export interface SyncResult {
  done: Record<SyncAction, number>;
  failures: SyncFailure[];
}

/** Carries out the plan one step at a time; a failed step is recorded and the next one still runs. */
export async function applySync(http: HttpClient, owner: VariableOwner, steps: SyncStep[], signal?: AbortSignal): Promise<SyncResult> {
  const result: SyncResult = { done: { create: 0, update: 0, delete: 0, unchanged: 0 }, failures: [] };
  for (const step of steps) {
    if (signal?.aborted) break;
    try {
      await applyStep(http, owner, step);
      result.done[step.action]++;
    } catch (error) {
      if (signal?.aborted) throw error;
      result.failures.push({ step, message: error instanceof Error ? error.message : String(error) });
    }
  }
  return result;
}

async function applyStep(http: HttpClient, owner: VariableOwner, step: SyncStep): Promise<void> {
  const want = step.desired;
  if (step.action === 'delete') return deleteVariable(http, owner, step.key, step.environment_scope);
  if (!want || step.action === 'unchanged') return;
  const { key: _key, environment_scope, ...attributes } = want;
  if (step.action === 'create') await createVariable(http, owner, { key: step.key, environment_scope, ...attributes });
  else await updateVariable(http, owner, step.key, environment_scope, attributes);
}
