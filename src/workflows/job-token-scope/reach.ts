import { getProject } from '../../api/projects.js';
import { getRecord, listAllRecords } from '../../api/resource.js';
import type { HttpClient } from '../../http/client.js';
import { apiPath } from '../../http/encode.js';

export interface JobTokenScope {
  inbound_enabled: boolean;
  outbound_enabled: boolean;
  /** Paths of the projects on the allowlist (the project itself is always one). */
  allowlist: string[];
  /** Full paths of the groups on the allowlist. */
  groups_allowlist: string[];
}

export interface Reach {
  allowed: boolean;
  reason: string;
}

/** A group's full path from its `web_url` (`…/groups/<full path>`), the one place BasicGroupDetails gives it. */
function groupPath(webUrl: string): string {
  return decodeURIComponent(new URL(webUrl).pathname.replace(/^.*?\/groups\//, ''));
}

/** The project's inbound job-token scope: the setting and both allowlists, every page. */
export async function readScope(http: HttpClient, project: string): Promise<JobTokenScope> {
  const setting = await getRecord<{ inbound_enabled: boolean; outbound_enabled: boolean }>(
    http,
    apiPath`/projects/${project}/job_token_scope`,
  );
  const projects = await listAllRecords<{ path_with_namespace: string }>(http, apiPath`/projects/${project}/job_token_scope/allowlist`);
  const groups = await listAllRecords<{ web_url: string }>(http, apiPath`/projects/${project}/job_token_scope/groups_allowlist`);
  return {
    inbound_enabled: setting.inbound_enabled,
    outbound_enabled: setting.outbound_enabled,
    allowlist: projects.map((p) => p.path_with_namespace),
    groups_allowlist: groups.map((g) => groupPath(g.web_url)),
  };
}

/** The allowlisted group that holds `path` (a group's full path), itself or an ancestor. */
function holdingGroup(scope: JobTokenScope, path: string): string | undefined {
  return scope.groups_allowlist.find((g) => path === g || path.startsWith(`${g}/`));
}

interface ProjectRef {
  id: number;
  path_with_namespace: string;
  namespace?: { kind: string; full_path: string };
}

/** How the service decides whether a job of `from` may use its token on `target`, given the target's scope. */
function decide(scope: JobTokenScope, target: ProjectRef, from: ProjectRef): Reach {
  const name = from.path_with_namespace;
  const onto = target.path_with_namespace;
  if (!scope.inbound_enabled)
    return { allowed: true, reason: `the inbound job token scope of ${onto} is disabled: every project's jobs may reach it` };
  if (from.id === target.id) return { allowed: true, reason: `${name} is the project itself` };
  if (scope.allowlist.includes(name)) return { allowed: true, reason: `${name} is on the allowlist of ${onto}` };
  const group = from.namespace?.kind === 'group' ? holdingGroup(scope, from.namespace.full_path) : undefined;
  if (group) return { allowed: true, reason: `${name} is in group ${group}, on the group allowlist of ${onto}` };
  return { allowed: false, reason: `${name} is neither on the allowlist of ${onto} nor in a group on it` };
}

/** Whether a job of `source` may use its token on `project`, and why, as the service decides it. */
export async function projectReach(http: HttpClient, project: string, source: string): Promise<Reach> {
  const scope = await readScope(http, project);
  return decide(scope, await getProject(http, project), await getProject(http, source));
}

export interface ProjectReach extends Reach {
  job_project: string;
}

/**
 * Whether the jobs of each project in `group` (its subgroups' too, not the ones shared with it) may reach
 * `project`: one answer per project, decided as for a single one.
 */
export async function groupReach(http: HttpClient, project: string, group: string): Promise<{ target: string; reaches: ProjectReach[] }> {
  const scope = await readScope(http, project);
  const target = await getProject(http, project);
  const projects = await listAllRecords<ProjectRef>(http, apiPath`/groups/${group}/projects`, {
    include_subgroups: true,
    with_shared: false,
  });
  projects.sort((a, b) => (a.path_with_namespace < b.path_with_namespace ? -1 : 1));
  const reaches = projects.map((from) => ({ job_project: from.path_with_namespace, ...decide(scope, target, from) }));
  return { target: target.path_with_namespace, reaches };
}
