// The scenario file's one definition: `svc sandbox --scenario-schema` prints it as it is, and
// validate.ts checks a file against it, so the two cannot drift. Only the keywords validate.ts
// interprets are used (type, properties, required, additionalProperties, items, enum, minimum,
// maximum, minLength, pattern, $ref into $defs).
import { DEPLOYMENT_STATUSES } from '../resources/environment-store.js';

export interface SchemaNode {
  $ref?: string;
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  description?: string;
  properties?: Record<string, SchemaNode>;
  required?: string[];
  additionalProperties?: false | SchemaNode;
  items?: SchemaNode;
  enum?: readonly string[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  pattern?: string;
  default?: unknown;
}

export const JOB_STATUSES = ['success', 'failed'] as const;
export const ROLES = ['guest', 'planner', 'reporter', 'developer', 'maintainer', 'owner'] as const;
const VISIBILITIES = ['private', 'internal', 'public'] as const;
const PATH = '^[A-Za-z0-9_][A-Za-z0-9_.-]*$';
const FULL_PATH = '^[A-Za-z0-9_][A-Za-z0-9_.-]*(/[A-Za-z0-9_][A-Za-z0-9_.-]*)*$';

const str = (description: string, extra: Partial<SchemaNode> = {}): SchemaNode => ({ type: 'string', description, ...extra });
const list = (items: SchemaNode, description: string): SchemaNode => ({ type: 'array', description, items });
const object = (properties: Record<string, SchemaNode>, required: string[], description: string): SchemaNode => ({
  type: 'object',
  description,
  properties,
  required,
  additionalProperties: false,
});

const member = object(
  { user: str('username of a scenario user, or root or jdoe'), role: { type: 'string', enum: ROLES } },
  ['user', 'role'],
  'a direct membership',
);

const variable = object(
  {
    key: str('variable key', { pattern: '^[A-Za-z0-9_]+$' }),
    value: str('variable value'),
    variable_type: { type: 'string', enum: ['env_var', 'file'], default: 'env_var' },
    protected: { type: 'boolean', default: false },
    masked: { type: 'boolean', default: false },
    environment_scope: str('environment scope', { default: '*' }),
    description: str('what the variable is for'),
  },
  ['key', 'value'],
  'a CI/CD variable',
);

const job = object(
  {
    name: str('job name', { minLength: 1 }),
    stage: str('stage; stages run in the order they first appear, a failed stage skips the later ones', { minLength: 1 }),
    status: { type: 'string', enum: JOB_STATUSES, default: 'success', description: 'how the job ends' },
    duration: { type: 'number', minimum: 0, maximum: 86_400, default: 1, description: 'seconds the job runs' },
    queued: { type: 'number', minimum: 0, maximum: 86_400, default: 0, description: 'seconds the job waits in pending' },
    log: str('the job log, written line by line while it runs'),
    trigger: { $ref: '#/$defs/downstream' },
  },
  ['name', 'stage'],
  'a job that runs a script, or a trigger job (with `trigger`, no status, duration or log) that ends as its downstream pipeline ends',
);

const pipelineProperties: Record<string, SchemaNode> = {
  ref: str('branch the pipeline runs on', { default: 'main' }),
  user: str('username that started the pipeline', { default: 'root' }),
  starts_after: { type: 'number', minimum: 0, default: 0, description: 'seconds after the sandbox starts that the pipeline is created' },
  variables: list(
    object({ key: str('key', { pattern: '^[A-Za-z0-9_]+$' }), value: str('value') }, ['key', 'value'], 'a pipeline variable'),
    'pipeline variables',
  ),
  jobs: list({ $ref: '#/$defs/job' }, 'the jobs, in order'),
};

const schedule = object(
  {
    description: str('description', { minLength: 1 }),
    ref: str('branch', { default: 'main' }),
    cron: str('cron expression'),
    cron_timezone: str('time zone', { default: 'UTC' }),
    active: { type: 'boolean', default: true },
    owner: str('username of the owner', { default: 'root' }),
  },
  ['description', 'cron'],
  'a pipeline schedule',
);

const deployment = object(
  {
    status: { type: 'string', enum: DEPLOYMENT_STATUSES, default: 'success' },
    ref: str('the branch deployed (its head is the sha)', { default: 'main' }),
    user: str('username of who deployed: a scenario user, or root or jdoe', { default: 'root' }),
    days_ago: { type: 'integer', minimum: 0, default: 0, description: 'days since it was created' },
  },
  [],
  'a deployment',
);

const environment = object(
  {
    name: str('environment name (review apps sit in a folder: review/feature-x)', { minLength: 1 }),
    state: { type: 'string', enum: ['available', 'stopping', 'stopped'], default: 'available' },
    tier: {
      type: 'string',
      enum: ['production', 'staging', 'testing', 'development', 'other'],
      description: 'default: guessed from the name, as the service does',
    },
    external_url: str('where the environment is reached', { pattern: '^https?://' }),
    updated_days_ago: { type: 'integer', minimum: 0, default: 0, description: 'days since it was last updated (for stop-stale)' },
    required_approvals: { type: 'integer', minimum: 1, description: 'protect it: deployments wait for this many approvals' },
    deployments: list(deployment, "its deployments, oldest first: the last is the environment's last_deployment"),
  },
  ['name'],
  'an environment',
);

const group = object(
  {
    path: str('group path', { pattern: PATH }),
    name: str('group name (default: the path)'),
    description: str('description'),
    visibility: { type: 'string', enum: VISIBILITIES, default: 'private' },
    members: list(member, 'direct members'),
    variables: list(variable, 'group CI/CD variables'),
    subgroups: list({ $ref: '#/$defs/group' }, 'nested groups'),
  },
  ['path'],
  'a group',
);

const project = object(
  {
    path: str('project path', { pattern: PATH }),
    namespace: str('full path of a scenario group, or a username', { pattern: FULL_PATH }),
    name: str('project name (default: the path)'),
    description: str('description'),
    visibility: { type: 'string', enum: VISIBILITIES, default: 'private' },
    files: { type: 'object', description: 'repository files on main: path → content', additionalProperties: { type: 'string' } },
    branches: list(str('branch name', { pattern: '^[A-Za-z0-9_][A-Za-z0-9_./-]*$' }), 'branches besides main, at the same commit'),
    members: list(member, 'direct members'),
    variables: list(variable, 'project CI/CD variables'),
    schedules: list(schedule, 'pipeline schedules'),
    environments: list(environment, 'environments'),
    pipelines: list({ $ref: '#/$defs/pipeline' }, 'pipelines, created in this order'),
  },
  ['path', 'namespace'],
  'a project',
);

export const SCENARIO_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://svc.invalid/sandbox-scenario.schema.json',
  title: 'svc sandbox scenario',
  ...object(
    {
      users: list(
        object(
          {
            username: str('username', { pattern: PATH }),
            name: str('full name (default: the username)'),
            email: str('email (default: username@example.com)'),
            admin: { type: 'boolean', default: false },
          },
          ['username'],
          'a user',
        ),
        'users besides root (the admin) and jdoe, whose tokens the sandbox prints',
      ),
      groups: list({ $ref: '#/$defs/group' }, 'top-level groups'),
      projects: list(project, 'projects'),
    },
    [],
    'the world `svc sandbox --scenario` serves instead of the seeded one',
  ),
  $defs: {
    group,
    job,
    pipeline: object(pipelineProperties, ['jobs'], 'a pipeline'),
    downstream: object(
      { ...pipelineProperties, project: str('full path of the downstream project (absent: a child pipeline)', { pattern: FULL_PATH }) },
      ['jobs'],
      'the pipeline a trigger job starts: in another project (multi-project) or, without `project`, a child pipeline',
    ),
  } as Record<string, SchemaNode>,
};

