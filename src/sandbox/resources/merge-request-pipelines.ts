// A merge request's pipelines and reviewers (reference endpoints §2; lib/api/merge_requests.rb,
// entities/merge_request_reviewer.rb): `GET …/pipelines` lists the pipelines of its source branch and
// its merge request pipelines as PipelineBasic, newest first; `POST …/pipelines` runs a merge request
// pipeline (200 with the Pipeline, or 202 and no body with `async`); `GET …/reviewers` answers each
// reviewer with their review state (README, "Merge request pipelines and reviewers").
import { can } from '../access.js';
import { ask } from '../engine/ports.js';
import { userBasic } from '../entities/user.js';
import type { Ctx } from '../server/context.js';
import { ApiError, E } from '../server/errors.js';
import { pageOf } from '../server/paging.js';
import { boolParam } from '../server/params.js';
import { sendJson, sendList, sendText } from '../server/respond.js';
import type { ProjectRec } from '../store/records.js';
import { iso } from '../util/time.js';
import { requireAbility } from './guards.js';
import { findMergeRequest, type MergeRequestRec, sourceHead } from './merge-request-store.js';
import type { Mounts } from './mounts.js';

/** The ref a merge request pipeline runs on, as the service names it. */
const mergeRequestRef = (mr: MergeRequestRec) => `refs/merge-requests/${mr.iid}/head`;

function readable(ctx: Ctx, p: ProjectRec): MergeRequestRec {
  requireAbility(ctx, p, 'read_merge_request');
  return findMergeRequest(ctx, p);
}

export function mountMergeRequestPipelines({ project }: Mounts): void {
  project.get('/merge_requests/:merge_request_iid/pipelines', { auth: 'public' }, (ctx, p) => {
    if (!can(ctx.world, ctx.user, p, 'read_pipeline')) throw E.forbidden();
    const mr = readable(ctx, p);
    const refs = new Set([mr.sourceBranch, mergeRequestRef(mr)]);
    const list = ask('listedPipelines')(ctx.world, p, undefined)
      .filter((pl) => refs.has(pl.ref))
      .sort((a, b) => b.id - a.id);
    sendList(
      ctx,
      pageOf(ctx, list).map((pl) => ask('pipelineJson')(ctx.world, pl, false)),
    );
  });
  project.post('/merge_requests/:merge_request_iid/pipelines', { auth: 'user' }, (ctx, p) => {
    const mr = readable(ctx, p);
    if (!can(ctx.world, ctx.user, p, 'create_pipeline')) throw E.forbidden();
    // The service's answer when no pipeline comes of it (a merged or closed merge request has no source head to run).
    if (mr.state !== 'opened') throw new ApiError(405, { message: '405 Method Not Allowed' });
    const pipeline = ask('startPipeline')(ctx.world, p, {
      ref: mergeRequestRef(mr),
      sha: sourceHead(ctx.world, mr),
      userId: ctx.user!.id,
      variables: [],
      source: 'merge_request_event',
    });
    if (boolParam(ctx, 'async') === true) return sendText(ctx, 202, '', 'application/json');
    sendJson(ctx, 200, pipeline);
  });
  project.get('/merge_requests/:merge_request_iid/reviewers', { auth: 'public' }, (ctx, p) => {
    const mr = readable(ctx, p);
    const approved = new Set(mr.approvals.map((a) => a.userId));
    sendList(
      ctx,
      pageOf(ctx, mr.reviewerIds).map((id) => ({
        user: userBasic(ctx.world, ctx.world.users.get(id)!),
        state: approved.has(id) ? 'approved' : 'unreviewed',
        created_at: iso(mr.createdAt),
      })),
    );
  });
}
