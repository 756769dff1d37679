import { getMergeRequest, type MergeInput, type MergeRequest, mergeMergeRequest } from '../../api/merge-requests.js';
import { defineCommand } from '../../cli/spec.js';
import type { Context } from '../../context.js';
import { ExitCode, SvcError } from '../../errors.js';
import { ApiError, renderErrorBody } from '../../http/api-error.js';
import type { HttpClient } from '../../http/client.js';
import { itemPath, withHints } from '../generic/resource.js';
import { MERGE_REQUESTS, MR_FIELDS, mergeStatusWords, MR_ARGS } from './shared/resource.js';
import { writeResult } from '../shared/outcome.js';

interface MergeOptions {
  squash?: boolean;
  removeSourceBranch?: boolean;
  sha?: string;
  whenPipelineSucceeds?: boolean;
}

export const MERGE = defineCommand<MergeOptions>({
  name: 'merge',
  description: 'Merge a merge request now, or once its pipeline succeeds; a refusal says why in one line',
  args: MR_ARGS,
  options: [
    { flags: '--squash', help: 'squash its commits into one' },
    { flags: '--remove-source-branch', help: 'delete the source branch once merged' },
    { flags: '--sha <sha>', help: 'merge only if the source branch head is still this commit' },
    { flags: '--when-pipeline-succeeds', help: 'if its pipeline is still running, merge once it succeeds' },
  ],
  notes:
    'The service answers the same 405 whatever keeps a merge request from merging; svc then reads its ' +
    'detailed_merge_status to say which: draft, conflicts, closed, already merged, pipeline, approvals, threads, ' +
    'rebase, or still being checked (try again in a few seconds). ' +
    'Exit codes: 6 refused (not mergeable, or --sha no longer the head), 4 not allowed to merge into the target branch, 5 not found.',
  examples: [
    'svc mr merge acme/platform/api 12 --squash --remove-source-branch',
    'svc mr merge acme/platform/api 12 --sha "$CI_COMMIT_SHA" --when-pipeline-succeeds',
  ],
  run: (ctx, [project, iid], opts) => run(ctx, project as string, iid as string, opts),
});

async function run(ctx: Context, project: string, iid: string, opts: MergeOptions): Promise<void> {
  const http = await ctx.http({ requireToken: true });
  const input: MergeInput = {
    squash: opts.squash,
    should_remove_source_branch: opts.removeSourceBranch,
    sha: opts.sha,
    auto_merge: opts.whenPipelineSucceeds,
  };
  let mr: MergeRequest;
  try {
    mr = await withHints(MERGE_REQUESTS, itemPath(MERGE_REQUESTS), [project, iid], () => mergeMergeRequest(http, project, iid, input));
  } catch (error) {
    throw await explainRefusal(http, project, iid, error);
  }
  if (mr.state === 'merged') ctx.info(`merged !${mr.iid} into ${mr.target_branch}`);
  else if (mr.merge_when_pipeline_succeeds) ctx.info(`!${mr.iid} will be merged into ${mr.target_branch} when its pipeline succeeds`);
  await writeResult(ctx, mr, [...MR_FIELDS, 'merge_commit_sha']);
}

/** The one line that says why the service refused, with the exit code of its class. */
async function explainRefusal(http: HttpClient, project: string, iid: string, error: unknown): Promise<unknown> {
  if (!(error instanceof ApiError)) return error;
  if (error.status === 409) return new SvcError(`cannot merge !${iid}: ${renderErrorBody(error.body) ?? error.message}`, ExitCode.rejected);
  if (error.status === 400 && /SHA must be provided/i.test(renderErrorBody(error.body) ?? '')) {
    return new SvcError(
      `cannot merge !${iid}: this project requires --sha, the head commit of the source branch you checked`,
      ExitCode.rejected,
    );
  }
  if (![401, 405, 406, 422].includes(error.status)) return error;
  let mr: MergeRequest;
  try {
    mr = await getMergeRequest(http, project, iid);
  } catch {
    // The refusal itself is the better answer when the merge request cannot be read either.
    return error;
  }
  if (error.status === 401) {
    return new SvcError(`cannot merge !${iid}: you may not merge into ${mr.target_branch} (a protected branch)`, ExitCode.forbidden);
  }
  if (mr.detailed_merge_status === 'mergeable') {
    const why = renderErrorBody(error.body) ?? error.message;
    return new SvcError(
      `cannot merge !${iid}: the service did not merge it (${why}) although it reports it mergeable; try again`,
      ExitCode.rejected,
    );
  }
  return new SvcError(`cannot merge !${iid}: it ${mergeStatusWords(mr)}`, ExitCode.rejected);
}
