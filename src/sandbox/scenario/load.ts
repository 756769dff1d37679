// Loads a validated scenario into a bare world (root and jdoe only) through the stores' own
// write paths: the records look and behave as if they had been created through the API.
import { ACCESS_LEVELS, OWNER, PLANNER } from '../access.js';
import { addSchedule } from '../resources/pipeline-schedules.js';
import { newProjectRec } from '../resources/projects.js';
import { addVariable } from '../resources/variables.js';
import type { GroupRec, ProjectRec, UserRec } from '../store/records.js';
import type { World } from '../store/world.js';
import { addScenarioPipeline } from './pipelines.js';
import type { Scenario, ScenarioEnvironment, ScenarioGroup, ScenarioMember, ScenarioVariable } from './schema.js';
import { environmentSlug, environmentStore, guessTier, projectEnvs } from '../resources/environment-store.js';
import { DAY } from '../resources/pipeline-store.js';

const [GUEST, REPORTER, DEVELOPER, MAINTAINER] = ACCESS_LEVELS;
const LEVELS: Record<ScenarioMember['role'], number> = {
  guest: GUEST,
  planner: PLANNER,
  reporter: REPORTER,
  developer: DEVELOPER,
  maintainer: MAINTAINER,
  owner: OWNER,
};

function addMembers(w: World, kind: 'group' | 'project', id: number, members: ScenarioMember[] | undefined, at: number): void {
  for (const m of members ?? []) {
    const user = w.findUser(m.user)!;
    w.memberships.set(kind, id, user.id, { level: LEVELS[m.role], expiresAt: null, createdById: 1, createdAt: at });
  }
}

function addVariables(w: World, owner: string, variables: ScenarioVariable[] | undefined): void {
  for (const v of variables ?? []) {
    addVariable(w, owner, {
      key: v.key,
      value: v.value,
      variableType: v.variable_type ?? 'env_var',
      protected: v.protected ?? false,
      masked: v.masked ?? false,
      hidden: false,
      raw: false,
      environmentScope: v.environment_scope ?? '*',
      description: v.description ?? null,
    });
  }
}

function addGroups(w: World, groups: ScenarioGroup[] | undefined, parent: GroupRec | null, at: number): void {
  for (const g of groups ?? []) {
    const name = g.name ?? g.path;
    const rec = w.addGroup({
      name,
      path: g.path,
      fullPath: parent ? `${parent.fullPath}/${g.path}` : g.path,
      fullName: parent ? `${parent.fullName} / ${name}` : name,
      parentId: parent?.id ?? null,
      rootId: parent?.rootId ?? 0,
      visibility: g.visibility ?? 'private',
      description: g.description ?? '',
      createdAt: at,
      storage: w.storages[0]!,
      readOnly: false,
    });
    if (!parent) rec.rootId = rec.id;
    addMembers(w, 'group', rec.id, g.members, at);
    addVariables(w, `group:${rec.id}`, g.variables);
    addGroups(w, g.subgroups, rec, at);
  }
}

/**
 * A project's environments, protected ones with their approval rule (maintainers deploy), and their
 * deployments: no job behind them, the sha the head of the branch deployed.
 */
function addEnvironments(
  w: World,
  p: ProjectRec,
  defs: ScenarioEnvironment[] | undefined,
  at: number,
  userId: (name: string | undefined) => number,
): void {
  const store = environmentStore(w);
  const own = projectEnvs(w, p.id);
  for (const env of defs ?? []) {
    const id = store.nextEnvId++;
    const updatedAt = at - (env.updated_days_ago ?? 0) * DAY;
    own.envs.push({
      id,
      projectId: p.id,
      name: env.name,
      slug: environmentSlug(w, env.name, id),
      externalUrl: env.external_url ?? null,
      tier: env.tier ?? guessTier(env.name),
      state: env.state ?? 'available',
      createdAt: updatedAt,
      updatedAt,
    });
    if (env.required_approvals)
      own.protectedEnvs.push({ name: env.name, deployLevel: MAINTAINER, requiredApprovals: env.required_approvals });
    for (const d of env.deployments ?? []) {
      const createdAt = at - (d.days_ago ?? 0) * DAY;
      const ref = d.ref ?? 'main';
      own.deployments.push({
        id: store.nextDeploymentId++,
        iid: own.deployments.length + 1,
        projectId: p.id,
        envId: id,
        ref,
        sha: w.repos.resolveRef(p.id, ref)!,
        userId: userId(d.user),
        status: d.status ?? 'success',
        createdAt,
        updatedAt: createdAt,
        jobId: null,
        approvals: [],
      });
    }
  }
}

/** Fills the world with the scenario; `at` is when its records were created (the sandbox clock at start). */
export function loadScenario(w: World, s: Scenario, at: number): void {
  for (const u of s.users ?? []) {
    const rec: Omit<UserRec, 'id'> = {
      username: u.username,
      name: u.name ?? u.username,
      email: u.email ?? `${u.username.toLowerCase()}@example.com`,
      state: 'active',
      isAdmin: u.admin ?? false,
      createdAt: at,
      updatedAt: at,
    };
    w.addUser(rec);
  }
  addGroups(w, s.groups, null, at);
  const root = w.users.get(1)!;
  const projects: Array<[ProjectRec, NonNullable<Scenario['projects']>[number]]> = [];
  for (const def of s.projects ?? []) {
    const group = w.findGroup(def.namespace);
    const owner = group ? null : w.findUser(def.namespace)!;
    const p = newProjectRec(
      {
        id: w.projects.nextId(),
        name: def.name ?? def.path,
        path: def.path,
        nsKind: group ? 'group' : 'user',
        nsOwner: group ? group.id : owner!.id,
        visibility: def.visibility ?? 'private',
        storage: w.storages[0]!,
      },
      { description: def.description ?? null, creatorId: owner?.id ?? root.id },
      at,
    );
    w.addProject(p);
    const files = new Map(Object.entries(def.files ?? { 'README.md': `# ${p.name}\n` }).map(([path, text]) => [path, Buffer.from(text)]));
    w.repos.createWithFiles(p.id, files, def.branches ?? [], [root.name, root.email]);
    addMembers(w, 'project', p.id, def.members, at);
    addVariables(w, `project:${p.id}`, def.variables);
    projects.push([p, def]);
  }
  w.accessChanged();
  const userId = (name: string | undefined) => (name === undefined ? root.id : w.findUser(name)!.id);
  for (const [p, def] of projects) {
    for (const sc of def.schedules ?? []) {
      addSchedule(w, {
        projectId: p.id,
        description: sc.description,
        ref: sc.ref ?? 'main',
        cron: sc.cron,
        cronTimezone: sc.cron_timezone ?? 'UTC',
        active: sc.active ?? true,
        ownerId: userId(sc.owner),
        createdAt: at,
        updatedAt: at,
        lastPipeline: null,
        variables: [],
        pipelineIds: [],
      });
    }
    addEnvironments(w, p, def.environments, at, userId);
    for (const pl of def.pipelines ?? []) {
      addScenarioPipeline(w, {
        project: p,
        def: pl,
        createdAt: at + (pl.starts_after ?? 0) * 1000,
        projectByPath: (path) => w.findProjectByPath(path)!.project,
        userId,
      });
    }
  }
}
