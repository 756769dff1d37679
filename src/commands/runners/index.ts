import { listRecords } from '../../api/resource.js';
import { UsageError } from '../../errors.js';
import { apiPath } from '../../http/encode.js';
import { projectRef, requiredTextParser } from '../shared/args.js';
import { recordWriteVerb } from '../generic/record-write.js';
import { PIPELINE_STATUSES } from '../shared/service-enums.js';
import { getVerb, listVerb } from '../generic/verbs.js';
import { PAUSE, RESUME } from './pause.js';
import { PRUNE } from './prune.js';
import { adminOnlyError, namingRole, RUNNER_ROLE, RUNNER_STATUSES, RUNNER_TYPES, RUNNERS } from './resource.js';

/** The runners asked for: yours, a project's, a group's, or (administrators) the instance's whole list. */
function runnersPath(path: string, opts: { all?: boolean; project?: unknown; group?: unknown }): string {
  if (opts.project !== undefined && opts.group !== undefined) throw new UsageError('give --project or --group, not both');
  if (opts.project !== undefined) return apiPath`/projects/${opts.project as string}/runners`;
  if (opts.group !== undefined) return apiPath`/groups/${opts.group as string}/runners`;
  return opts.all ? `${path}/all` : path;
}

/** The instance's list is for administrators: a 403 says so. */
async function* adminOnly<T>(pages: AsyncGenerator<T>): AsyncGenerator<T> {
  try {
    yield* pages;
  } catch (error) {
    throw adminOnlyError(error, '--all lists every runner of the instance');
  }
}

const tags = (value: string, previous: unknown) => (previous === undefined ? value : `${String(previous)},${value}`);

export const commands = [
  listVerb(RUNNERS, {
    description: 'List your project and group runners, or with --all every runner of the instance',
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
      { flags: '--project <project>', help: "the runners a project can use: its own, its groups' and the instance's", parse: projectRef },
      {
        flags: '--group <group>',
        help: "the runners a group can use: its own, its parents' and the instance's",
        parse: requiredTextParser('--group'),
      },
      { flags: '--tag <tag>', key: 'tag_list', help: 'only runners with this tag (repeat for several: all must match)', parse: tags },
    ],
    pages: (http, path, query, opts) => {
      const pages = listRecords(http, runnersPath(path, opts), query);
      return opts.all && opts.project === undefined && opts.group === undefined ? adminOnly(pages) : pages;
    },
    notes:
      'Without --all: the runners of the projects and groups you maintain; --project and --group list what one of them can use ' +
      '(you must maintain it). With --all alone: every runner of the instance, every page (administrators only). A paused runner shows the status `paused`, which --status does not take: use --paused.',
    examples: [
      'svc runners list',
      'svc runners list --all --status stale -o ndjson',
      'svc runners list --all --type group_type --tag docker',
    ],
  }),
  namingRole(
    getVerb(RUNNERS, {
      description: 'Show one runner, with its tags, last contact and version',
      requireToken: true,
      examples: ['svc runners get 42', 'svc runners get 42 -o json'],
    }),
  ),
  PAUSE,
  RESUME,
  recordWriteVerb(RUNNERS, {
    name: 'delete',
    method: 'DELETE',
    role: RUNNER_ROLE,
    description: 'Delete a runner (it must register again to take jobs)',
    confirm: ([runner]) => `Delete runner ${String(runner)}`,
    done: ([runner]) => `deleted runner ${String(runner)}`,
    examples: ['svc runners delete 42', 'svc runners delete 42 --yes'],
  }),
  namingRole(
    listVerb(RUNNERS, {
      name: 'jobs',
      path: '/runners/:runner/jobs',
      description: 'List the jobs a runner ran, newest first',
      requireToken: true,
      filters: [{ flags: '--status <status>', key: 'status', help: 'only jobs in this state', choices: PIPELINE_STATUSES }],
      columns: ['id', 'status', 'name', 'ref', 'project.path_with_namespace', 'finished_at'],
      examples: ['svc runners jobs 42', 'svc runners jobs 42 --status failed -o json'],
    }),
  ),
  PRUNE,
];
