// Environments and their deployments (app/models/environment.rb, deployment.rb): every seeded
// project has the same nine environments and six deployments, dated back from the sandbox's clock
// when a project's environments are first read, and `production` is protected with one required
// approval (EE's protected environments). Apart from the routes, which environments.ts and
// deployments.ts share.
import { ask } from '../engine/ports.js';
import { storeFor } from '../store/collection.js';
import type { World } from '../store/world.js';
import { iso } from '../util/time.js';
import { DAY, pipelineById, SEEDED_JOBS, SEEDED_PIPELINES } from './pipeline-store.js';
import { userBasic } from '../entities/user.js';

export const ENV_STATES = ['available', 'stopping', 'stopped'] as const;
export type EnvState = (typeof ENV_STATES)[number];
export const TIERS = ['production', 'staging', 'testing', 'development', 'other'] as const;
export const DEPLOYMENT_STATUSES = ['created', 'running', 'success', 'failed', 'canceled', 'skipped', 'blocked'] as const;

export interface EnvRec {
  id: number;
  projectId: number;
  name: string;
  slug: string;
  externalUrl: string | null;
  tier: string;
  state: EnvState;
  createdAt: number;
  updatedAt: number;
}

export interface ApprovalRec {
  userId: number;
  status: 'approved' | 'rejected';
  comment: string | null;
  createdAt: number;
}

export interface DeploymentRec {
  id: number;
  iid: number;
  projectId: number;
  envId: number;
  ref: string;
  sha: string;
  userId: number;
  status: (typeof DEPLOYMENT_STATUSES)[number];
  createdAt: number;
  updatedAt: number;
  jobId: number | null;
  approvals: ApprovalRec[];
}

/** A protected environment of the premium tier: who deploys, and how many approvals a deployment needs. */
export interface ProtectedEnvRec {
  name: string;
  deployLevel: number;
  requiredApprovals: number;
}

interface ProjectEnvs {
  envs: EnvRec[];
  deployments: DeploymentRec[];
  protectedEnvs: ProtectedEnvRec[];
}

// name, state, age in days
const SEEDED_ENVS: ReadonlyArray<readonly [string, EnvState, number]> = [
  ['production', 'available', 2],
  ['staging', 'available', 3],
  ['review/feature-login', 'available', 45],
  ['review/fix-issue-1', 'available', 10],
  ['review/develop', 'available', 60],
  ['review/search-v2', 'stopped', 90],
  ['review/broken-build', 'stopping', 40],
  ['review/docs', 'available', 120],
  ['canary', 'available', 50],
];

// environment (index into SEEDED_ENVS), seeded pipeline iid, status, age in days
const SEEDED_DEPLOYMENTS: ReadonlyArray<readonly [number, number, DeploymentRec['status'], number]> = [
  [1, 1, 'success', 3],
  [0, 2, 'success', 2],
  [0, 3, 'blocked', 1],
  [4, 3, 'success', 5],
  [2, 1, 'success', 45],
  [3, 2, 'failed', 10],
];

const MAINTAINER = 40;

/** `Environment#guess_tier`: the tier a name suggests. */
export function guessTier(name: string): string {
  if (/(dev|review|trunk)/i.test(name)) return 'development';
  if (/(test|tst|int|ac(ce|)pt|qa|qc|control|quality)/i.test(name)) return 'testing';
  if (/(st(a|)g|mod(e|)l|pre|demo|non)/i.test(name)) return 'staging';
  if (/(pr(o|)d|live)/i.test(name)) return 'production';
  return 'other';
}

/** `Environment#generate_slug`: lowercase letters, digits and dashes, at most 24, with a suffix when it had to change the name. */
export function environmentSlug(w: World, name: string, id: number): string {
  let slug = name.toLowerCase().replace(/[^a-z0-9]/g, '-');
  if (!/^[a-z]/.test(slug)) slug = `env-${slug}`;
  slug = slug.replace(/-+/g, '-').slice(0, 24).replace(/-$/, '');
  if (slug === name) return slug;
  const suffix = (w.h(91, id) >>> 0).toString(36).padStart(6, '0').slice(-6);
  return `${slug.slice(0, 17).replace(/-$/, '')}-${suffix}`;
}

