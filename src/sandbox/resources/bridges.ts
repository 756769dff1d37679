// Bridges (trigger jobs) of a pipeline: `GET …/pipelines/:pipeline_id/bridges` with `scope[]`,
// each one JobBasic plus `downstream_pipeline` (reference endpoints §3 Bridge, §4).
import type { Ctx } from '../server/context.js';
import { E } from '../server/errors.js';
import { pageOf } from '../server/paging.js';
import { listParam } from '../server/params.js';
import { sendList } from '../server/respond.js';
import type { World } from '../store/world.js';
import { iso } from '../util/time.js';
import { commitJson } from '../entities/commit.js';
import { requireAbility } from './guards.js';
import { bridgeState } from './job-states.js';
import type { Mounts } from './mounts.js';
import { type BridgeRec, pipelineBridges, pipelineById } from './pipeline-store.js';
import { STATUSES } from './job-states.js';
import { ask } from '../engine/ports.js';
import { userBasic } from '../entities/user.js';

function bridgeJson(w: World, bridge: BridgeRec): Record<string, unknown> {
  const pl = pipelineById(w, bridge.pipelineId)!;
  const p = w.projects.get(bridge.projectId)!;
  const st = bridgeState(w, bridge);
  const commit = w.repos.findCommit(p.id, pl.sha);
  const downstream = bridge.downstreamId === null || st.startedAt === null ? null : pipelineById(w, bridge.downstreamId);
  return {
    id: bridge.id,
    status: st.status,
    stage: bridge.stage,
    name: bridge.name,
    ref: pl.ref,
    tag: false,
    coverage: null,
    allow_failure: false,
    created_at: iso(pl.createdAt),
    started_at: st.startedAt === null ? null : iso(st.startedAt),
    finished_at: st.finishedAt === null ? null : iso(st.finishedAt),
    erased_at: null,
    duration: st.startedAt !== null && st.finishedAt !== null ? (st.finishedAt - st.startedAt) / 1000 : null,
    queued_duration: st.startedAt === null ? null : (st.startedAt - pl.createdAt) / 1000,
    user: userBasic(w, w.users.get(pl.userId) ?? w.users.get(1)!),
    commit: commit ? commitJson(w, p, commit) : null,
    pipeline: ask('pipelineJson')(w, pl, false),
    failure_reason: st.status === 'failed' ? (downstream ? 'unknown_failure' : 'downstream_bridge_project_not_found') : undefined,
    web_url: `${w.base()}/${p.fullPath}/-/jobs/${bridge.id}`,
    project: { ci_job_token_scope_enabled: false },
    downstream_pipeline: downstream ? ask('pipelineJson')(w, downstream, false) : null,
  };
}

function scopeFilter(ctx: Ctx, w: World): (bridge: BridgeRec) => boolean {
  const scopes = listParam(ctx, 'scope');
  if (!scopes) return () => true;
  if (scopes.some((s) => !(STATUSES as readonly string[]).includes(s))) throw E.notValid('scope');
  return (bridge) => scopes.includes(bridgeState(w, bridge).status);
}

export function mountBridges({ project }: Mounts): void {
  // `trigger_jobs` is the name 19.2 gives the same list (reference endpoints §3), `bridges` kept as deprecated.
  for (const path of ['/pipelines/:pipeline_id/bridges', '/pipelines/:pipeline_id/trigger_jobs']) {
    project.get(path, { auth: 'public' }, (ctx, p) => {
      requireAbility(ctx, p, 'read_build');
      const keep = scopeFilter(ctx, ctx.world);
      const bridges = pipelineBridges(ctx.world, ask('findPipeline')(ctx, p)).filter(keep);
      sendList(
        ctx,
        pageOf(ctx, bridges).map((bridge) => bridgeJson(ctx.world, bridge)),
      );
    });
  }
}
