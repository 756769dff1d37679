import { type Resource } from '../generic/resource.js';
import { listVerb } from '../generic/verbs.js';
import { writeVerb } from '../generic/write.js';
import { idParam, requiredTextParser } from '../shared/args.js';
import { isoTimeOption } from '../../cli/parsers.js';
import { formatCell } from '../../output/format.js';
import { PUBLIC_KEY_OPTIONS, readPublicKey } from '../shared/public-key.js';
import { answerText } from '../shared/answer-text.js';

const TITLE = { flags: '--title <title>', key: 'title', help: 'what the key is for', parse: requiredTextParser('--title') };

/** Deploy keys: a project's (with whether each may push), and the instance's (administrators). */
const DEPLOY_KEYS: Resource = {
  path: '/deploy_keys',
  owners: { kinds: ['project', 'instance'], noun: 'deploy keys' },
  id: 'key',
  params: { key: idParam('deploy key id', 'the deploy key id (what list prints first)') },
  columns: ['id', 'title', 'fingerprint_sha256', 'can_push', 'expires_at'],
  fields: ['id', 'title', 'fingerprint', 'fingerprint_sha256', 'can_push', 'created_at', 'expires_at'],
  called: (args) => `deploy key ${String(args[0])}`,
  create: [
    { ...TITLE, required: true },
    ...PUBLIC_KEY_OPTIONS,
    { flags: '--can-push', key: 'can_push', help: "the key may push to the project's repository (a project's key only)" },
    {
      flags: '--expires-at <time>',
      key: 'expires_at',
      help: 'when the key stops working (ISO 8601)',
      parse: isoTimeOption('--expires-at'),
    },
  ],
  update: {
    fields: [
      { ...TITLE, help: "a new title (the service changes it only for the key's owner or an administrator)" },
      { flags: '--can-push', key: 'can_push', help: 'let the key push' },
      { flags: '--no-can-push', key: 'can_push', help: 'make the key read-only' },
    ],
    atLeastOne: true,
  },
  roles: { list: 'maintainer', add: 'maintainer', enable: 'maintainer', update: 'maintainer', delete: 'maintainer' },
  confirmDelete: true,
};

interface KeyProject {
  path_with_namespace?: string;
}

/** The projects using an instance's key, those that may push marked: the service lists them in two fields. */
function usedBy(record: unknown): string | undefined {
  if (record === null || typeof record !== 'object') return undefined;
  const key = record as { projects_with_write_access?: unknown; projects_with_readonly_access?: unknown };
  if (!key.projects_with_write_access && !key.projects_with_readonly_access) return undefined;
  const write = projectPaths(key.projects_with_write_access).map((path) => `${path} (push)`);
  return [...write, ...projectPaths(key.projects_with_readonly_access)].join(', ');
}

/** Each project's path; a list or entry not shaped as the service shapes them is shown as it came. */
function projectPaths(projects: unknown): string[] {
  const list: unknown[] = Array.isArray(projects) ? projects : projects == null ? [] : [projects];
  return list.map((p) => formatCell(p !== null && typeof p === 'object' ? (p as KeyProject).path_with_namespace : p));
}

/** The instance's keys have no `can_push` of their own: each project using one says whether it may push. */
const INSTANCE_COLUMNS = ['id', 'title', 'fingerprint_sha256', { field: 'projects', kind: 'text' as const, value: usedBy }, 'expires_at'];

/** What only a project's keys take: enabling one, changing it, removing it. */
const PROJECT_DEPLOY_KEYS: Resource = { ...DEPLOY_KEYS, owners: { kinds: ['project'], noun: 'deploy keys' } };

export const commands = [
  listVerb(DEPLOY_KEYS, {
    description: "List a project's deploy keys and whether each may push, or (--instance, administrators) every deploy key",
    filters: [{ flags: '--public', key: 'public', help: 'with --instance: only the keys any project may enable' }],
    columns: (_first, _opts, owner) => (owner === 'instance' ? INSTANCE_COLUMNS : (DEPLOY_KEYS.columns ?? [])),
    examples: ['svc deploy-keys list --project acme/platform/api', 'svc deploy-keys list --instance --public -o json'],
  }),
  writeVerb(DEPLOY_KEYS, {
    name: 'add',
    description: 'Add a deploy key to a project, or (--instance) one every project may enable; the key from --key-file, stdin or --key',
    path: DEPLOY_KEYS.path,
    body: DEPLOY_KEYS.create,
    derived: async (opts, ctx) => ({ key: await readPublicKey(ctx, opts) }),
    done: ({ record, params }) => {
      const fingerprint = answerText(record.fingerprint_sha256);
      return `added deploy key ${answerText(record.id) ?? String(params.title)}${fingerprint ? ` (${fingerprint})` : ''}`;
    },
    examples: [
      'svc deploy-keys add --project acme/platform/api --title ci-deploy --key-file deploy.pub --can-push',
      'cat fleet.pub | svc deploy-keys add --instance --title fleet --key-file -',
    ],
  }),
  writeVerb(PROJECT_DEPLOY_KEYS, {
    name: 'enable',
    description: 'Let a project use a deploy key it does not have yet (a public one, or one of a project you maintain)',
    path: '/deploy_keys/:key/enable',
    done: ({ args, opts }) => `enabled deploy key ${String(args[0])} on project ${String(opts.project)}`,
    examples: ['svc deploy-keys enable 12 --project acme/platform/web'],
  }),
  writeVerb(PROJECT_DEPLOY_KEYS, {
    name: 'update',
    description: "Change a project's deploy key: whether it may push, its title",
    examples: [
      'svc deploy-keys update 12 --project acme/platform/api --no-can-push',
      'svc deploy-keys update 12 --project acme/platform/api --title ci-deploy-2026',
    ],
  }),
  writeVerb(PROJECT_DEPLOY_KEYS, {
    name: 'delete',
    description: 'Remove a deploy key from a project (the service deletes it if no other project uses it); asks first unless --yes',
    done: ({ args, opts }) => `removed deploy key ${String(args[0])} from project ${String(opts.project)}`,
    examples: ['svc deploy-keys delete 12 --project acme/platform/api --yes'],
  }),
];
