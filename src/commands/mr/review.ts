import { setApproval } from '../../api/merge-requests.js';
import { getRecord } from '../../api/resource.js';
import { apiPath } from '../../http/encode.js';
import type { Page } from '../../http/client.js';
import { outputList } from '../shared/list.js';
import { writeResult } from '../shared/outcome.js';
import { defineCommand } from '../../cli/spec.js';
import { getVerb, listVerb } from '../generic/verbs.js';
import { commentVerb } from '../shared/comment.js';
import { namesColumn } from '../shared/users.js';
import type { Command } from 'commander';
import type { Runtime } from '../../runtime.js';
import type { Resource } from '../generic/resource.js';
import { addNoteVerbs, noteEditVerb, noteParam } from '../shared/note-edit.js';
import { MERGE_REQUESTS, MR_ARGS } from './shared/resource.js';

/** `approved_by` is a list of `{user: {…}}`: a table shows the approvers' usernames. */
const approvers = (value: unknown) => (value as Array<{ user: { username: string } }>).map((approval) => approval.user.username).join(',');
const APPROVAL_FIELDS = ['approved', 'user_has_approved', 'user_can_approve', { field: 'approved_by', show: approvers }];

function approvalCommand(action: 'approve' | 'unapprove', description: string, unchanged: string) {
  return defineCommand({
    name: action,
    description,
    args: MR_ARGS,
    examples: [`svc mr ${action} acme/platform/api 12`],
    run: async (ctx, [project, iid]) => {
      const res = await setApproval(await ctx.http({ requireToken: true }), project as string, iid as string, action);
      // 304: the service had nothing to change.
      if (res.status === 304) return ctx.info(`!${iid as string}: ${unchanged}`);
      ctx.info(`!${iid as string}: ${action === 'approve' ? 'approved' : 'approval withdrawn'}`);
      await writeResult(ctx, res.data, APPROVAL_FIELDS);
    },
  });
}

export const APPROVE = approvalCommand('approve', 'Approve a merge request', 'you had already approved it');
export const UNAPPROVE = approvalCommand('unapprove', 'Withdraw your approval of a merge request', 'you had not approved it');

export const APPROVALS = getVerb(MERGE_REQUESTS, {
  name: 'approvals',
  path: '/projects/:project/merge_requests/:iid/approvals',
  description: 'Show who approved a merge request and whether you may approve it',
  fields: APPROVAL_FIELDS,
  examples: ['svc mr approvals acme/platform/api 12', 'svc mr approvals 42 3 -o json'],
});

/** The approval state as one row per rule: whether each is met, and by how many of how many approvals. */
export const APPROVAL_STATE = defineCommand({
  name: 'approval-state',
  description: "Show a merge request's approval rules (the project's rules for its target branch) and whether each is met",
  args: MR_ARGS,
  examples: ['svc mr approval-state acme/platform/api 12', 'svc mr approval-state 42 3 -o json'],
  notes: 'A premium feature of the service: elsewhere the service answers 404.',
  async run(ctx, [project, iid]) {
    const http = await ctx.http();
    const state = await getRecord<{ rules: unknown[] }>(
      http,
      apiPath`/projects/${project as string}/merge_requests/${iid as string}/approval_state`,
    );
    const pages = (async function* () {
      const page: Page<unknown> = { items: state.rules, headers: {}, url: '', hasNext: false };
      yield page;
    })();
    await outputList(
      ctx,
      pages,
      { all: true },
      ['id', 'name', 'rule_type', 'approvals_required', namesColumn('approved_by'), 'approved'],
      'approval rules',
    );
  },
});

const NOTE_RESOURCE: Resource = {
  path: '/projects/:project/merge_requests/:iid/notes',
  id: 'note',
  params: { ...MERGE_REQUESTS.params, note: noteParam('this merge request', 'svc mr notes') },
  fields: ['id', 'author.username', 'created_at', 'updated_at', 'body'],
};

const mergeRequestName = ([project, iid]: unknown[]) => `!${String(iid)} of ${String(project)}`;

export const NOTE_EDIT = noteEditVerb(NOTE_RESOURCE, 'a merge request', mergeRequestName, [
  'svc mr notes edit acme/platform/api 12 5001 --body "Pipeline passed (after a retry)"',
  './coverage-report.sh | svc mr notes edit 42 3 5001',
]);

/** `svc mr notes edit …` lives under the `notes` listing, which keeps its own arguments. */
export function registerNoteVerbs(noun: Command, runtime: Runtime): void {
  addNoteVerbs(noun, runtime, [NOTE_EDIT]);
}

export const NOTES = listVerb(MERGE_REQUESTS, {
  name: 'notes',
  path: '/projects/:project/merge_requests/:iid/notes',
  description: 'List the comments of a merge request (newest first unless --sort asc)',
  filters: [{ flags: '--sort <direction>', key: 'sort', help: 'by creation time (service default: desc)', choices: ['asc', 'desc'] }],
  columns: ['id', 'author.username', 'created_at', 'system', 'body'],
  examples: ['svc mr notes acme/platform/api 12 --all --sort asc', 'svc mr notes 42 3 -o ndjson --fields id,author.username,body'],
});

export const COMMENT = commentVerb(NOTE_RESOURCE, {
  description: 'Comment on a merge request, from --body, --body-file or stdin (quick actions such as /approve work)',
  parent: mergeRequestName,
  examples: ['svc mr comment acme/platform/api 12 --body "Pipeline passed"', './report.sh | svc mr comment acme/platform/api 12'],
});
