import { getMergeRequest, type MergeInput, type MergeRequest, mergeMergeRequest } from '../../api/merge-requests.js';
import { defineCommand } from '../../cli/spec.js';
import type { Context } from '../../context.js';
import { ExitCode, SvcError, UsageError } from '../../errors.js';
import { ApiError, renderErrorBody } from '../../http/api-error.js';
import type { HttpClient } from '../../http/client.js';
import { itemPath, withHints } from '../generic/resource.js';
import { MERGE_REQUESTS, MR_FIELDS, mergeStatusWords, MR_ARGS } from './shared/resource.js';
import { writeResult } from '../shared/outcome.js';
import { checkWaitFlags, WAIT_OPTIONS, type WaitFlags } from '../shared/wait.js';
import { followAutoMerge } from './auto-merge.js';
import { EVENTS_OPTION, type EventFlags } from '../shared/events.js';

interface MergeOptions extends WaitFlags, EventFlags {
  squash?: boolean;
  removeSourceBranch?: boolean;
  sha?: string;
  auto?: boolean;
  wait?: boolean;
}

export const MERGE = defineCommand<MergeOptions>({
  name: 'merge',
  description: 'Merge a merge request now, or once its pipeline succeeds (--auto, --wait to see it end); a refusal says why in one line',
  args: MR_ARGS,
  options: [
    { flags: '--squash', help: 'squash its commits into one' },
    { flags: '--remove-source-branch', help: 'delete the source branch once merged' },
    { flags: '--sha <sha>', help: 'merge only if the source branch head is still this commit' },
    { flags: '--auto', help: 'if its pipeline is still running, merge once it succeeds (also --when-pipeline-succeeds)' },
    { flags: '--wait', help: 'with --auto: wait until it merged (exit 0), or its pipeline failed or the merge was canceled (exit 8)' },
    ...WAIT_OPTIONS,
    EVENTS_OPTION,
  ],
  ownSpellings: { '--when-pipeline-succeeds': '--auto' },
  notes:
    'The service answers the same 405 whatever keeps a merge request from merging; svc then reads its ' +
    'detailed_merge_status to say which: draft, conflicts, closed, already merged, pipeline, approvals, threads, ' +
    'rebase, or still being checked (try again in a few seconds). ' +
    'Exit codes: 6 refused (not mergeable, or --sha no longer the head), 4 not allowed to merge into the target branch, 5 not found, ' +
    '8 with --wait: the pipeline failed (the automatic merge stays set), the merge request was closed, the automatic merge ' +
    'was canceled, or --wait-timeout.',
  examples: [
    'svc mr merge acme/platform/api 12 --squash --remove-source-branch',
    'svc mr merge acme/platform/api 12 --sha "$CI_COMMIT_SHA" --auto',
    'svc mr merge acme/platform/api 12 --auto --wait --wait-timeout 3600',
  ],
  run: (ctx, [project, iid], opts) => run(ctx, project as string, iid as string, opts),
});

async function run(ctx: Context, project: string, iid: string, opts: MergeOptions): Promise<void> {
  checkWaitFlags(opts);
  if (opts.wait && !opts.auto) throw new UsageError('--wait only applies with --auto (a merge without it ends at once)');
  const http = await ctx.http({ requireToken: true });
  const input: MergeInput = {
    squash: opts.squash,
    should_remove_source_branch: opts.removeSourceBranch,
    sha: opts.sha,
    auto_merge: opts.auto,
  };
  let mr: MergeRequest;
  try {
    mr = await withHints(MERGE_REQUESTS, itemPath(MERGE_REQUESTS), [project, iid], () => mergeMergeRequest(http, project, iid, input));
  } catch (error) {
    throw await explainRefusal(http, project, iid, error);
  }
  const waiting = mr.state !== 'merged' && mr.merge_when_pipeline_succeeds;
  if (waiting) ctx.info(`!${mr.iid} will be merged into ${mr.target_branch} when its pipeline succeeds`);
  // A merge done at once ends the wait at its first look, so --events still tells it.
  if (opts.wait) {
    await followAutoMerge(ctx, http, project, opts, mr);
    return;
  }
  if (mr.state === 'merged') ctx.info(`merged !${mr.iid} into ${mr.target_branch}`);
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
