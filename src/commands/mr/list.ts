import { listRecords } from '../../api/resource.js';
import { listOption } from '../../cli/parsers.js';
import { defineCommand, type OptionSpec } from '../../cli/spec.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { apiPath } from '../../http/encode.js';
import { serviceParams } from '../generic/resource.js';
import { PROJECT_ARGUMENT, projectRef, requiredTextParser } from '../shared/args.js';
import { LIST_OPTIONS, type ListFlags, outputList, perPageFor } from '../shared/list.js';
import { userParams } from '../shared/users.js';
import { MR_COLUMNS } from './shared/resource.js';

const FILTERS: OptionSpec[] = [
  { flags: '--state <state>', key: 'state', help: 'service default: all', choices: ['opened', 'closed', 'merged', 'locked', 'all'] },
  {
    flags: '--scope <scope>',
    key: 'scope',
    help: 'whose merge requests (--instance defaults to created_by_me)',
    choices: ['created_by_me', 'assigned_to_me', 'reviews_for_me', 'all'],
  },
  { flags: '--source-branch <branch>', key: 'source_branch', help: 'from this branch', parse: requiredTextParser('--source-branch') },
  { flags: '--target-branch <branch>', key: 'target_branch', help: 'into this branch', parse: requiredTextParser('--target-branch') },
  { flags: '--labels <a,b>', key: 'labels', help: 'carrying every one of these labels (None, Any)', parse: listOption('--labels') },
  { flags: '--author <user>', help: 'opened by this user: username or numeric user id', parse: requiredTextParser('--author') },
  {
    flags: '--assignee <user>',
    help: 'assigned to this user: username, numeric user id, None or Any',
    parse: requiredTextParser('--assignee'),
  },
  {
    flags: '--reviewer <user>',
    help: 'with this reviewer: username, numeric user id, None or Any',
    parse: requiredTextParser('--reviewer'),
  },
  { flags: '--search <text>', key: 'search', help: 'in title and description', parse: requiredTextParser('--search') },
  { flags: '--draft <yes|no>', key: 'draft', help: 'only drafts (yes) or only ready ones (no)', parse: draftValue },
  {
    flags: '--order-by <field>',
    key: 'order_by',
    help: 'service default: created_at',
    choices: ['created_at', 'updated_at', 'merged_at', 'title', 'popularity', 'priority', 'label_priority', 'milestone_due'],
  },
  { flags: '--sort <direction>', key: 'sort', help: 'service default: desc', choices: ['asc', 'desc'] },
];

/** Across projects a bare iid is ambiguous: `group/project!12` names the merge request. */
const ACROSS_PROJECTS_COLUMNS = ['references.full', ...MR_COLUMNS.filter((column) => column !== 'iid')];

function draftValue(value: string): boolean {
  if (value !== 'yes' && value !== 'no') throw new UsageError(`--draft takes yes or no, not '${value}'`);
  return value === 'yes';
}

interface ListOptions extends ListFlags {
  group?: string;
  instance?: boolean;
  [key: string]: unknown;
}

export const LIST = defineCommand<ListOptions>({
  name: 'list',
  description: "List a project's merge requests, a group's (with its subgroups), or the instance's",
  args: [{ name: 'project', help: PROJECT_ARGUMENT, parse: projectRef, optional: true }],
  options: [
    {
      flags: '--group <group>',
      help: 'list the merge requests of a group and its subgroups (id or full path)',
      parse: requiredTextParser('--group'),
    },
    { flags: '--instance', help: 'list merge requests across the instance (yours unless --scope all)' },
    ...FILTERS,
    ...LIST_OPTIONS,
  ],
  examples: [
    'svc mr list acme/platform/api --state opened --target-branch main',
    'svc mr list --group acme --state merged --author jdoe --order-by merged_at',
    'svc mr list --instance --scope reviews_for_me -o json',
  ],
  run: (ctx, [project], opts) => run(ctx, project as string | undefined, opts),
});

async function run(ctx: Context, project: string | undefined, opts: ListOptions): Promise<void> {
  const given = [project !== undefined, opts.group !== undefined, opts.instance === true].filter(Boolean).length;
  if (given !== 1) throw new UsageError('give one of: a PROJECT, --group GROUP or --instance');
  const path =
    project !== undefined
      ? apiPath`/projects/${project}/merge_requests`
      : opts.group !== undefined
        ? apiPath`/groups/${opts.group}/merge_requests`
        : '/merge_requests';
  const http = await ctx.http({ requireToken: opts.instance === true && opts.scope !== 'all' });
  const query = {
    ...(await serviceParams(ctx, FILTERS, opts)),
    ...userParams(opts, ['author', 'assignee', 'reviewer']),
    per_page: perPageFor(opts),
  };
  await outputList(
    ctx,
    listRecords(http, path, query),
    opts,
    project !== undefined ? MR_COLUMNS : ACROSS_PROJECTS_COLUMNS,
    'merge requests',
  );
}
