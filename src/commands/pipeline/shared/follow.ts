import type { Context } from '../../../context.js';
import { getPipeline, listFailedPipelineJobs, listPipelineBridges } from '../../../api/pipelines.js';
import type { Pipeline } from '../../../api/types.js';
import type { OptionSpec } from '../../../cli/spec.js';
import { intOption } from '../../../cli/parsers.js';
import { ExitCode, IncompleteError, InterruptedError, UsageError } from '../../../errors.js';
import type { HttpClient } from '../../../http/client.js';
import { write } from '../../../output/writer.js';
import { DEFAULT_FAILED_LOG_LINES, showFailedJobs } from '../../../workflows/pipelines/failed-logs.js';
import { isFinalStatus, nodeName, waitForTree, type PipelineView, type TreeNode } from '../../../workflows/pipelines/tree.js';
import { DEFAULT_INTERVAL_S, systemClock } from '../../../workflows/shared/clock.js';
import { Deadline } from '../../../workflows/shared/deadline.js';
import { getJobLog } from '../../../api/jobs.js';
import { EVENTS_OPTION, type EventFlags, WaitEvents } from '../../shared/events.js';
import { checkWaitFlags, type WaitFlags } from '../../shared/wait.js';
import { PIPELINE_FIELDS } from './resource.js';

export interface PipelineWaitFlags extends WaitFlags, EventFlags {
  followDownstream?: boolean;
  /** `true` when given without a number. */
  logFailed?: number | true;
}

const MAX_LOG_LINES = 100_000;

/** What `wait`, `create --wait` and `trigger --wait` take besides the wait's own settings. */
export const TREE_OPTIONS: OptionSpec[] = [
  {
    flags: '--follow-downstream',
    help: 'also wait for the child and multi-project pipelines its trigger jobs start, recursively; exit 0 only if all succeed',
  },
  {
    flags: '--log-failed [lines]',
    help: `when it does not succeed, show each failed job and the last N lines of its log on stderr (default ${DEFAULT_FAILED_LOG_LINES}; write --log-failed=N)`,
    parse: intOption('--log-failed', 0, MAX_LOG_LINES),
  },
  EVENTS_OPTION,
];

/** On a verb where waiting is optional, what the wait takes makes sense only with --wait. */
export function checkPipelineWaitFlags(flags: PipelineWaitFlags & { wait?: boolean }): void {
  checkWaitFlags(flags);
  if (flags.wait) return;
  const given = [flags.followDownstream && '--follow-downstream', flags.logFailed !== undefined && '--log-failed'].filter(
    (name): name is string => Boolean(name),
  );
  if (given.length) throw new UsageError(`${given.join(' and ')} only ${given.length > 1 ? 'apply' : 'applies'} with --wait`);
}

/**
 * Polls the pipeline (and with --follow-downstream the pipelines it started) until all ended,
 * prints the pipeline, and fails with exit 8 unless every one succeeded.
 */
export async function followPipeline(
  ctx: Context,
  http: HttpClient,
  project: string,
  flags: PipelineWaitFlags,
  initial: Pipeline | undefined,
  pipelineId: string | number,
  deadline = waitDeadline(flags),
): Promise<void> {
  const started = Date.now();
  const rootName = `pipeline ${pipelineId}`;
  let root: Pipeline | undefined = initial;
  const events = new WaitEvents(ctx, Boolean(flags.events));
  const progress = await progressReporter(ctx, rootName, events);
  let result;
  try {
    result = await waitForTree<Pipeline>(
      { pipeline: (p, id) => getPipeline(http, p, id), bridges: (p, id) => listPipelineBridges(http, p, id) },
      { project, id: Number(pipelineId), initial },
      {
        clock: systemClock,
        signal: ctx.signal,
        deadline,
        intervalMs: (flags.interval ?? DEFAULT_INTERVAL_S) * 1000,
        followDownstream: Boolean(flags.followDownstream),
        onPoll: (nodes) => {
          root = nodes[0]!.record as Pipeline;
          progress.show(nodes, Math.round((Date.now() - started) / 1000));
        },
      },
    );
  } catch (error) {
    if (error instanceof InterruptedError || ctx.signal.aborted)
      throw new InterruptedError(`interrupted; ${rootName} keeps running on the server${root ? `: ${root.web_url}` : ''}`);
    throw error;
  } finally {
    progress.stop();
  }
  const { nodes } = result;
  const record = nodes[0]!.record as Pipeline;
  const message = result.timedOut
    ? timedOutMessage(nodes, rootName, Math.round((Date.now() - started) / 100) / 10)
    : failureMessage(nodes, rootName);
  await events.end(record, PIPELINE_FIELDS, message === undefined ? 0 : ExitCode.incomplete, message);
  if (result.timedOut) throw new IncompleteError(message!);
  if (message === undefined) {
    const more = nodes.length > 1 ? `, with ${nodes.length - 1} downstream pipeline${nodes.length > 2 ? 's' : ''}` : '';
    ctx.info(`${rootName} succeeded${more}: ${record.web_url}`);
    return;
  }
  if (flags.logFailed !== undefined)
    await logFailedJobs(ctx, http, nodes, flags.logFailed === true ? DEFAULT_FAILED_LOG_LINES : flags.logFailed);
  throw new IncompleteError(message);
}

