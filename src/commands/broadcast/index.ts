import { isoTimeOption, listOption } from '../../cli/parsers.js';
import type { OptionSpec } from '../../cli/spec.js';
import type { Resource } from '../generic/resource.js';
import { ADMINISTRATOR } from '../generic/role.js';
import { getVerb, listVerb } from '../generic/verbs.js';
import { writeVerb } from '../generic/write.js';
import { accessLevel } from '../shared/access-level.js';
import { idParam, requiredTextParser } from '../shared/args.js';

const THEMES = ['indigo', 'light-indigo', 'blue', 'light-blue', 'green', 'light-green', 'red', 'light-red', 'dark', 'light'];

/** Roles by name or number, as a comma list: `developer,maintainer` or `30,40`. */
function targetLevels(value: string): number[] {
  const level = accessLevel('--target-access-levels');
  return listOption('--target-access-levels')(value).map(level);
}

const BODY: OptionSpec[] = [
  {
    flags: '--starts-at <time>',
    key: 'starts_at',
    help: 'when it starts showing (ISO 8601; the service defaults to now)',
    parse: isoTimeOption('--starts-at'),
  },
  {
    flags: '--ends-at <time>',
    key: 'ends_at',
    help: 'when it stops showing (ISO 8601; the service defaults to an hour after now)',
    parse: isoTimeOption('--ends-at'),
  },
  {
    flags: '--type <type>',
    key: 'broadcast_type',
    help: 'a banner on every page, or a notification users can dismiss (the service defaults to banner)',
    choices: ['banner', 'notification'],
  },
  { flags: '--theme <theme>', key: 'theme', help: "a banner's colour theme", choices: THEMES },
  { flags: '--color <hex>', key: 'color', help: 'background colour, #RRGGBB (deprecated by the service: use --theme)' },
  { flags: '--font <hex>', key: 'font', help: 'text colour, #RRGGBB (deprecated by the service: use --theme)' },
  { flags: '--target-path <path>', key: 'target_path', help: 'show it only on pages whose path matches, wildcards allowed (*/welcome)' },
  {
    flags: '--target-access-levels <roles>',
    key: 'target_access_levels',
    help: 'show it only to users with one of these roles somewhere (guest, reporter, developer, maintainer, owner or 10–50, comma list)',
    parse: targetLevels,
  },
  { flags: '--dismissable', key: 'dismissable', help: 'users may dismiss it' },
  { flags: '--no-dismissable', key: 'dismissable', help: 'users may not dismiss it' },
];

const MESSAGE_TEXT: OptionSpec = {
  flags: '--message <text>',
  key: 'message',
  help: 'the text shown (Markdown)',
  parse: requiredTextParser('--message'),
};

/** The instance's broadcast messages: anyone reads them, administrators write them. */
const BROADCAST: Resource = {
  path: '/broadcast_messages',
  id: 'message',
  params: { message: idParam('message', 'broadcast message id') },
  columns: ['id', 'broadcast_type', 'active', 'starts_at', 'ends_at', 'message'],
  fields: [
    'id',
    'message',
    'broadcast_type',
    'active',
    'starts_at',
    'ends_at',
    'theme',
    'color',
    'font',
    'target_path',
    'target_access_levels',
    'dismissable',
  ],
  called: (args) => `broadcast message ${String(args[0])}`,
  create: [{ ...MESSAGE_TEXT, required: true }, ...BODY],
  update: { fields: [MESSAGE_TEXT, ...BODY], atLeastOne: true },
  roles: { create: ADMINISTRATOR, update: ADMINISTRATOR, delete: ADMINISTRATOR },
  confirmDelete: true,
};

export const commands = [
  listVerb(BROADCAST, {
    description: 'List the broadcast messages, newest first (active: showing now)',
    examples: ['svc broadcast list', 'svc broadcast list --all -o ndjson --fields id,active,message'],
  }),
  getVerb(BROADCAST, {
    description: 'Show one broadcast message',
    examples: ['svc broadcast get 3', 'svc broadcast get 3 -o json'],
  }),
  writeVerb(BROADCAST, {
    name: 'create',
    description: 'Broadcast a message to the users of the instance, for a time',
    done: ({ record }) => `created broadcast message ${String(record.id)} (${record.active === true ? 'showing now' : 'not showing now'})`,
    examples: [
      'svc broadcast create --message "Maintenance tonight 22:00 UTC" --ends-at 2026-12-01T23:00:00Z --theme red',
      'svc broadcast create --message "Please rotate your tokens" --type notification --target-access-levels maintainer,owner --dismissable',
    ],
  }),
  writeVerb(BROADCAST, {
    name: 'update',
    description: "Change a broadcast message's text, times, type or targets",
    examples: [
      'svc broadcast update 3 --ends-at 2026-12-02T01:00:00Z',
      'svc broadcast update 3 --message "Maintenance moved to 23:00 UTC"',
    ],
  }),
  writeVerb(BROADCAST, {
    name: 'delete',
    description: 'Delete a broadcast message; asks first unless --yes',
    examples: ['svc broadcast delete 3', 'svc broadcast delete 3 --yes'],
  }),
];
