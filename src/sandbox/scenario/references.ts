// What the schema cannot say: names that must exist (users, namespaces, projects, branches), names
// given twice, and values the service would refuse (cron, masked variables). Runs once the shape is right.
import { parseCron, zoneOffset } from '../util/cron.js';
import type { Scenario, ScenarioGroup, ScenarioMember, ScenarioPipeline, ScenarioProject, ScenarioVariable } from './schema.js';

type Report = (path: string, message: string) => void;

/** Users every sandbox has: the ones its printed tokens belong to. */
export const BUILT_IN_USERS = ['root', 'jdoe'];
const MASKABLE = /^[a-zA-Z0-9_+=/@:.~-]{8,}$/;

function once(seen: Set<string>, key: string, path: string, report: Report, what: string): void {
  if (seen.has(key)) report(path, `${what} is given twice`);
  seen.add(key);
}

function checkMembers(members: ScenarioMember[] | undefined, path: string, users: Set<string>, report: Report): void {
  const seen = new Set<string>();
  members?.forEach((m, i) => {
    const at = `${path}.members[${i}].user`;
    if (!users.has(m.user.toLowerCase())) report(at, `no user '${m.user}' in the scenario (nor root, jdoe)`);
    once(seen, m.user.toLowerCase(), at, report, `user '${m.user}'`);
  });
}

function checkVariables(variables: ScenarioVariable[] | undefined, path: string, report: Report): void {
  const seen = new Set<string>();
  variables?.forEach((v, i) => {
    const at = `${path}.variables[${i}]`;
    once(seen, `${v.key}\n${v.environment_scope ?? '*'}`, `${at}.key`, report, `key '${v.key}' (scope ${v.environment_scope ?? '*'})`);
    if (v.masked && !MASKABLE.test(v.value))
      report(`${at}.value`, 'a masked value needs 8 or more characters of A-Z a-z 0-9 _ + = / @ : . ~ -');
  });
}

function walkGroups(
  groups: ScenarioGroup[] | undefined,
  path: string,
  parent: string,
  found: Set<string>,
  users: Set<string>,
  report: Report,
): void {
  const siblings = new Set<string>();
  groups?.forEach((g, i) => {
    const at = `${path}[${i}]`;
    const full = parent ? `${parent}/${g.path}` : g.path;
    once(siblings, g.path.toLowerCase(), `${at}.path`, report, `group '${full}'`);
    found.add(full.toLowerCase());
    checkMembers(g.members, at, users, report);
    checkVariables(g.variables, at, report);
    walkGroups(g.subgroups, `${at}.subgroups`, full, found, users, report);
  });
}

function checkPipeline(pl: ScenarioPipeline, at: string, project: ScenarioProject, ctx: Refs): void {
  const { users, projects, report } = ctx;
  const ref = pl.ref ?? 'main';
  if (ref !== 'main' && !(project.branches ?? []).includes(ref))
    report(`${at}.ref`, `no branch '${ref}' in project '${fullPath(project)}'`);
  if (pl.user !== undefined && !users.has(pl.user.toLowerCase()))
    report(`${at}.user`, `no user '${pl.user}' in the scenario (nor root, jdoe)`);
  if (pl.jobs.length === 0) report(`${at}.jobs`, 'needs at least one job');
  const names = new Set<string>();
  pl.jobs.forEach((job, j) => {
    const jat = `${at}.jobs[${j}]`;
    once(names, job.name, `${jat}.name`, report, `job '${job.name}'`);
    if (!job.trigger) return;
    for (const key of ['status', 'duration', 'queued', 'log'] as const)
      if (job[key] !== undefined) report(`${jat}.${key}`, 'a trigger job ends as its downstream pipeline ends: leave it out');
    const target = job.trigger.project === undefined ? project : projects.get(job.trigger.project.toLowerCase());
    if (!target) report(`${jat}.trigger.project`, `no project '${job.trigger.project}' in the scenario`);
    else checkPipeline(job.trigger, `${jat}.trigger`, target, ctx);
  });
}

interface Refs {
  users: Set<string>;
  projects: Map<string, ScenarioProject>;
  report: Report;
}

function fullPath(p: ScenarioProject): string {
  return `${p.namespace}/${p.path}`;
}

export function checkReferences(s: Scenario, report: Report): void {
  const users = new Set(BUILT_IN_USERS);
  s.users?.forEach((u, i) => once(users, u.username.toLowerCase(), `users[${i}].username`, report, `user '${u.username}'`));
  const groups = new Set<string>();
  walkGroups(s.groups, 'groups', '', groups, users, report);
  const projects = new Map<string, ScenarioProject>();
  s.projects?.forEach((p, i) => {
    const at = `projects[${i}]`;
    if (!groups.has(p.namespace.toLowerCase()) && !users.has(p.namespace.toLowerCase()))
      report(`${at}.namespace`, `no group or user '${p.namespace}' in the scenario`);
    if (projects.has(fullPath(p).toLowerCase())) report(`${at}.path`, `project '${fullPath(p)}' is given twice`);
    projects.set(fullPath(p).toLowerCase(), p);
  });
  const refs: Refs = { users, projects, report };
  s.projects?.forEach((p, i) => {
    const at = `projects[${i}]`;
    const branches = new Set(['main']);
    p.branches?.forEach((b, k) => once(branches, b, `${at}.branches[${k}]`, report, `branch '${b}'`));
    checkMembers(p.members, at, users, report);
    checkVariables(p.variables, at, report);
    p.schedules?.forEach((sc, k) => {
      const sat = `${at}.schedules[${k}]`;
      if (!branches.has(sc.ref ?? 'main')) report(`${sat}.ref`, `no branch '${sc.ref}' in project '${fullPath(p)}'`);
      if (!parseCron(sc.cron)) report(`${sat}.cron`, 'is not a valid cron expression');
      if (zoneOffset(sc.cron_timezone ?? 'UTC', 0) === null) report(`${sat}.cron_timezone`, 'is not a known time zone');
      if (sc.owner !== undefined && !users.has(sc.owner.toLowerCase()))
        report(`${sat}.owner`, `no user '${sc.owner}' in the scenario (nor root, jdoe)`);
    });
    p.pipelines?.forEach((pl, k) => checkPipeline(pl, `${at}.pipelines[${k}]`, p, refs));
    p.environments?.forEach((env, k) =>
      env.deployments?.forEach((d, n) => {
        const dat = `${at}.environments[${k}].deployments[${n}]`;
        if (!branches.has(d.ref ?? 'main')) report(`${dat}.ref`, `no branch '${d.ref}' in project '${fullPath(p)}'`);
        if (d.user !== undefined && !users.has(d.user.toLowerCase()))
          report(`${dat}.user`, `no user '${d.user}' in the scenario (nor root, jdoe)`);
      }),
    );
  });
}
