// A scenario's pipelines, kept in the pipelines' store like created ones so they move on the
// sandbox clock: stages run one after another, each job waits `queued` and runs `duration`, then
// ends with its status and log; the jobs of the stages after a failed one are skipped. A trigger
// job starts its downstream pipeline when its stage starts and ends as that pipeline ends.
import { JOB_STEP_MS } from '../resources/job-states.js';
import { type BridgeRec, pipelineStore } from '../resources/pipeline-store.js';
import type { PipelineRec, ProjectRec } from '../store/records.js';
import type { World } from '../store/world.js';
import type { ScenarioPipeline } from './schema.js';

export interface ScenarioPipelineInput {
  project: ProjectRec;
  def: ScenarioPipeline;
  createdAt: number;
  /** how it started: a push, unless a trigger job started it */
  source?: 'pipeline' | 'parent_pipeline';
  /** a trigger's downstream project by full path */
  projectByPath: (path: string) => ProjectRec;
  userId: (username: string | undefined) => number;
}

/** Creates the pipeline (and its downstream ones); answers when it ends and whether it fails. */
export function addScenarioPipeline(w: World, input: ScenarioPipelineInput): { endsAt: number; failed: boolean } {
  const { project: p, def, createdAt } = input;
  const store = pipelineStore(w);
  const id = store.nextPipelineId++;
  const ref = def.ref ?? 'main';
  const jobIds: number[] = [];
  const bridges: BridgeRec[] = [];
  const rec: PipelineRec = {
    id,
    iid: store.pipelines.count(p.id) + 1,
    projectId: p.id,
    ref,
    sha: w.repos.resolveRef(p.id, ref)!,
    createdAt,
    userId: input.userId(def.user),
    fixedStatus: null,
    willFail: false,
    variables: (def.variables ?? []).map((v) => ({ key: v.key, value: v.value, variable_type: 'env_var' })),
    jobIds,
  };
  // Inserted before its downstream pipelines, so that its iid comes first, as in the service.
  store.pipelines.insert(p.id, id, rec);
  store.projectOf.set(id, p.id);
  store.bridges.set(id, bridges);
  store.sources.set(id, input.source ?? 'push');
  const stages = [...new Set(def.jobs.map((job) => job.stage))];
  let at = createdAt;
  let failed = false;
  for (const stage of stages) {
    let stageEnd = at;
    let stageFailed = false;
    for (const job of def.jobs.filter((j) => j.stage === stage)) {
      const jid = store.nextJobId++;
      if (job.trigger) {
        const downstream = job.trigger.project === undefined ? p : input.projectByPath(job.trigger.project);
        const downstreamId = store.nextPipelineId;
        const outcome = addScenarioPipeline(w, {
          ...input,
          project: downstream,
          def: job.trigger,
          createdAt: at,
          source: job.trigger.project === undefined ? 'parent_pipeline' : 'pipeline',
        });
        bridges.push({ id: jid, pipelineId: id, projectId: p.id, name: job.name, stage, downstreamId, startsAt: at });
        stageEnd = Math.max(stageEnd, outcome.endsAt);
        stageFailed ||= outcome.failed;
        continue;
      }
      const queuedMs = (job.queued ?? 0) * 1000;
      const runningMs = Math.max(1, (job.duration ?? 1) * 1000);
      store.jobs.set(jid, { id: jid, pipelineId: id, projectId: p.id, name: job.name, stage, hasArtifacts: false });
      store.scripts.set(jid, { queuedMs, runningMs, log: job.log ?? null });
      store.runs.set(jid, { start: at, outcome: failed ? 'skipped' : (job.status ?? 'success') });
      jobIds.push(jid);
      if (!failed) {
        stageEnd = Math.max(stageEnd, at + JOB_STEP_MS + queuedMs + runningMs);
        stageFailed ||= job.status === 'failed';
      }
    }
    at = stageEnd;
    failed ||= stageFailed;
  }
  return { endsAt: at, failed };
}
