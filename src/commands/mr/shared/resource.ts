import type { MergeRequest } from '../../../api/merge-requests.js';
import { collect } from '../../../cli/parsers.js';
import type { ArgSpec, OptionSpec } from '../../../cli/spec.js';
import { UsageError } from '../../../errors.js';
import type { PathParam, Resource } from '../../generic/resource.js';
import { userIds } from '../../shared/users.js';
import { idDigits, PROJECT, PROJECT_ARGUMENT, projectRef, requiredTextParser } from '../../shared/args.js';

export const MR_FIELDS = [
  'id',
  'iid',
  'title',
  'state',
  'source_branch',
  'target_branch',
  'author.username',
  'detailed_merge_status',
  'web_url',
];
export const MR_COLUMNS = ['iid', 'title', 'state', 'source_branch', 'target_branch', 'author.username', 'detailed_merge_status'];

/** `12` or `!12`, as the web UI shows it. */
export function parseMergeRequestIid(value: string): string {
  const digits = value.trim().replace(/^!/, '');
  if (!digits) throw new UsageError(`invalid iid '${value}': expected the merge request's number, such as 12 or !12`);
  return idDigits('iid', digits);
}

export const PROJECT_ARG: ArgSpec = { name: 'project', help: PROJECT_ARGUMENT, parse: projectRef };
export const IID_ARG: ArgSpec = { name: 'iid', help: "the merge request's iid (!12 in the web UI)", parse: parseMergeRequestIid };
/** PROJECT IID, the arguments of every verb on one merge request. */
export const MR_ARGS: ArgSpec[] = [PROJECT_ARG, IID_ARG];

const IID: PathParam = {
  help: "the merge request's iid: its number within the project (!12 in the web UI), not its global id",
  parse: parseMergeRequestIid,
  notFoundHint: (iid, error) =>
    /project not found/i.test(error.message)
      ? undefined
      : `the path takes the merge request's iid, its number within the project, not the global id; is !${iid} right?`,
};

export const MERGE_REQUESTS: Resource = {
  path: '/projects/:project/merge_requests',
  id: 'iid',
  params: { project: PROJECT, iid: IID },
  fields: MR_FIELDS,
  columns: MR_COLUMNS,
};

/** Options create and update share; each names the service's own body key. */
export const BODY_OPTIONS: OptionSpec[] = [
  { flags: '--description <text>', help: 'the description (Markdown)' },
  { flags: '--description-file <path>', help: 'read the description from a file (- for stdin)' },
  { flags: '--labels <a,b>', key: 'labels', help: 'labels, comma-separated (replaces the set)' },
  {
    flags: '--assignee <user>',
    key: 'assignee_ids',
    help: 'assignee: username or user id (repeatable)',
    parse: collect,
    resolve: (http, users) => userIds(http, users as string[]),
  },
  {
    flags: '--reviewer <user>',
    key: 'reviewer_ids',
    help: 'reviewer: username or user id (repeatable)',
    parse: collect,
    resolve: (http, users) => userIds(http, users as string[]),
  },
  { flags: '--remove-source-branch', key: 'remove_source_branch', help: 'delete the source branch once merged' },
  { flags: '--squash', key: 'squash', help: 'squash the commits when merging' },
];

export const TARGET_OPTION: OptionSpec = {
  flags: '--target <branch>',
  key: 'target_branch',
  help: 'branch to merge into',
  parse: requiredTextParser('--target'),
};

/** `detailed_merge_status` in words: why the merge request can or cannot be merged now. */
export function mergeStatusWords(mr: MergeRequest): string {
  const pipeline = mr.head_pipeline ? `pipeline ${mr.head_pipeline.id} is ${mr.head_pipeline.status}` : 'its pipeline';
  switch (mr.detailed_merge_status) {
    case 'mergeable':
      return 'can be merged';
    case 'not_open':
      if (mr.state === 'merged') return 'is already merged';
      if (mr.state === 'locked') return 'is being merged';
      return 'is closed; reopen it first';
    case 'draft_status':
      return 'is a draft; mark it ready (drop the "Draft:" prefix) first';
    case 'conflict':
      return `has conflicts with ${mr.target_branch}; resolve them first`;
    case 'ci_still_running':
      return `must wait: ${pipeline}, not finished (--auto merges it once it passes)`;
    case 'ci_must_pass':
      return `needs a successful pipeline: ${pipeline}`;
    case 'not_approved':
      return 'needs approval';
    case 'requested_changes':
      return 'has a reviewer asking for changes';
    case 'discussions_not_resolved':
      return 'has unresolved threads';
    case 'need_rebase':
      return `must be rebased onto ${mr.target_branch} (svc mr rebase does it)`;
    case 'blocked_status':
      return 'is blocked by another merge request';
    case 'preparing':
      return 'was just opened and the service is still preparing it; try again in a few seconds';
    case 'checking':
    case 'approvals_syncing':
      return 'is being checked by the service right now; try again in a few seconds';
    case 'unchecked':
      return 'has changed since the service last checked it; svc mr get starts the check';
    default:
      return `cannot be merged (${mr.detailed_merge_status})`;
  }
}
