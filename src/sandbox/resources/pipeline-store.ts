// The pipelines' store: seeded pipelines derived from the seed (ids `(p-1)*3+k`), created ones,
// and the jobs' runs; apart from the routes so that the jobs' engine can read it too.
import { ChildCollection, storeFor } from '../store/collection.js';
import type { JobRec, PipelineRec } from '../store/records.js';
import type { World } from '../store/world.js';
import type { JobRun } from './job-states.js';

export const SEEDED_PIPELINES = 3;

export const SEEDED_JOBS = 2;

export const DAY = 86_400_000;

function derivePipeline(w: World, pid: number, id: number): PipelineRec | null {
  const p = w.projects.get(pid);
  if (!p?.seeded || id < (pid - 1) * SEEDED_PIPELINES + 1 || id > pid * SEEDED_PIPELINES) return null;
  const k = id - (pid - 1) * SEEDED_PIPELINES;
  const h = w.h(70, id);
  const jobIds = [];
  for (let j = 1; j <= SEEDED_JOBS; j++) jobIds.push((id - 1) * SEEDED_JOBS + j);
  return {
    id,
    iid: k,
    projectId: pid,
    ref: 'main',
    sha: w.repos.branchCommits(pid, 'main')![SEEDED_PIPELINES - k]!.id,
    createdAt: p.createdAt + DAY + k * 3_600_000 + (h % 1000),
    userId: p.creatorId,
    fixedStatus: k === 2 && h % 3 === 0 ? 'failed' : 'success',
    willFail: false,
    variables: [],
    jobIds,
  };
}

/** A trigger job: it starts `downstreamId` once the jobs before it ended, and ends as that pipeline ends. */
export interface BridgeRec {
  id: number;
  pipelineId: number;
  projectId: number;
  name: string;
  stage: string;
  /** null: the downstream project could not be found, so the bridge fails when it starts */
  downstreamId: number | null;
  startsAt: number;
}

/** How long each job of a pipeline waits in `pending` and runs, where a variable set them. */
export interface JobTiming {
  queuedMs: number;
  runningMs: number;
}

/** A job a scenario describes: how long it waits and runs, and the log it writes (null: the generated one). */
export interface JobScript {
  queuedMs: number;
  runningMs: number;
  log: string | null;
}

export interface PipelineStore {
  pipelines: ChildCollection<number, PipelineRec>;
  /** created pipeline id → project id */
  projectOf: Map<number, number>;
  /** jobs of created pipelines */
  jobs: Map<number, JobRec>;
  /** runs of retried jobs */
  runs: Map<number, JobRun>;
  /** job id → when it was canceled */
  canceledAt: Map<number, number>;
  /** job id → the job that retried it */
  retriedBy: Map<number, number>;
  /** pipeline id → its bridges */
  bridges: Map<number, BridgeRec[]>;
  /** pipeline id → how it started, for pipelines not created by `POST /pipeline` */
  sources: Map<number, string>;
  /** pipeline id → the name `PUT …/metadata` gave it */
  names: Map<number, string>;
  /** pipeline id → its jobs' timing, when not the default steps */
  timing: Map<number, JobTiming>;
  /** job id → its timing and log, for the jobs of a scenario's pipelines (and their retries) */
  scripts: Map<number, JobScript>;
  nextPipelineId: number;
  nextJobId: number;
}

export const pipelineStore = storeFor<PipelineStore>((w) => ({
  pipelines: new ChildCollection<number, PipelineRec>({
    seededKeys(pid) {
      if (!w.projects.get(pid)?.seeded) return [];
      return Array.from({ length: SEEDED_PIPELINES }, (_, k) => (pid - 1) * SEEDED_PIPELINES + k + 1);
    },
    derive: (pid, id) => derivePipeline(w, pid, id),
  }),
  projectOf: new Map(),
  jobs: new Map(),
  runs: new Map(),
  canceledAt: new Map(),
  retriedBy: new Map(),
  bridges: new Map(),
  sources: new Map(),
  names: new Map(),
  timing: new Map(),
  scripts: new Map(),
  nextPipelineId: w.seededProjects * SEEDED_PIPELINES + 1,
  nextJobId: w.seededProjects * SEEDED_PIPELINES * SEEDED_JOBS + 1,
}));

/** Seeded bridges take ids of their own, far above every job id, so that created job ids stay as they were. */
const SEEDED_BRIDGE_IDS = 900_000_000;

/**
 * The newest seeded pipeline of seeded project p with p % 4 = 1 has a bridge that started the
 * newest seeded pipeline of project p + 1 (a multi-project downstream pipeline): 3 starts 6, 15 starts 18, ...
 */
function seededBridges(w: World, pl: PipelineRec): BridgeRec[] {
  const pid = pl.projectId;
  if (pl.fixedStatus === null || pl.iid !== SEEDED_PIPELINES || pid % 4 !== 1 || pid + 1 > w.seededProjects) return [];
  const downstreamId = pid * SEEDED_PIPELINES + SEEDED_PIPELINES;
  const name = `trigger:${w.projects.get(pid + 1)?.fullPath ?? pid + 1}`;
  return [
    {
      id: SEEDED_BRIDGE_IDS + pl.id,
      pipelineId: pl.id,
      projectId: pid,
      name,
      stage: 'downstream',
      downstreamId,
      startsAt: pl.createdAt + 320_000,
    },
  ];
}

export function pipelineBridges(w: World, pl: PipelineRec): BridgeRec[] {
  return pipelineStore(w).bridges.get(pl.id) ?? seededBridges(w, pl);
}

/** How the pipeline started: seeded ones by a push (or a seeded bridge), created ones by the API unless a trigger or bridge made them. */
export function pipelineSource(w: World, pl: PipelineRec): string {
  const own = pipelineStore(w).sources.get(pl.id);
  if (own) return own;
  if (!pl.fixedStatus) return 'api';
  const upstream = pl.projectId > 1 ? pipelineById(w, (pl.projectId - 2) * SEEDED_PIPELINES + SEEDED_PIPELINES) : null;
  return upstream && seededBridges(w, upstream).some((b) => b.downstreamId === pl.id) ? 'pipeline' : 'push';
}

export function pipelineById(w: World, id: number): PipelineRec | null {
  const store = pipelineStore(w);
  const pid = store.projectOf.get(id) ?? Math.ceil(id / SEEDED_PIPELINES);
  return Number.isInteger(id) && id > 0 ? store.pipelines.get(pid, id) : null;
}
