import type { OptionSpec } from '../../cli/spec.js';
import { calledOf, type Resource } from '../generic/resource.js';
import { getVerb, listVerb } from '../generic/verbs.js';
import { writeVerb } from '../generic/write.js';
import { nameParam, PROJECT, requiredTextParser } from '../shared/args.js';
import { explainingDeleteRefusal, namingMissingEnvironment, stopOutcome } from './shared/refusals.js';
import { environmentId } from './shared/resolve.js';
import { STOP_STALE } from './stop-stale.js';
import { answerText } from '../shared/answer-text.js';

const TIERS = ['production', 'staging', 'testing', 'development', 'other'];
const TIER: OptionSpec = {
  flags: '--tier <tier>',
  key: 'tier',
  help: 'production, staging, testing, development or other (the service guesses it from the name otherwise)',
  choices: TIERS,
};
const EXTERNAL_URL: OptionSpec = { flags: '--external-url <url>', key: 'external_url', help: 'where the deployed environment can be seen' };
const BY_NAME =
  "The environment is given by its id or its name; a name is looked up first with the listing's name= filter (one more request).";

const ENVIRONMENTS: Resource = {
  path: '/projects/:project/environments',
  id: 'environment',
  params: {
    project: PROJECT,
    environment: {
      ...nameParam('environment', 'environment id or name (review/feature-x)'),
      // Messages keep what was typed; only the path takes the id.
      resolve: (http, env, [project]) => environmentId(http, String(project), String(env)),
    },
  },
  columns: ['id', 'name', 'state', 'tier', 'updated_at', 'external_url'],
  fields: [
    'id',
    'name',
    'slug',
    'state',
    'tier',
    'external_url',
    'created_at',
    'updated_at',
    'last_deployment.id',
    'last_deployment.status',
  ],
  tokens: ['job'],
  called: (args) => `environment ${String(args[1])} of project ${String(args[0])}`,
  create: [
    {
      flags: '--name <name>',
      key: 'name',
      help: 'the environment name (review/x puts it in the review folder)',
      required: true,
      parse: requiredTextParser('--name'),
    },
    EXTERNAL_URL,
    TIER,
  ],
  update: {
    fields: [
      { flags: '--name <name>', key: 'name', help: 'rename it (the service deprecates renaming)', parse: requiredTextParser('--name') },
      EXTERNAL_URL,
      TIER,
    ],
    atLeastOne: true,
  },
  roles: { list: 'reporter', get: 'reporter', create: 'developer', update: 'developer', stop: 'developer', delete: 'developer' },
  confirmDelete: true,
};

export const commands = [
  listVerb(ENVIRONMENTS, {
    description: "List a project's environments",
    filters: [
      {
        flags: '--search <text>',
        key: 'search',
        help: 'only environments whose name (or name in its folder) starts with the text (3 characters at least)',
      },
      {
        flags: '--states <state>',
        key: 'states',
        help: 'only available, stopping or stopped environments',
        choices: ['available', 'stopping', 'stopped'],
      },
    ],
    examples: ['svc environments list acme/platform/api --states available', 'svc environments list 42 --search review -o json'],
  }),
  namingMissingEnvironment(
    getVerb(ENVIRONMENTS, {
      description: 'Show one environment, with its last deployment',
      notes: BY_NAME,
      examples: ['svc environments get acme/platform/api production', 'svc environments get 42 17 -o json'],
    }),
  ),
  writeVerb(ENVIRONMENTS, {
    name: 'create',
    description: 'Create an environment',
    done: ({ args, params, record }) => {
      const id = answerText(record.id);
      return `created ${calledOf(ENVIRONMENTS, [args[0], answerText(record.name) ?? params.name])}${id ? ` (id ${id})` : ''}`;
    },
    examples: [
      'svc environments create acme/platform/api --name review/login --external-url https://login.review.example.com',
      'svc environments create 42 --name qa --tier testing',
    ],
  }),
  namingMissingEnvironment(
    writeVerb(ENVIRONMENTS, {
      name: 'update',
      description: "Change an environment's external URL, tier or name",
      notes: BY_NAME,
      examples: ['svc environments update acme/platform/api staging --external-url https://staging.example.com'],
    }),
  ),
  namingMissingEnvironment(
    writeVerb(ENVIRONMENTS, {
      name: 'stop',
      description: 'Stop an environment (its stop job runs unless --force)',
      path: '/projects/:project/environments/:environment/stop',
      body: [{ flags: '--force', key: 'force', help: 'stop it without running its on_stop job' }],
      notes: `${BY_NAME}\n\nThe service answers a stop it does not allow (below the developer role) with the environment unchanged; svc says so and exits 4.`,
      done: ({ args, record }) => stopOutcome(args, record),
      examples: ['svc environments stop acme/platform/api review/login', 'svc environments stop 42 17 --force'],
    }),
  ),
  namingMissingEnvironment(
    explainingDeleteRefusal(
      writeVerb(ENVIRONMENTS, {
        name: 'delete',
        description: 'Delete a stopped environment (the service refuses an available one); asks first unless --yes',
        notes: BY_NAME,
        examples: ['svc environments delete acme/platform/api review/login', 'svc environments delete 42 17 --yes'],
      }),
    ),
  ),
  STOP_STALE,
];
