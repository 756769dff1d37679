import { InvalidArgumentError } from 'commander';
import { listOption } from '../../cli/parsers.js';
import { calledOf, type Resource } from '../generic/resource.js';
import { getVerb, listVerb } from '../generic/verbs.js';
import { writeVerb } from '../generic/write.js';
import { isoDate } from '../shared/access-level.js';
import { idParam, requiredTextParser } from '../shared/args.js';

const DATES = [
  { flags: '--start <date>', key: 'start_date', help: 'the first day (YYYY-MM-DD)', parse: isoDate('--start') },
  { flags: '--due <date>', key: 'due_date', help: 'the last day (YYYY-MM-DD; not before --start)', parse: isoDate('--due') },
];
const DESCRIPTION = { flags: '--description <text>', key: 'description', help: 'what the milestone is for' };

/** A project's or a group's milestones, addressed by their global id (not the iid the web UI shows). */
const MILESTONES: Resource = {
  path: '/milestones',
  owners: { kinds: ['project', 'group'], noun: 'milestones' },
  id: 'milestone',
  params: { milestone: idParam('milestone', 'milestone id (the global id that list prints, not the iid)') },
  columns: ['id', 'iid', 'title', 'state', 'start_date', 'due_date', 'expired'],
  fields: ['id', 'iid', 'title', 'description', 'state', 'start_date', 'due_date', 'expired', 'web_url'],
  called: (args) => `milestone ${String(args[0])}`,
  create: [
    { flags: '--title <title>', key: 'title', help: 'the milestone title', required: true, parse: requiredTextParser('--title') },
    DESCRIPTION,
    ...DATES,
  ],
  update: {
    fields: [
      { flags: '--title <title>', key: 'title', help: 'rename the milestone', parse: requiredTextParser('--title') },
      DESCRIPTION,
      ...DATES,
    ],
    atLeastOne: true,
  },
  roles: { create: 'planner', update: 'planner', close: 'planner', activate: 'planner', delete: 'planner' },
  confirmDelete: true,
};

function iids(value: string): string[] {
  const list = listOption('--iids')(value);
  if (list.some((iid) => !/^\d+$/.test(iid))) throw new InvalidArgumentError('--iids takes whole numbers separated by commas');
  return list;
}

/** Close or activate: a PUT with the state event, answered with the milestone. */
function stateEvent(event: 'close' | 'activate', description: string, examples: string[]) {
  return writeVerb(MILESTONES, {
    name: event,
    method: 'PUT',
    description,
    fixed: { state_event: event },
    done: ({ args }) => `${event === 'close' ? 'closed' : 'activated'} ${calledOf(MILESTONES, args)}`,
    examples,
  });
}

export const commands = [
  listVerb(MILESTONES, {
    description: "List a project's or a group's milestones, newest first",
    filters: [
      { flags: '--state <state>', key: 'state', help: 'only active or only closed milestones', choices: ['active', 'closed'] },
      { flags: '--title <title>', key: 'title', help: 'only the milestone with exactly this title' },
      { flags: '--search <text>', key: 'search', help: 'only milestones whose title or description contains the text' },
      { flags: '--iids <list>', key: 'iids', help: 'only these iids, separated by commas (ignored with --include-ancestors)', parse: iids },
      { flags: '--include-ancestors', key: 'include_ancestors', help: 'also the milestones of the groups above' },
    ],
    examples: ['svc milestones list --project acme/platform/api --state active', 'svc milestones list --group acme -o json'],
  }),
  getVerb(MILESTONES, {
    description: 'Show one milestone, by its id',
    examples: ['svc milestones get 1 --project acme/platform/api', 'svc milestones get 7 --group acme -o json'],
  }),
  writeVerb(MILESTONES, {
    name: 'create',
    description: 'Create a milestone in a project or a group',
    done: ({ record }) => `created milestone ${String(record.title)} (id ${String(record.id)}, iid ${String(record.iid)})`,
    examples: [
      'svc milestones create --project acme/platform/api --title v2.0 --start 2026-01-05 --due 2026-03-31',
      'svc milestones create --group acme --title "Q1 planning" --description "Roadmap work"',
    ],
  }),
  writeVerb(MILESTONES, {
    name: 'update',
    description: "Change a milestone's title, description or dates",
    examples: ['svc milestones update 7 --project acme/platform/api --due 2026-04-15', 'svc milestones update 9 --group acme --title "Q1"'],
  }),
  stateEvent('close', 'Close a milestone (closing a closed one changes nothing and succeeds)', [
    'svc milestones close 7 --project acme/platform/api',
  ]),
  stateEvent('activate', 'Make a closed milestone active again', ['svc milestones activate 7 --project acme/platform/api']),
  writeVerb(MILESTONES, {
    name: 'delete',
    description: 'Delete a milestone (its issues and merge requests keep no milestone); asks first unless --yes',
    examples: ['svc milestones delete 7 --project acme/platform/api', 'svc milestones delete 9 --group acme --yes'],
  }),
];
