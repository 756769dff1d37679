import { listRecords } from '../../api/resource.js';
import { UsageError } from '../../errors.js';
import { apiPath } from '../../http/encode.js';
import { projectRef, requiredTextParser } from '../shared/args.js';
import { PIPELINE_STATUSES } from '../shared/service-enums.js';
import { getVerb, listVerb } from '../generic/verbs.js';
import { writeVerb } from '../generic/write.js';
import { PAUSE, RESUME } from './pause.js';
import { PRUNE } from './prune.js';
import { adminOnlyError, RUNNER_STATUSES, RUNNER_TYPES, RUNNERS } from './resource.js';

interface RunnersScope {
  all?: boolean;
  instance?: boolean;
  project?: unknown;
  group?: unknown;
}

/** `--all` alone once meant the instance's runners; it still does, beside meaning every page. */
const allAlone = (opts: RunnersScope) => opts.all === true && !opts.instance && opts.project === undefined && opts.group === undefined;
const wholeInstance = (opts: RunnersScope) => opts.instance === true || allAlone(opts);

/** The runners asked for: yours, a project's, a group's, or (administrators) the instance's whole list. */
function runnersPath(path: string, opts: RunnersScope): string {
  const scopes = [opts.instance === true, opts.project !== undefined, opts.group !== undefined].filter(Boolean).length;
  if (scopes > 1) throw new UsageError('give one of --instance, --project or --group');
  if (opts.project !== undefined) return apiPath`/projects/${opts.project as string}/runners`;
  if (opts.group !== undefined) return apiPath`/groups/${opts.group as string}/runners`;
  return wholeInstance(opts) ? `${path}/all` : path;
}

/** The instance's list is for administrators: a 403 says so. */
async function* adminOnly<T>(pages: AsyncGenerator<T>): AsyncGenerator<T> {
  try {
    yield* pages;
  } catch (error) {
    throw adminOnlyError(error, '--instance lists every runner of the instance');
  }
}

const tags = (value: string, previous: unknown) => (previous === undefined ? value : `${String(previous)},${value}`);

export const commands = [
  listVerb(RUNNERS, {
    description: 'List your project and group runners, or with --instance every runner of the instance',
    requireToken: true,
    filters: [
      { flags: '--type <type>', key: 'type', help: 'only runners of this kind', choices: RUNNER_TYPES },
      {
        flags: '--status <status>',
        key: 'status',
        help: 'only runners in this state (offline includes stale ones)',
        choices: RUNNER_STATUSES,
      },
      { flags: '--paused', key: 'paused', help: 'only paused runners' },
      { flags: '--instance', help: "every runner of the instance (administrators; the service's /runners/all)" },
      { flags: '--project <project>', help: "the runners a project can use: its own, its groups' and the instance's", parse: projectRef },
      {
        flags: '--group <group>',
        help: "the runners a group can use: its own, its parents' and the instance's",
        parse: requiredTextParser('--group'),
      },
      { flags: '--tag <tag>', key: 'tag_list', help: 'only runners with this tag (repeat for several: all must match)', parse: tags },
    ],
    note: (opts) =>
      allAlone(opts)
        ? 'note: --all alone still lists every runner of the instance; say --instance for that (--all: every page)'
        : undefined,
    pages: (http, path, query, opts) => {
      const pages = listRecords(http, runnersPath(path, opts), query);
      return wholeInstance(opts) ? adminOnly(pages) : pages;
    },
    notes:
      'Without a scope: the runners of the projects and groups you maintain; --project and --group list what one of them can use ' +
      '(you must maintain it); --instance lists every runner of the instance (administrators only). --all means every page, ' +
      'as in every listing; --all without a scope still means --instance --all, with a note. ' +
      'A paused runner shows the status `paused`, which --status does not take: use --paused.',
    examples: [
      'svc runners list',
      'svc runners list --instance --all --status stale -o ndjson',
      'svc runners list --instance --type group_type --tag docker',
    ],
  }),
  getVerb(RUNNERS, {
    description: 'Show one runner, with its tags, last contact and version',
    requireToken: true,
    examples: ['svc runners get 42', 'svc runners get 42 -o json'],
  }),
  PAUSE,
  RESUME,
  writeVerb(RUNNERS, {
    name: 'delete',
    description: 'Delete a runner (it must register again to take jobs)',
    examples: ['svc runners delete 42', 'svc runners delete 42 --yes'],
  }),
  listVerb(RUNNERS, {
    name: 'jobs',
    path: '/runners/:runner/jobs',
    description: 'List the jobs a runner ran, newest first',
    requireToken: true,
    filters: [{ flags: '--status <status>', key: 'status', help: 'only jobs in this state', choices: PIPELINE_STATUSES }],
    columns: ['id', 'status', 'name', 'ref', 'project.path_with_namespace', 'finished_at'],
    examples: ['svc runners jobs 42', 'svc runners jobs 42 --status failed -o json'],
  }),
  PRUNE,
];