// ---- the parsed file (what the schema admits) ----------------------------------------------

export interface ScenarioMember {
  user: string;
  role: (typeof ROLES)[number];
}
export interface ScenarioVariable {
  key: string;
  value: string;
  variable_type?: 'env_var' | 'file';
  protected?: boolean;
  masked?: boolean;
  environment_scope?: string;
  description?: string;
}
export interface ScenarioJob {
  name: string;
  stage: string;
  status?: (typeof JOB_STATUSES)[number];
  duration?: number;
  queued?: number;
  log?: string;
  trigger?: ScenarioDownstream;
}
export interface ScenarioPipeline {
  ref?: string;
  user?: string;
  starts_after?: number;
  variables?: Array<{ key: string; value: string }>;
  jobs: ScenarioJob[];
}
export interface ScenarioDownstream extends ScenarioPipeline {
  project?: string;
}
export interface ScenarioSchedule {
  description: string;
  ref?: string;
  cron: string;
  cron_timezone?: string;
  active?: boolean;
  owner?: string;
}
export interface ScenarioGroup {
  path: string;
  name?: string;
  description?: string;
  visibility?: (typeof VISIBILITIES)[number];
  members?: ScenarioMember[];
  variables?: ScenarioVariable[];
  subgroups?: ScenarioGroup[];
}
export interface ScenarioProject {
  path: string;
  namespace: string;
  name?: string;
  description?: string;
  visibility?: (typeof VISIBILITIES)[number];
  files?: Record<string, string>;
  branches?: string[];
  members?: ScenarioMember[];
  variables?: ScenarioVariable[];
  schedules?: ScenarioSchedule[];
  environments?: ScenarioEnvironment[];
  pipelines?: ScenarioPipeline[];
}
export interface ScenarioEnvironment {
  name: string;
  state?: 'available' | 'stopping' | 'stopped';
  tier?: string;
  external_url?: string;
  updated_days_ago?: number;
  required_approvals?: number;
  deployments?: ScenarioDeployment[];
}
export interface ScenarioDeployment {
  status?: (typeof DEPLOYMENT_STATUSES)[number];
  ref?: string;
  user?: string;
  days_ago?: number;
}
export interface Scenario {
  users?: Array<{ username: string; name?: string; email?: string; admin?: boolean }>;
  groups?: ScenarioGroup[];
  projects?: ScenarioProject[];
}