/** Why the tree did not succeed, or undefined when every pipeline in it did. */
function failureMessage(nodes: Array<TreeNode<PipelineView>>, rootName: string): string | undefined {
  const root = nodes[0]!.record;
  const unsuccessful = nodes.slice(1).filter((node) => node.record.status !== 'success');
  if (root.status === 'success' && unsuccessful.length === 0) return undefined;
  const downstream = unsuccessful.map((node) => `${nodeName(node)} ${node.record.status}`).join(', ');
  return `${rootName} ended ${root.status}: ${root.web_url}${downstream ? `; not successful: ${downstream}` : ''}`;
}

function timedOutMessage(nodes: Array<TreeNode<PipelineView>>, rootName: string, elapsedS: number): string {
  const running = nodes.find((node) => !isFinalStatus(node.record.status));
  if (!running) return `a trigger job of ${rootName} had not started its pipeline after ${elapsedS} s: ${nodes[0]!.record.web_url}`;
  return `${nodeName(running)} still ${running.record.status} after ${elapsedS} s; it keeps running: ${running.record.web_url}`;
}

export function waitDeadline(flags: WaitFlags): Deadline {
  return Deadline.after(systemClock, flags.waitTimeout === undefined ? undefined : flags.waitTimeout * 1000);
}

/** A spinner with one line per pipeline on a terminal; elsewhere one line per status change. */
async function progressReporter(ctx: Context, rootName: string, events: WaitEvents) {
  const spinner = await ctx.spinner(`${rootName}: waiting`);
  const reported = new Map<number, string>();
  return {
    show(nodes: Array<TreeNode<PipelineView>>, elapsedS: number) {
      spinner.update(nodes.map((node) => `${nodeName(node)}: ${node.record.status} (${elapsedS} s)`).join('\n'));
      for (const node of nodes) {
        void emitEvent(events, node);
        if (reported.get(node.id) === node.record.status) continue;
        reported.set(node.id, node.record.status);
        if (!ctx.animated) ctx.info(`${nodeName(node)}: ${node.record.status}`);
      }
    },
    stop: () => spinner.stop(),
  };
}

/** The followed pipeline is a `pipeline` event, those its trigger jobs started `downstream` ones. */
function emitEvent(events: WaitEvents, node: TreeNode<PipelineView>): Promise<void> {
  if (!node.parent) return events.status('pipeline', node.id, node.record.status);
  return events.status('downstream', node.id, node.record.status, { project_id: node.record.project_id, parent_id: node.parent.id });
}

async function logFailedJobs(ctx: Context, http: HttpClient, nodes: Array<TreeNode<PipelineView>>, lines: number): Promise<void> {
  if (ctx.globals.quiet) return;
  await showFailedJobs(
    {
      failedJobs: (p, id) => listFailedPipelineJobs(http, p, id),
      failedBridges: (p, id) => listPipelineBridges(http, p, id, ['failed']),
      log: (p, id) => getJobLog(http, String(p), id),
    },
    nodes,
    {
      lines,
      mode: ctx.io.isTTY.stderr ? 'terminal' : 'plain',
      signal: ctx.signal,
      info: (line) => ctx.info(line),
      warn: (line) => ctx.warn(line),
      write: (bytes) => write(ctx.io.stderr, bytes),
    },
  );
}
