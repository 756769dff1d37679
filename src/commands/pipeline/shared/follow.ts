import type { Context } from '../../../context.js';
import { getPipeline, listFailedPipelineJobs, listPipelineBridges } from '../../../api/pipelines.js';
import type { Pipeline } from '../../../api/types.js';
import type { OptionSpec } from '../../../cli/spec.js';
import { intOption } from '../../../cli/parsers.js';
import { IncompleteError, InterruptedError, UsageError } from '../../../errors.js';
import type { HttpClient } from '../../../http/client.js';
import { write } from '../../../output/writer.js';
import { DEFAULT_FAILED_LOG_LINES, showFailedJobs } from '../../../workflows/pipelines/failed-logs.js';
import { isFinalStatus, nodeName, waitForTree, type PipelineView, type TreeNode } from '../../../workflows/pipelines/tree.js';
import { DEFAULT_INTERVAL_S, systemClock } from '../../../workflows/shared/clock.js';
import { Deadline } from '../../../workflows/shared/deadline.js';
import { getJobLog } from '../../../api/jobs.js';
import { checkWaitFlags, type WaitFlags } from '../../shared/wait.js';
import { PIPELINE_FIELDS } from './resource.js';

export interface PipelineWaitFlags extends WaitFlags {
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
  const progress = await progressReporter(ctx, rootName);
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
  await ctx.printRecord(record, PIPELINE_FIELDS);
  if (result.timedOut) {
    const elapsedS = Math.round((Date.now() - started) / 100) / 10;
    const running = nodes.find((node) => !isFinalStatus(node.record.status));
    if (!running)
      throw new IncompleteError(`a trigger job of ${rootName} had not started its pipeline after ${elapsedS} s: ${record.web_url}`);
    throw new IncompleteError(
      `${nodeName(running)} still ${running.record.status} after ${elapsedS} s; it keeps running: ${running.record.web_url}`,
    );
  }
  const unsuccessful = nodes.slice(1).filter((node) => node.record.status !== 'success');
  if (record.status === 'success' && unsuccessful.length === 0) {
    const more = nodes.length > 1 ? `, with ${nodes.length - 1} downstream pipeline${nodes.length > 2 ? 's' : ''}` : '';
    ctx.info(`${rootName} succeeded${more}: ${record.web_url}`);
    return;
  }
  if (flags.logFailed !== undefined)
    await logFailedJobs(ctx, http, nodes, flags.logFailed === true ? DEFAULT_FAILED_LOG_LINES : flags.logFailed);
  const downstream = unsuccessful.map((node) => `${nodeName(node)} ${node.record.status}`).join(', ');
  throw new IncompleteError(`${rootName} ended ${record.status}: ${record.web_url}${downstream ? `; not successful: ${downstream}` : ''}`);
}

export function waitDeadline(flags: WaitFlags): Deadline {
  return Deadline.after(systemClock, flags.waitTimeout === undefined ? undefined : flags.waitTimeout * 1000);
}

/** A spinner with one line per pipeline on a terminal; elsewhere one line per status change. */
async function progressReporter(ctx: Context, rootName: string) {
  const spinner = await ctx.spinner(`${rootName}: waiting`);
  const reported = new Map<number, string>();
  return {
    show(nodes: Array<TreeNode<PipelineView>>, elapsedS: number) {
      spinner.update(nodes.map((node) => `${nodeName(node)}: ${node.record.status} (${elapsedS} s)`).join('\n'));
      for (const node of nodes) {
        if (reported.get(node.id) === node.record.status) continue;
        reported.set(node.id, node.record.status);
        if (!ctx.animated) ctx.info(`${nodeName(node)}: ${node.record.status}`);
      }
    },
    stop: () => spinner.stop(),
  };
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
