import { checkedPages } from '../../api/records.js';
import { listRecords, sendRequest, writeRecordTo } from '../../api/resource.js';
import type { HttpClient } from '../../http/client.js';
import { apiPath } from '../../http/encode.js';
import { poolOn, settleBounded, type BoundedRun } from '../shared/bounded.js';
import type { DesiredLabel } from './file.js';

/** A label as a project's list gives it (its own, and its groups' with `is_project_label` false). */
export interface CurrentLabel {
  id: number;
  name: string;
  color: string;
  description: string | null;
  priority: number | null;
  is_project_label: boolean;
}

export type LabelAction = 'create' | 'update' | 'delete';

export interface LabelStep {
  action: LabelAction;
  project: string;
  label: string;
  /** The attributes an update changes. */
  changes: string[];
  /** The label's id in the project (update, delete). */
  id?: number;
  desired?: DesiredLabel;
}

/**
 * What makes one project's own labels match the file: create what it lacks, update what differs
 * (colour compared without case, description and priority only when the file gives them), and with
 * `prune` delete its own labels the file does not name. A label the project has from a group is
 * left alone (the service would refuse a project label of the same name), and never deleted.
 */
export function planProject(
  project: string,
  current: readonly CurrentLabel[],
  desired: readonly DesiredLabel[],
  prune: boolean,
): LabelStep[] {
  // Only a label the service calls the project's own (true, not merely truthy: "false" is text) may be changed or pruned.
  const own = new Map(current.filter((l) => l.is_project_label === true).map((l) => [l.name, l]));
  const inherited = new Set(current.filter((l) => l.is_project_label !== true).map((l) => l.name));
  const steps: LabelStep[] = [];
  for (const want of desired) {
    const have = own.get(want.name);
    own.delete(want.name);
    if (!have) {
      if (!inherited.has(want.name)) steps.push({ action: 'create', project, label: want.name, changes: [], desired: want });
      continue;
    }
    const changes = [
      ...(have.color.toLowerCase() !== want.color.toLowerCase() ? ['color'] : []),
      ...(want.description !== undefined && (have.description ?? '') !== want.description ? ['description'] : []),
      ...(want.priority !== undefined && have.priority !== want.priority ? ['priority'] : []),
    ];
    if (changes.length > 0) steps.push({ action: 'update', project, label: want.name, changes, id: have.id, desired: want });
  }
  if (prune) for (const gone of own.values()) steps.push({ action: 'delete', project, label: gone.name, changes: [], id: gone.id });
  return steps;
}

/** Every project of the group (its subgroups' too, when asked), by full path, without those shared with it. */
export async function groupProjects(http: HttpClient, group: string, includeSubgroups: boolean): Promise<string[]> {
  const query = { include_subgroups: includeSubgroups, with_shared: false, order_by: 'path', sort: 'asc', simple: true, per_page: 100 };
  const paths: string[] = [];
  const path = apiPath`/groups/${group}/projects`;
  const pages = listRecords<{ path_with_namespace: string }>(http, path, query);
  for await (const page of checkedPages(pages, `GET ${path}`, { path_with_namespace: 'string' })) {
    paths.push(...page.items.map((p) => p.path_with_namespace));
  }
  return paths.sort();
}

/** Each project's labels read (bounded, on the client's throttle), and the steps of every project, project by project. */
export async function planGroupSync(
  http: HttpClient,
  projects: readonly string[],
  desired: readonly DesiredLabel[],
  prune: boolean,
  run: BoundedRun,
): Promise<LabelStep[]> {
  const read = async (project: string) => {
    const labels: CurrentLabel[] = [];
    const path = apiPath`/projects/${project}/labels`;
    const pages = listRecords<CurrentLabel>(http, path, { include_ancestor_groups: true, per_page: 100 });
    for await (const page of checkedPages(pages, `GET ${path}`, { id: 'number', name: 'string' })) {
      labels.push(...page.items);
    }
    return labels;
  };
  const byProject = new Map<string, LabelStep[]>();
  for await (const outcome of settleBounded(projects, poolOn(http, run), read)) {
    if (!outcome.ok) throw outcome.error;
    byProject.set(outcome.item, planProject(outcome.item, outcome.value, desired, prune));
  }
  return projects.flatMap((project) => byProject.get(project) ?? []);
}

/** One step's write: create (201), update (200) or delete (204). */
export async function applyStep(http: HttpClient, step: LabelStep): Promise<void> {
  const labels = apiPath`/projects/${step.project}/labels`;
  if (step.action === 'delete') {
    await sendRequest(http, 'DELETE', `${labels}/${step.id}`);
    return;
  }
  const want = step.desired!;
  const attributes = { color: want.color, description: want.description, priority: want.priority };
  if (step.action === 'create') await writeRecordTo(http, 'POST', labels, { name: want.name, ...attributes });
  else
    await writeRecordTo(
      http,
      'PUT',
      `${labels}/${step.id}`,
      Object.fromEntries(step.changes.map((key) => [key, attributes[key as keyof typeof attributes]])),
    );
}
