import type { PipelineJob } from '../../api/pipelines.js';
import { InterruptedError } from '../../errors.js';
import { lastLines, LogFilter, type LogMode } from './log-filter.js';
import { nodeName, type PipelineView, type TreeNode } from './tree.js';

/** Lines of each failed job's log shown when `--log-failed` names no number. */
export const DEFAULT_FAILED_LOG_LINES = 50;

export type FailedJobView = PipelineJob;

export interface FailedBridgeView extends PipelineJob {
  downstream_pipeline: PipelineView | null;
}

export interface FailedJobSource {
  /** The pipeline's failed jobs, retried ones left out. */
  failedJobs(projectId: string | number, pipelineId: number): Promise<FailedJobView[]>;
  /** The pipeline's failed trigger jobs, which the jobs list leaves out. */
  failedBridges(projectId: string | number, pipelineId: number): Promise<FailedBridgeView[]>;
  log(projectId: string | number, jobId: number): Promise<Buffer>;
}

export interface FailedLogOutput {
  lines: number;
  mode: LogMode;
  signal: AbortSignal;
  info(line: string): void;
  /** What could not be read (a token that may not read logs): said, and the next job still shown. */
  warn(line: string): void;
  write(bytes: Buffer): Promise<void>;
}

/**
 * For every pipeline of the tree that did not succeed, each job that made it fail (a job allowed
 * to fail did not): where it ran, why it failed, and the end of its log. When no job failed, the
 * trigger jobs that did are named, unless the pipeline one started is in the tree to speak for itself.
 */
export async function showFailedJobs(source: FailedJobSource, nodes: Array<TreeNode<PipelineView>>, out: FailedLogOutput): Promise<void> {
  for (const node of nodes) {
    if (node.record.status === 'success') continue;
    const listed = await readOrWarn(out, `the failed jobs of ${nodeName(node)}`, () => source.failedJobs(node.project, node.id));
    const jobs = (listed ?? []).filter((job) => job.status === 'failed' && !job.allow_failure);
    for (const job of jobs) {
      out.info(
        `failed job ${job.id} in ${nodeName(node)}: stage ${job.stage}, name ${job.name}, reason ${job.failure_reason ?? 'unknown'}`,
      );
      out.info(job.web_url);
      if (out.lines === 0) continue;
      const log = await readOrWarn(out, `the log of job ${job.id}`, () => source.log(node.project, job.id));
      if (log === undefined) continue;
      const filter = new LogFilter(out.mode);
      const shown = Buffer.concat([filter.push(lastLines(log, out.lines)), filter.end()]);
      await out.write(shown.length === 0 || shown.at(-1) === 0x0a ? shown : Buffer.concat([shown, Buffer.from('\n')]));
    }
    if (jobs.length === 0) await showFailedBridges(source, node, nodes, out);
  }
}

async function showFailedBridges(
  source: FailedJobSource,
  node: TreeNode<PipelineView>,
  nodes: Array<TreeNode<PipelineView>>,
  out: FailedLogOutput,
): Promise<void> {
  const listed = await readOrWarn(out, `the trigger jobs of ${nodeName(node)}`, () => source.failedBridges(node.project, node.id));
  for (const bridge of listed ?? []) {
    const downstream = bridge.downstream_pipeline;
    if (bridge.status !== 'failed' || bridge.allow_failure || (downstream && nodes.some((known) => known.id === downstream.id))) continue;
    out.info(
      `failed trigger job ${bridge.id} in ${nodeName(node)}: stage ${bridge.stage}, name ${bridge.name}, reason ${bridge.failure_reason ?? 'unknown'}`,
    );
    out.info(bridge.web_url);
    if (downstream)
      out.info(
        `it started pipeline ${downstream.id} (project ${downstream.project_id}), which ended ${downstream.status}: ${downstream.web_url} ` +
          '(--follow-downstream shows its failed jobs)',
      );
  }
}

/** The read's result, or undefined once a failed read was named: the pipeline's own failure stays the outcome. */
async function readOrWarn<T>(out: FailedLogOutput, what: string, read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof InterruptedError || out.signal.aborted) throw error;
    out.warn(`could not read ${what}: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}
