import { getMergeRequest, type MergeRequest } from '../../api/merge-requests.js';
import type { Context } from '../../context.js';
import { ExitCode, IncompleteError } from '../../errors.js';
import type { HttpClient } from '../../http/client.js';
import { isFinalStatus } from '../../workflows/pipelines/tree.js';
import { type EventFlags, WaitEvents } from '../shared/events.js';
import { type WaitFlags, watchUntilFinal } from '../shared/wait.js';
import { MR_FIELDS, mergeStatusWords } from './shared/resource.js';

/** Blockers that an auto-merge waits out by itself; any other one keeps it from ever merging. */
const PASSING = new Set(['mergeable', 'ci_still_running', 'ci_must_pass', 'checking', 'unchecked', 'preparing', 'approvals_syncing']);

const pipelineOf = (mr: MergeRequest) => mr.head_pipeline ?? null;
const pipelineFailed = (mr: MergeRequest) => {
  const pipeline = pipelineOf(mr);
  return pipeline !== null && isFinalStatus(pipeline.status) && pipeline.status !== 'success';
};

const pipelineBrief = (mr: MergeRequest) => {
  const pipeline = pipelineOf(mr);
  return pipeline && { id: pipeline.id, status: pipeline.status };
};

/** Why an auto-merge will not happen, or undefined while it still may. */
function refusal(mr: MergeRequest): string | undefined {
  const name = `!${mr.iid}`;
  if (mr.state === 'merged') return undefined;
  if (mr.state !== 'opened') return `${name} is ${mr.state}; the automatic merge was aborted`;
  if (pipelineFailed(mr)) {
    const pipeline = pipelineOf(mr)!;
    return `pipeline ${pipeline.id} of ${name} ended ${pipeline.status}; the automatic merge stays set and happens if a retried pipeline succeeds`;
  }
  if (!mr.merge_when_pipeline_succeeds) return `the automatic merge of ${name} was canceled`;
  if (!PASSING.has(mr.detailed_merge_status)) return `${name} will not merge: it ${mergeStatusWords(mr)}`;
  return undefined;
}

/** The status a wait shows: the merge request's state, or its head pipeline's while it waits for it. */
export function autoMergeStatus(mr: MergeRequest): string {
  if (mr.state !== 'opened') return mr.state;
  if (!mr.merge_when_pipeline_succeeds) return 'auto-merge canceled';
  const pipeline = pipelineOf(mr);
  return pipeline ? `pipeline ${pipeline.id} ${pipeline.status}` : 'waiting to merge';
}

/** Follows a merge request set to auto-merge until it merged (exit 0) or will not (exit 8, the reason on stderr). */
export async function followAutoMerge(
  ctx: Context,
  http: HttpClient,
  project: string,
  flags: WaitFlags & EventFlags,
  initial: MergeRequest,
): Promise<MergeRequest> {
  const name = `!${initial.iid}`;
  const events = new WaitEvents(ctx, Boolean(flags.events));
  const result = await watchUntilFinal(ctx, flags, {
    subject: name,
    fetch: () => getMergeRequest(http, project, String(initial.iid)),
    status: autoMergeStatus,
    isFinal: (mr) => mr.state !== 'opened' || refusal(mr) !== undefined,
    onInterrupt: `${name} stays set to merge when its pipeline succeeds; \`svc mr get ${project} ${initial.iid}\` shows it`,
    initial,
    events,
    event: (mr) => ({ type: 'merge_request', id: mr.id, extra: { iid: mr.iid, state: mr.state, pipeline: pipelineBrief(mr) } }),
  });
  const mr = result.record;
  const why = result.timedOut
    ? `${name} not merged after ${result.elapsedS} s (${autoMergeStatus(mr)}); it stays set to merge`
    : refusal(mr);
  await events.end(mr, [...MR_FIELDS, 'merge_commit_sha'], why === undefined ? 0 : ExitCode.incomplete, why);
  if (why !== undefined) throw new IncompleteError(why);
  ctx.info(`merged ${name} into ${mr.target_branch}`);
  return mr;
}
