// What a pipeline's owners do to it (reference endpoints §3): the latest pipeline of a ref,
// cancel (200, a finished pipeline unchanged), retry (201, new jobs for the failed and
// canceled ones), delete (204, owner), its name (`metadata`) and its (empty) test reports. The default branch of every
// sandbox project is main.
import { E } from '../server/errors.js';
import { strParam } from '../server/params.js';
import { sendJson } from '../server/respond.js';
import { cancelPipeline, jobState, pipelineJobs, retryJob } from './job-states.js';
import { requireAbility } from './guards.js';
import type { Mounts } from './mounts.js';
import { pipelineStore } from './pipeline-store.js';
import { ask } from '../engine/ports.js';

export function mountPipelineActions({ project }: Mounts): void {
  project.get('/pipelines/latest', { auth: 'public' }, (ctx, p) => {
    requireAbility(ctx, p, 'read_pipeline');
    const ref = strParam(ctx, 'ref') || 'main';
    const latest = ask('listedPipelines')(ctx.world, p, undefined)
      .filter((pl) => pl.ref === ref)
      .reduce<number | null>((best, pl) => (best === null || pl.id > best ? pl.id : best), null);
    if (latest === null) throw E.forbidden();
    sendJson(ctx, 200, ask('pipelineJson')(ctx.world, pipelineStore(ctx.world).pipelines.get(p.id, latest)!, true));
  });
  project.post('/pipelines/:pipeline_id/cancel', { auth: 'user' }, (ctx, p) => {
    requireAbility(ctx, p, 'update_pipeline');
    const pl = ask('findPipeline')(ctx, p);
    cancelPipeline(ctx.world, pl);
    sendJson(ctx, 200, ask('pipelineJson')(ctx.world, pl, true));
  });
  project.post('/pipelines/:pipeline_id/retry', { auth: 'user' }, (ctx, p) => {
    requireAbility(ctx, p, 'update_pipeline');
    const pl = ask('findPipeline')(ctx, p);
    for (const job of pipelineJobs(ctx.world, pl, false)) {
      const status = jobState(ctx.world, job).status;
      if (status === 'failed' || status === 'canceled') retryJob(ctx.world, job);
    }
    sendJson(ctx, 201, ask('pipelineJson')(ctx.world, pl, true));
  });
  // The sandbox's jobs upload no JUnit reports: both reports are empty (the service's shapes, all counts 0).
  project.get('/pipelines/:pipeline_id/test_report', { auth: 'public' }, (ctx, p) => {
    requireAbility(ctx, p, 'read_build');
    ask('findPipeline')(ctx, p);
    const counts = { total_time: 0, total_count: 0, success_count: 0, failed_count: 0, skipped_count: 0, error_count: 0 };
    sendJson(ctx, 200, { ...counts, test_suites: [] });
  });
  project.get('/pipelines/:pipeline_id/test_report_summary', { auth: 'public' }, (ctx, p) => {
    requireAbility(ctx, p, 'read_build');
    ask('findPipeline')(ctx, p);
    const total = { time: 0, count: 0, success: 0, failed: 0, skipped: 0, error: 0, suite_error: null };
    sendJson(ctx, 200, { total, test_suites: [] });
  });
  // `PUT …/metadata` (reference endpoints §3): `name` required; the developer role or the job token.
  project.put('/pipelines/:pipeline_id/metadata', { auth: 'user', job: true }, (ctx, p) => {
    requireAbility(ctx, p, 'update_pipeline');
    const pl = ask('findPipeline')(ctx, p);
    const name = strParam(ctx, 'name');
    if (name === undefined) throw E.missing('name');
    pipelineStore(ctx.world).names.set(pl.id, name);
    sendJson(ctx, 200, ask('pipelineJson')(ctx.world, pl, true));
  });
  project.delete('/pipelines/:pipeline_id', { auth: 'user' }, (ctx, p) => {
    requireAbility(ctx, p, 'destroy_pipeline');
    const pl = ask('findPipeline')(ctx, p);
    pipelineStore(ctx.world).pipelines.remove(p.id, pl.id);
    sendJson(ctx, 204, null);
  });
}
