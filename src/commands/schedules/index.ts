import type { Command } from 'commander';
import type { CommandSpec, OptionSpec } from '../../cli/spec.js';
import type { Runtime } from '../../runtime.js';
import { calledOf, type Resource } from '../generic/resource.js';
import { getVerb, listVerb } from '../generic/verbs.js';
import { writeVerb } from '../generic/write.js';
import { idParam, PROJECT, requiredTextParser } from '../shared/args.js';
import { withOwner } from './owner.js';
import { registerVariables } from './variables.js';
import { answerText } from '../shared/answer-text.js';

const CRON_HELP = 'when it runs, as five cron fields in quotes: minute hour day-of-month month day-of-week ("0 2 * * *")';
const TIMEZONE_HELP = 'the time zone the cron is read in, e.g. Europe/Berlin (the service defaults to UTC)';
const ACTIVE: OptionSpec = { flags: '--active', key: 'active', help: 'the schedule runs (the default for a new one)' };
const INACTIVE: OptionSpec = { flags: '--inactive', help: 'the schedule is paused', conflicts: ['active'] };

const SCHEDULES: Resource = {
  path: '/projects/:project/pipeline_schedules',
  id: 'schedule',
  params: { project: PROJECT, schedule: idParam('schedule id', 'schedule id (as in the schedule URL)') },
  columns: ['id', 'description', 'ref', 'cron', 'cron_timezone', 'next_run_at', 'active', 'owner.username'],
  fields: ['id', 'description', 'ref', 'cron', 'cron_timezone', 'next_run_at', 'active', 'owner.username', 'last_pipeline.id'],
  called: (args) => `schedule ${String(args[1])} of project ${String(args[0])}`,
  create: [
    {
      flags: '--description <text>',
      key: 'description',
      help: 'what the schedule is for',
      required: true,
      parse: requiredTextParser('--description'),
    },
    {
      flags: '--ref <ref>',
      key: 'ref',
      help: 'the branch or tag its pipelines run on',
      required: true,
      parse: requiredTextParser('--ref'),
    },
    { flags: '--cron <expression>', key: 'cron', help: CRON_HELP, required: true, parse: requiredTextParser('--cron') },
    { flags: '--cron-timezone <zone>', key: 'cron_timezone', help: TIMEZONE_HELP, parse: requiredTextParser('--cron-timezone') },
    ACTIVE,
  ],
  update: {
    fields: [
      { flags: '--description <text>', key: 'description', help: 'what the schedule is for', parse: requiredTextParser('--description') },
      { flags: '--ref <ref>', key: 'ref', help: 'the branch or tag its pipelines run on', parse: requiredTextParser('--ref') },
      { flags: '--cron <expression>', key: 'cron', help: CRON_HELP, parse: requiredTextParser('--cron') },
      { flags: '--cron-timezone <zone>', key: 'cron_timezone', help: TIMEZONE_HELP, parse: requiredTextParser('--cron-timezone') },
      ACTIVE,
      INACTIVE,
    ],
    atLeastOne: true,
  },
  roles: {
    list: 'reporter',
    get: 'reporter',
    create: 'developer',
    play: 'developer',
    'take-ownership': 'maintainer',
    delete: 'maintainer',
  },
  confirmDelete: true,
};

/** `--inactive` is `active: false` on the wire; commander keeps it as its own flag. */
function withInactive(spec: CommandSpec): CommandSpec {
  const options = spec.options ?? [];
  const at = options.indexOf(ACTIVE) + 1;
  return {
    ...spec,
    options: options.includes(INACTIVE) ? options : [...options.slice(0, at), INACTIVE, ...options.slice(at)],
    run: (ctx, args, opts) => spec.run(ctx, args, opts.inactive ? { ...opts, active: false } : opts),
  };
}

export const commands = [
  withOwner(
    listVerb(SCHEDULES, {
      description: "List a project's pipeline schedules",
      filters: [
        { flags: '--scope <scope>', key: 'scope', help: 'only the active or only the inactive schedules', choices: ['active', 'inactive'] },
      ],
      examples: ['svc schedules list acme/platform/api', 'svc schedules list 42 --scope inactive -o json'],
    }),
  ),
  getVerb(SCHEDULES, {
    description: 'Show one pipeline schedule, with its last pipeline and its variables',
    fields: [...(SCHEDULES.fields ?? []), 'variables'],
    examples: ['svc schedules get acme/platform/api 3', 'svc schedules get 42 3 -o json'],
  }),
  withInactive(
    writeVerb(SCHEDULES, {
      name: 'create',
      description: 'Create a pipeline schedule (you become its owner)',
      done: ({ args, record }) => {
        const next = answerText(record.next_run_at);
        return `created ${calledOf(SCHEDULES, [args[0], answerText(record.id) ?? '(no id in the answer)'])}${next ? `, next run ${next}` : ''}`;
      },
      examples: [
        'svc schedules create acme/platform/api --description Nightly --ref main --cron "0 2 * * *"',
        'svc schedules create 42 --description "Weekdays" --ref main --cron "30 7 * * 1-5" --cron-timezone Europe/Berlin --inactive',
      ],
    }),
  ),
  withInactive(
    writeVerb(SCHEDULES, {
      name: 'update',
      description: "Change a schedule's description, ref, cron, time zone, or pause or resume it (its owner only)",
      notes: 'Only the owner of a schedule may change it; a maintainer can take it over first with take-ownership.',
      examples: ['svc schedules update acme/platform/api 3 --cron "0 3 * * *"', 'svc schedules update 42 3 --inactive'],
    }),
  ),
  writeVerb(SCHEDULES, {
    name: 'delete',
    description: 'Delete a pipeline schedule; asks first unless --yes',
    examples: ['svc schedules delete acme/platform/api 3', 'svc schedules delete 42 3 --yes'],
  }),
  writeVerb(SCHEDULES, {
    name: 'play',
    description: 'Run a schedule now: a pipeline on its ref, with its variables, as its owner',
    path: '/projects/:project/pipeline_schedules/:schedule/play',
    answer: 'status',
    fields: ['message'],
    done: ({ args }) => `started a pipeline of ${calledOf(SCHEDULES, args)}`,
    examples: ['svc schedules play acme/platform/api 3'],
  }),
  writeVerb(SCHEDULES, {
    name: 'take-ownership',
    description: 'Become the owner of a schedule (its pipelines then run as you); needs the maintainer role',
    path: '/projects/:project/pipeline_schedules/:schedule/take_ownership',
    done: ({ args }) => `took ownership of ${calledOf(SCHEDULES, args)}`,
    examples: ['svc schedules take-ownership acme/platform/api 3'],
  }),
];

export function register(noun: Command, runtime: Runtime): void {
  registerVariables(noun, runtime);
}