function seed(w: World, projectId: number, anchor: number): ProjectEnvs {
  const p = w.projects.get(projectId);
  if (!p?.seeded) return { envs: [], deployments: [], protectedEnvs: [] };
  const envs = SEEDED_ENVS.map(([name, state, age], k): EnvRec => {
    const id = (projectId - 1) * SEEDED_ENVS.length + k + 1;
    const updatedAt = anchor - age * DAY;
    return {
      id,
      projectId,
      name,
      slug: environmentSlug(w, name, id),
      externalUrl: name.startsWith('review/') ? `https://${name.slice(7)}.review.example.com` : null,
      tier: guessTier(name),
      state,
      createdAt: Math.min(updatedAt, anchor - 150 * DAY),
      updatedAt,
    };
  });
  const deployments = SEEDED_DEPLOYMENTS.map(([env, iid, status, age], k): DeploymentRec => {
    const pipeline = pipelineById(w, (projectId - 1) * SEEDED_PIPELINES + iid)!;
    const at = anchor - age * DAY;
    return {
      id: (projectId - 1) * SEEDED_DEPLOYMENTS.length + k + 1,
      iid: k + 1,
      projectId,
      envId: envs[env]!.id,
      ref: pipeline.ref,
      sha: pipeline.sha,
      userId: pipeline.userId,
      status,
      createdAt: at - 600_000,
      updatedAt: at,
      jobId: (pipeline.id - 1) * SEEDED_JOBS + 1,
      approvals: [],
    };
  });
  return { envs, deployments, protectedEnvs: [{ name: 'production', deployLevel: MAINTAINER, requiredApprovals: 1 }] };
}

export const environmentStore = storeFor((w) => {
  const anchor = w.now();
  return {
    byProject: new Map<number, ProjectEnvs>(),
    nextEnvId: w.seededProjects * SEEDED_ENVS.length + 1,
    nextDeploymentId: w.seededProjects * SEEDED_DEPLOYMENTS.length + 1,
    anchor,
  };
});

export function projectEnvs(w: World, projectId: number): ProjectEnvs {
  const store = environmentStore(w);
  let own = store.byProject.get(projectId);
  if (!own) {
    own = seed(w, projectId, store.anchor);
    store.byProject.set(projectId, own);
  }
  return own;
}

export function protectedEnv(w: World, env: EnvRec): ProtectedEnvRec | undefined {
  return projectEnvs(w, env.projectId).protectedEnvs.find((pe) => pe.name === env.name);
}

/** The newest deployment of an environment (`last_deployment`: by id). */
export function lastDeployment(w: World, env: EnvRec): DeploymentRec | undefined {
  const mine = projectEnvs(w, env.projectId).deployments.filter((d) => d.envId === env.id);
  return mine[mine.length - 1];
}

/** Approvals still missing: the required count less the approvals given. */
export function pendingApprovals(w: World, d: DeploymentRec): number {
  const env = projectEnvs(w, d.projectId).envs.find((e) => e.id === d.envId);
  const required = env ? (protectedEnv(w, env)?.requiredApprovals ?? 0) : 0;
  return Math.max(0, required - d.approvals.filter((a) => a.status === 'approved').length);
}

export function envBasicJson(e: EnvRec): Record<string, unknown> {
  return {
    id: e.id,
    name: e.name,
    slug: e.slug,
    external_url: e.externalUrl,
    created_at: iso(e.createdAt),
    updated_at: iso(e.updatedAt),
  };
}

/** The Deployment entity; `environment: false` leaves the environment out (inside the environment's own answer). */
export function deploymentJson(w: World, d: DeploymentRec, environment = true): Record<string, unknown> {
  const user = w.users.get(d.userId);
  const env = projectEnvs(w, d.projectId).envs.find((e) => e.id === d.envId);
  return {
    id: d.id,
    iid: d.iid,
    ref: d.ref,
    sha: d.sha,
    created_at: iso(d.createdAt),
    updated_at: iso(d.updatedAt),
    user: user ? userBasic(w, user) : null,
    ...(environment ? { environment: env ? envBasicJson(env) : null } : {}),
    deployable: d.jobId === null ? null : ask('jobJson')(w, d.jobId),
    status: d.status,
  };
}
