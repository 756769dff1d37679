// Auto-merge ("merge when the pipeline succeeds"), as AutoMerge::MergeWhenPipelineSucceedsService
// and AutoMerge::BaseService do it: `PUT …/merge` with `auto_merge` (or the older
// `merge_when_pipeline_succeeds`) while the head pipeline runs sets it for the caller (the merge
// user) with a system note; the merge happens once the head pipeline has succeeded (settled on the
// next read, merge-request-store.ts). A failed pipeline leaves it set, as the service does: a retried
// job that succeeds still merges. Closing aborts it, `POST …/cancel_merge_when_pipeline_succeeds`
// cancels it, each with the service's system note (SystemNotes::MergeRequestsService).
import { can } from '../access.js';
import type { Ctx } from '../server/context.js';
import { E } from '../server/errors.js';
import { sendJson } from '../server/respond.js';
import { storeFor } from '../store/collection.js';
import type { ProjectRec } from '../store/records.js';
import type { World } from '../store/world.js';
import { canMerge, findMergeRequest, headPipeline, type MergeRequestRec, saveMergeRequest } from './merge-request-store.js';
import type { Mounts } from './mounts.js';

const noteIds = storeFor(() => ({ next: 50_000_000 }));

/** The id of the next note created on a merge request, by a user or by the system. */
export function nextMergeRequestNoteId(w: World): number {
  return noteIds(w).next++;
}

function withSystemNote(w: World, mr: MergeRequestRec, authorId: number, body: string): MergeRequestRec {
  const note = { id: nextMergeRequestNoteId(w), body, authorId, createdAt: Date.now(), system: true };
  return { ...mr, createdNotes: [...mr.createdNotes, note] };
}

/** Sets auto-merge for the caller; a second call keeps the first merge user and adds no note. */
export function enableAutoMerge(w: World, mr: MergeRequestRec, userId: number): MergeRequestRec {
  if (mr.autoMerge) return mr;
  const sha = headPipeline(w, mr)!.sha;
  const enabled = { ...mr, autoMerge: true, mergeUserId: userId, updatedAt: Date.now() };
  return withSystemNote(w, enabled, userId, `enabled an automatic merge when the pipeline for ${sha} succeeds`);
}

/** What closing does to an auto-merge: aborted, with the reason in the note. */
export function abortAutoMerge(w: World, mr: MergeRequestRec, userId: number, reason: string): MergeRequestRec {
  if (!mr.autoMerge) return mr;
  return withSystemNote(w, { ...mr, autoMerge: false, mergeUserId: null }, userId, `aborted the automatic merge because ${reason}`);
}

/** `can_cancel_auto_merge?`: who may merge it, or its author. */
function mayCancel(ctx: Ctx, p: ProjectRec, mr: MergeRequestRec): boolean {
  return ctx.user !== null && (mr.authorId === ctx.user.id || (can(ctx.world, ctx.user, p, 'read_merge_request') && canMerge(ctx, p, mr)));
}

export function mountAutoMerge({ project }: Mounts): void {
  // The route presents what AutoMergeService#cancel returns, a result hash, with POST's 201 either way.
  project.post('/merge_requests/:merge_request_iid/cancel_merge_when_pipeline_succeeds', { auth: 'user' }, (ctx, p) => {
    const mr = findMergeRequest(ctx, p);
    if (!mayCancel(ctx, p, mr)) throw E.unauthorized();
    if (!mr.autoMerge) return sendJson(ctx, 201, { status: 'error', message: "Can't cancel the automatic merge", http_status: 406 });
    const canceled = withSystemNote(
      ctx.world,
      { ...mr, autoMerge: false, mergeUserId: null },
      ctx.user!.id,
      'canceled the automatic merge',
    );
    saveMergeRequest(ctx.world, canceled);
    sendJson(ctx, 201, { status: 'success' });
  });
}
