import { listRecords } from '../../api/resource.js';
import { listOption } from '../../cli/parsers.js';
import type { OptionSpec } from '../../cli/spec.js';
import { type Resource } from '../generic/resource.js';
import { getVerb, listVerb } from '../generic/verbs.js';
import { writeVerb } from '../generic/write.js';
import { idParam, requiredTextParser } from '../shared/args.js';
import { readLocalFile } from '../shared/local-file.js';
import { SvcError, UsageError } from '../../errors.js';
import { EVENTS_HELP, eventSwitches, shownHook } from './events.js';
import { testVerb } from './test.js';
import { answerText } from '../shared/answer-text.js';

const EVENTS_PAGE = 20;
const HOOK_ROLE = 'project maintainer or group owner';

/** The secret the service sends in `X-Gitlab-Token`: read from a file so that it is in no shell history nor process list. */
const SECRET_TOKEN: OptionSpec = {
  flags: '--secret-token-file <file>',
  key: 'token',
  help: 'a file holding the secret the service sends in X-Gitlab-Token (never printed; /dev/stdin reads a pipe)',
  resolve: async (_http, path) => await readSecret(path as string),
};

/**
 * The file's one line, less its line end. An empty file (a truncated `> hook.secret`) would give the
 * hook no secret at all, bytes that are not UTF-8 would reach the service as another secret than the
 * file holds, and a header cannot carry a line break: each is refused before any request.
 */
async function readSecret(path: string): Promise<string> {
  const flag = '--secret-token-file';
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(await readLocalFile(flag, path));
  } catch (error) {
    if (error instanceof SvcError) throw error;
    throw new UsageError(`${flag} ${path}: not UTF-8 text, so the service would keep another secret than the file holds`);
  }
  const secret = text.replace(/\r?\n$/, '');
  if (secret === '') throw new UsageError(`${flag} ${path} is empty: the hook would get no secret token`);
  if (/[\u0000-\u001f\u007f]/.test(secret)) {
    throw new UsageError(
      `${flag} ${path}: the secret holds a line break or another control character, which the X-Gitlab-Token header cannot carry`,
    );
  }
  return secret;
}

const WRITE_FIELDS: OptionSpec[] = [
  { flags: '--name <name>', key: 'name', help: 'a name for the hook' },
  { flags: '--description <text>', key: 'description', help: 'what the hook is for' },
  { flags: '--on <events>', help: `turn these events on: ${EVENTS_HELP}`, parse: listOption('--on') },
  { flags: '--off <events>', help: 'turn these events off (same names as --on)', parse: listOption('--off') },
  SECRET_TOKEN,
  {
    flags: '--branch-filter <filter>',
    key: 'push_events_branch_filter',
    help: 'push events only for matching branches (a wildcard such as release/*, or a regex with --branch-filter-strategy regex)',
  },
  {
    flags: '--branch-filter-strategy <strategy>',
    key: 'branch_filter_strategy',
    help: 'how --branch-filter is read',
    choices: ['wildcard', 'regex', 'all_branches'],
  },
  { flags: '--ssl-verification', key: 'enable_ssl_verification', help: "verify the receiver's TLS certificate (the default)" },
  { flags: '--no-ssl-verification', key: 'enable_ssl_verification', help: "do not verify the receiver's TLS certificate" },
];

/** Webhooks of a project or a group, and the instance's system hooks. */
export const HOOKS: Resource = {
  path: '/hooks',
  owners: { kinds: ['project', 'group', 'system'], noun: 'hooks' },
  id: 'hook',
  params: { hook: idParam('hook id', 'the hook id (what list prints first)') },
  columns: ['id', 'url', 'alert_status', 'disabled_until'],
  fields: ['id', 'url', 'name', 'push_events', 'merge_requests_events', 'enable_ssl_verification', 'alert_status', 'disabled_until'],
  called: (args) => `hook ${String(args[0])}`,
  create: [
    {
      flags: '--hook-url <url>',
      key: 'url',
      help: 'where the service POSTs each event (not --url: that is the service itself)',
      required: true,
      parse: requiredTextParser('--hook-url'),
    },
    ...WRITE_FIELDS,
  ],
  update: {
    fields: [
      { flags: '--hook-url <url>', key: 'url', help: 'a new url (the secret token is dropped unless given again)' },
      ...WRITE_FIELDS,
    ],
    atLeastOne: true,
  },
  roles: { list: HOOK_ROLE, get: HOOK_ROLE, create: HOOK_ROLE, update: HOOK_ROLE, delete: HOOK_ROLE, test: HOOK_ROLE, events: HOOK_ROLE },
  confirmDelete: true,
  shown: shownHook,
};

export const commands = [
  listVerb(HOOKS, {
    description: 'List webhooks, and whether the service has disabled one after failed deliveries (alert_status, disabled_until)',
    examples: ['svc hooks list --project acme/platform/api', 'svc hooks list --group acme -o json', 'svc hooks list --system'],
  }),
  getVerb(HOOKS, {
    description: 'Show one webhook and its events (the secret token is never shown; credentials in the url are masked)',
    examples: ['svc hooks get 12 --project acme/platform/api', 'svc hooks get 3 --system -o json'],
  }),
  writeVerb(HOOKS, {
    name: 'create',
    description: 'Add a webhook: the url, the events it fires on, and a secret token read from a file',
    derived: eventSwitches,
    done: ({ record }) => `created hook ${answerText(record.id) ?? '(no id in the answer)'}`,
    examples: [
      'svc hooks create --project acme/platform/api --hook-url https://ci.example.com/hook --on push,merge-requests --secret-token-file hook.secret',
      'svc hooks create --group acme --hook-url https://chat.example.com/in --on issues,member --off push',
      'svc hooks create --system --hook-url https://audit.example.com/events --on repository-update',
    ],
  }),
  writeVerb(HOOKS, {
    name: 'update',
    description: "Change a webhook's url, events, filter or secret token",
    derived: eventSwitches,
    examples: [
      'svc hooks update 12 --project acme/platform/api --on tag-push --off push',
      'svc hooks update 12 --project acme/platform/api --hook-url https://ci2.example.com/hook --secret-token-file hook.secret',
    ],
  }),
  writeVerb(HOOKS, {
    name: 'delete',
    description: 'Delete a webhook; asks first unless --yes',
    examples: ['svc hooks delete 12 --project acme/platform/api --yes', 'svc hooks delete 3 --system --yes'],
  }),
  testVerb(HOOKS),
  listVerb(HOOKS, {
    name: 'events',
    path: '/hooks/:hook/events',
    description: "A webhook's recent deliveries, newest first: the trigger, the receiver's status and how long it took",
    columns: ['id', 'created_at', 'trigger', 'response_status', 'execution_duration'],
    noun: 'deliveries',
    // The service takes at most 20 a page here.
    pages: (http, path, query) => listRecords(http, path, { ...query, per_page: Math.min(EVENTS_PAGE, Number(query.per_page)) }),
    examples: [
      'svc hooks events 12 --project acme/platform/api',
      'svc hooks events 12 --group acme -o json --fields response_status,response_body',
    ],
  }),
];
