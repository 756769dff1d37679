// A merge request's merge ref and the reset of its approvals (lib/api/merge_requests.rb `merge_ref`,
// `reset_approvals`; MergeRequests::MergeabilityCheckService): `merge_ref` answers `{"commit_id": …}`,
// the commit the merge would make, while the merge request is open and free of conflicts, else
// `400 Merge request is not mergeable`; `reset_approvals` clears every approval and answers 202, for
// a project or group access token's bot user that may update the merge request, else `401
// Unauthorized` (README, "Merge ref and approval reset").
import { can } from '../access.js';
import { ApiError, E } from '../server/errors.js';
import { sendJson, sendText } from '../server/respond.js';
import { sha1 } from '../util/digest.js';
import { findMergeRequest, saveMergeRequest, sourceHead } from './merge-request-store.js';
import type { Mounts } from './mounts.js';

export function mountMergeRequestRefs({ project }: Mounts): void {
  project.get('/merge_requests/:merge_request_iid/merge_ref', { auth: 'public' }, (ctx, p) => {
    if (!can(ctx.world, ctx.user, p, 'read_merge_request')) throw E.notFound('Project');
    const mr = findMergeRequest(ctx, p);
    const target = ctx.world.repos.resolveRef(p.id, mr.targetBranch);
    if (mr.state !== 'opened' || mr.conflicts || !target) throw new ApiError(400, { message: 'Merge request is not mergeable' });
    sendJson(ctx, 200, { commit_id: sha1(`merge-ref:${p.id}:${mr.iid}:${sourceHead(ctx.world, mr)}:${target}`) });
  });
  project.put('/merge_requests/:merge_request_iid/reset_approvals', { auth: 'user' }, (ctx, p) => {
    const mr = findMergeRequest(ctx, p);
    if (!ctx.user!.bot || !can(ctx.world, ctx.user, p, 'update_merge_request')) throw E.unauthorized();
    saveMergeRequest(ctx.world, { ...mr, approvals: [] });
    sendText(ctx, 202, '', 'application/json');
  });
}
