import { intOption } from '../../cli/parsers.js';
import { type Resource } from '../generic/resource.js';
import { getVerb, listVerb } from '../generic/verbs.js';
import { writeVerb } from '../generic/write.js';
import { nameParam, requiredTextParser } from '../shared/args.js';
import { SYNC } from './sync.js';
import { answerText } from '../shared/answer-text.js';

const COLOR_HELP = 'a colour as #RRGGBB or #RGB, or a CSS colour name (red, navy, …)';
const PRIORITY = {
  flags: '--priority <n>',
  key: 'priority',
  help: "the label's priority in its project (0 is the highest; project labels only)",
  parse: intOption('--priority', 0),
};

/** A project's or a group's labels (a group's are offered to all its projects). */
const LABELS: Resource = {
  path: '/labels',
  owners: { kinds: ['project', 'group'], noun: 'labels' },
  id: 'label',
  params: { label: nameParam('label', 'label id or name (typed as is; svc encodes it)') },
  columns: ['id', 'name', 'color', 'priority', 'description'],
  fields: ['id', 'name', 'color', 'text_color', 'description', 'priority', 'is_project_label'],
  called: (args) => `label ${String(args[0])}`,
  create: [
    { flags: '--name <name>', key: 'name', help: 'the label name', required: true, parse: requiredTextParser('--name') },
    { flags: '--color <color>', key: 'color', help: COLOR_HELP, required: true, parse: requiredTextParser('--color') },
    { flags: '--description <text>', key: 'description', help: 'what the label means' },
    PRIORITY,
  ],
  update: {
    fields: [
      { flags: '--new-name <name>', key: 'new_name', help: 'rename the label', parse: requiredTextParser('--new-name') },
      { flags: '--color <color>', key: 'color', help: COLOR_HELP, parse: requiredTextParser('--color') },
      { flags: '--description <text>', key: 'description', help: 'what the label means' },
      PRIORITY,
    ],
    atLeastOne: true,
  },
  roles: { create: 'planner', update: 'planner', delete: 'planner' },
  confirmDelete: true,
};

export const commands = [
  listVerb(LABELS, {
    description: "List a project's or a group's labels (--with-counts adds open issue and merge request counts)",
    filters: [
      { flags: '--search <text>', key: 'search', help: 'only labels whose name or description contains the text' },
      { flags: '--with-counts', key: 'with_counts', help: 'add the open issue and merge request counts of each label' },
      {
        flags: '--include-ancestor-groups',
        key: 'include_ancestor_groups',
        help: 'also the labels of the groups above (the service does this by default)',
      },
    ],
    // The counts' long headers leave a narrow terminal little room: with them a label is named, not numbered.
    columns: (_first, opts) =>
      opts.withCounts ? ['name', 'color', 'open_issues_count', 'open_merge_requests_count'] : (LABELS.columns as string[]),
    examples: ['svc labels list --project acme/platform/api --with-counts', 'svc labels list --group acme -o json'],
  }),
  getVerb(LABELS, {
    description: 'Show one label, by id or name',
    examples: ['svc labels get bug --project acme/platform/api', 'svc labels get 7 --group acme -o json'],
  }),
  writeVerb(LABELS, {
    name: 'create',
    description: 'Create a label in a project or a group',
    done: ({ record, params }) =>
      `created label ${answerText(record.name) ?? String(params.name)} (${answerText(record.color) ?? String(params.color)})`,
    examples: [
      'svc labels create --project acme/platform/api --name needs-docs --color "#428BCA" --description "Waiting for documentation"',
      'svc labels create --group acme --name incident --color red',
    ],
  }),
  writeVerb(LABELS, {
    name: 'update',
    description: "Change a label's name, colour, description or priority",
    examples: [
      'svc labels update bug --project acme/platform/api --color "#D9534F" --priority 0',
      'svc labels update incident --group acme --new-name sev-1',
    ],
  }),
  writeVerb(LABELS, {
    name: 'delete',
    description: 'Delete a label (it goes from every issue and merge request); asks first unless --yes',
    examples: ['svc labels delete needs-docs --project acme/platform/api', 'svc labels delete 12 --group acme --yes'],
  }),
  SYNC,
];
