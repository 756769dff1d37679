import type { Variable } from '../../api/variables.js';
import { DEFAULT_SCOPE, type DesiredVariable } from './file.js';

export type SyncAction = 'create' | 'update' | 'delete' | 'unchanged';

export interface SyncStep {
  action: SyncAction;
  key: string;
  environment_scope: string;
  /** Attributes that differ (an update), never their values. */
  changes: string[];
  desired?: DesiredVariable;
}

const COMPARED = ['variable_type', 'protected', 'masked', 'raw', 'description'] as const;

function scopeOf(variable: Variable): string {
  return variable.environment_scope ?? DEFAULT_SCOPE;
}

/**
 * What it takes to make the variables `current` match the file: per key and scope, create, update
 * (naming the attributes that differ) or leave alone; with `prune`, delete those the file lacks.
 * A hidden value cannot be read back, so a hidden variable in the file is always updated.
 */
export function planSync(current: Variable[], desired: DesiredVariable[], prune: boolean): SyncStep[] {
  const byId = new Map(current.map((v) => [`${v.key}\u0000${scopeOf(v)}`, v]));
  const steps: SyncStep[] = desired.map((want) => {
    const id = `${want.key}\u0000${want.environment_scope}`;
    const have = byId.get(id);
    byId.delete(id);
    const base = { key: want.key, environment_scope: want.environment_scope, desired: want };
    if (!have) return { ...base, action: 'create', changes: [] };
    const changes = [
      ...(have.hidden || have.value !== want.value ? ['value'] : []),
      ...COMPARED.filter((name) => want[name] !== undefined && want[name] !== have[name]),
    ];
    return { ...base, action: changes.length ? 'update' : 'unchanged', changes };
  });
  if (prune) {
    for (const gone of byId.values()) steps.push({ action: 'delete', key: gone.key, environment_scope: scopeOf(gone), changes: [] });
  }
  return steps;
}

export function planLine(step: SyncStep): string {
  const changes = step.action === 'update' ? `\t${step.changes.join(',')}` : '';
  return `${step.action}\t${step.key}\t${step.environment_scope}${changes}`;
}
