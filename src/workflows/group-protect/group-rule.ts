import { checkedPages } from '../../api/records.js';
import { getRecord, listRecords, sendRequest } from '../../api/resource.js';
import { ApiError } from '../../http/api-error.js';
import type { HttpClient } from '../../http/client.js';
import { apiPath, type QueryParams } from '../../http/encode.js';
import { poolOn, settleBounded, type BoundedRun } from '../shared/bounded.js';

/** Branches or tags: the collection a rule lives in, and the rule's name as the service keys it. */
export type RefKind = 'protected_branches' | 'protected_tags';

export interface GroupRule {
  kind: RefKind;
  /** a name or a wildcard */
  name: string;
  /** what a new rule is created with (access levels, switches) */
  body: QueryParams;
}

export interface PlannedProject {
  project_id: number;
  project: string;
  /** what the run will do there: `protect`, `unprotect`, or `skip` (already as asked, or unreadable) */
  action: 'protect' | 'unprotect' | 'skip';
  reason: string;
}

interface GroupProject {
  id: number;
  path_with_namespace: string;
  archived?: boolean;
}

/** Which projects of the group get a write: one read per project says whether the rule is there already. */
export async function planGroupRule(
  http: HttpClient,
  group: string,
  includeSubgroups: boolean,
  rule: GroupRule,
  wanted: 'protect' | 'unprotect',
  run: BoundedRun,
): Promise<PlannedProject[]> {
  const projects: GroupProject[] = [];
  const query = { include_subgroups: includeSubgroups, archived: false, with_shared: false, order_by: 'id', sort: 'asc', per_page: 100 };
  const path = apiPath`/groups/${group}/projects`;
  for await (const page of checkedPages(listRecords<GroupProject>(http, path, query), `GET ${path}`, { id: 'number' }))
    projects.push(...page.items);
  const plan: PlannedProject[] = [];
  const read = (p: GroupProject) => getRecord(http, apiPath`/projects/${p.id}/${rule.kind}/${rule.name}`);
  for await (const outcome of settleBounded(projects, poolOn(http, run), read)) {
    const p = outcome.item;
    const row = { project_id: p.id, project: p.path_with_namespace };
    if (outcome.ok) plan.push({ ...row, ...(wanted === 'protect' ? skip('already protected') : { action: 'unprotect', reason: '' }) });
    else if (outcome.error instanceof ApiError && outcome.error.status === 404)
      plan.push({ ...row, ...(wanted === 'protect' ? { action: 'protect', reason: '' } : skip('not protected')) });
    else plan.push({ ...row, ...skip(`cannot read: ${describe(outcome.error)}`) });
  }
  return plan.sort((a, b) => a.project_id - b.project_id);
}

const skip = (reason: string) => ({ action: 'skip' as const, reason });

export function describe(error: unknown): string {
  if (error instanceof ApiError) {
    const message = (error.body as { message?: unknown } | null)?.message;
    const text = typeof message === 'string' ? message : error.message;
    return text.startsWith(String(error.status)) ? text : `${error.status} ${text}`;
  }
  return error instanceof Error ? error.message : String(error);
}

export interface ApplyTally {
  done: number;
  failed: Array<{ project: string; error: unknown }>;
  notStarted: number;
}

/** Sends the plan's writes, no more at once than the pool allows; a failure is counted and the others go on. */
export async function applyGroupRule(
  http: HttpClient,
  plan: readonly PlannedProject[],
  rule: GroupRule,
  run: BoundedRun,
): Promise<ApplyTally> {
  const writes = plan.filter((p) => p.action !== 'skip');
  const tally: ApplyTally = { done: 0, failed: [], notStarted: 0 };
  const write = (p: PlannedProject) =>
    p.action === 'protect'
      ? sendRequest(http, 'POST', apiPath`/projects/${p.project_id}/${rule.kind}`, { name: rule.name, ...rule.body })
      : sendRequest(http, 'DELETE', apiPath`/projects/${p.project_id}/${rule.kind}/${rule.name}`);
  for await (const outcome of settleBounded(writes, poolOn(http, run), write)) {
    if (outcome.ok) tally.done++;
    else tally.failed.push({ project: outcome.item.project, error: outcome.error });
  }
  tally.notStarted = writes.length - tally.done - tally.failed.length;
  return tally;
}
