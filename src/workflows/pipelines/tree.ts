import type { Clock } from '../shared/clock.js';
import type { Deadline } from '../shared/deadline.js';

/** What the wait reads of a pipeline: the full record or the basic one a bridge names. */
export interface PipelineView {
  id: number;
  project_id: number;
  status: string;
  web_url: string;
  source?: string;
}

export interface BridgeView {
  status: string;
  downstream_pipeline: PipelineView | null;
}

/**
 * Statuses from which a pipeline, a bridge or a job (they share the service's statuses) moves on by itself (`scheduled` runs its delayed
 * jobs when their time comes). Every other status is final: `success`, and `failed`, `canceled`,
 * `skipped` and `manual` (blocked until a person starts a manual job), which count as not successful.
 */
export const ACTIVE_PIPELINE_STATUSES = new Set([
  'created',
  'waiting_for_resource',
  'preparing',
  'waiting_for_callback',
  'pending',
  'running',
  'scheduled',
  'canceling',
]);

export const isFinalStatus = (status: string): boolean => !ACTIVE_PIPELINE_STATUSES.has(status);

export interface TreeSource<P extends PipelineView> {
  pipeline(projectId: string | number, pipelineId: number): Promise<P>;
  bridges(projectId: string | number, pipelineId: number): Promise<BridgeView[]>;
}

export interface TreeNode<P extends PipelineView> {
  /** The project as the user named it for the root, the numeric id for the others. */
  project: string | number;
  id: number;
  record: P | PipelineView;
  /** The pipeline whose bridge started this one; none for the root. */
  parent?: TreeNode<P>;
  /** Bridges not yet read, or some not ended that have started no pipeline yet: more may come. */
  bridgesOpen: boolean;
}

export interface TreeWait<P extends PipelineView> {
  clock: Clock;
  signal: AbortSignal;
  deadline: Deadline;
  intervalMs: number;
  followDownstream: boolean;
  /** Called after every poll with every node, the new ones included. */
  onPoll(nodes: Array<TreeNode<P>>): void;
}

export interface TreeResult<P extends PipelineView> {
  nodes: Array<TreeNode<P>>;
  timedOut: boolean;
}

/**
 * Polls a pipeline and, when asked, the pipelines its bridges started, recursively, until every
 * one has ended. A poll costs one request per pipeline still running, plus one per pipeline with
 * an unfinished bridge that has not started its pipeline yet; a pipeline that ended is not read again.
 */
export async function waitForTree<P extends PipelineView>(
  source: TreeSource<P>,
  root: { project: string | number; id: number; initial?: P },
  wait: TreeWait<P>,
): Promise<TreeResult<P>> {
  const rootNode: TreeNode<P> = {
    project: root.project,
    id: root.id,
    record: root.initial ?? (await source.pipeline(root.project, root.id)),
    bridgesOpen: wait.followDownstream,
  };
  const nodes: Array<TreeNode<P>> = [rootNode];
  const unfinished = () => nodes.some((node) => !isFinalStatus(node.record.status) || node.bridgesOpen);
  const readBridges = () => Promise.all(nodes.filter((node) => node.bridgesOpen).map((node) => discover(source, node, nodes)));
  const first = await wait.deadline.race(readBridges());
  if (first.expired) return { nodes, timedOut: true };
  wait.onPoll(nodes);
  while (unfinished()) {
    if (wait.deadline.expired()) return { nodes, timedOut: true };
    await wait.clock.sleep(Math.min(wait.intervalMs, wait.deadline.remainingMs()), wait.signal);
    const polled = await wait.deadline.race(poll(source, nodes));
    if (polled.expired) return { nodes, timedOut: true };
    wait.onPoll(nodes);
  }
  return { nodes, timedOut: false };
}

async function poll<P extends PipelineView>(source: TreeSource<P>, nodes: Array<TreeNode<P>>): Promise<void> {
  const current = [...nodes];
  await Promise.all(
    current.map(async (node) => {
      if (!isFinalStatus(node.record.status)) node.record = await source.pipeline(node.project, node.id);
      if (node.bridgesOpen) await discover(source, node, nodes);
    }),
  );
}

/** Reads the node's bridges and adds the pipelines they started that are not followed yet. */
async function discover<P extends PipelineView>(source: TreeSource<P>, node: TreeNode<P>, nodes: Array<TreeNode<P>>): Promise<void> {
  const bridges = await source.bridges(node.project, node.id);
  for (const bridge of bridges) {
    const downstream = bridge.downstream_pipeline;
    if (!downstream || nodes.some((known) => known.id === downstream.id)) continue;
    nodes.push({ project: downstream.project_id, id: downstream.id, record: downstream, parent: node, bridgesOpen: true });
  }
  // A bridge whose pipeline is followed says nothing that pipeline will not: it ends as it ends.
  node.bridgesOpen = bridges.some((bridge) => !isFinalStatus(bridge.status) && !bridge.downstream_pipeline);
}

/** How a pipeline of the tree is named in progress lines and messages. */
export function nodeName(node: TreeNode<PipelineView>): string {
  if (!node.parent) return `pipeline ${node.id}`;
  const child = node.record.source === 'parent_pipeline' || node.project === node.parent.record.project_id;
  return child
    ? `pipeline ${node.id} (child of ${node.parent.id})`
    : `pipeline ${node.id} (downstream of ${node.parent.id}, project ${node.record.project_id})`;
}
