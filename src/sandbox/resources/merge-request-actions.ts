// What is done to a merge request beyond editing it: merge (each refusal in
// the service's order), approvals, notes, and its changes (reference endpoints §1 notes, §2).
import { can } from '../access.js';
import { offer, type RenderedNote } from '../engine/ports.js';
import type { Ctx } from '../server/context.js';
import { ApiError, E } from '../server/errors.js';
import { pageOf } from '../server/paging.js';
import { boolParam, enumParam, intSeg, SORTS, strParam } from '../server/params.js';
import { sendJson, sendList, sendText } from '../server/respond.js';
import type { ProjectRec } from '../store/records.js';
import { NOTE_BODIES } from '../store/seed.js';
import type { World } from '../store/world.js';
import { iso } from '../util/time.js';
import { requireAbility } from './guards.js';
import { enableAutoMerge, nextMergeRequestNoteId } from './merge-request-auto-merge.js';
import { mergeRequestChanges } from './merge-request-changes.js';
import { approvalStateJson } from './merge-request-extras.js';
import {
  canMerge,
  detailedMergeStatus,
  findMergeRequest,
  type MergeRequestRec,
  mergeNow,
  rechecked,
  saveMergeRequest,
  sourceHead,
} from './merge-request-store.js';
import { rebaseInProgress, rebasing, uncheck } from './merge-request-checks.js';
import { mergeRequestJson } from './merge-request-json.js';
import type { Mounts } from './mounts.js';
import type { Noteable, NoteRec } from './notes.js';
import { ask } from '../engine/ports.js';
import { userBasic } from '../entities/user.js';

const REBASE_LOCKED = 'Failed to enqueue the rebase operation, possibly due to a long-lived transaction. Try again later.';
const NOTE_ID_BASE = 5_000_000;
const NOTE_SLOTS = 16;

function shaMismatch(ctx: Ctx, mr: MergeRequestRec): void {
  const sha = strParam(ctx, 'sha');
  const head = sourceHead(ctx.world, mr);
  if (sha !== undefined && sha !== head) throw new ApiError(409, { message: `SHA does not match HEAD of source branch: ${head}` });
}

function approvalsJson(ctx: Ctx, p: ProjectRec, mr: MergeRequestRec): Record<string, unknown> {
  const w = ctx.world;
  const me = ctx.user?.id ?? 0;
  const count = mr.approvals.length;
  return {
    user_has_approved: mr.approvals.some((a) => a.userId === me),
    user_can_approve: ctx.user !== null && can(w, ctx.user, p, 'approve_merge_request') && mr.state === 'opened',
    approved: mr.approvalsRequired > 0 ? count >= mr.approvalsRequired : count > 0,
    approved_by: mr.approvals.map((a) => ({ user: userBasic(w, w.users.get(a.userId)!), approved_at: iso(a.at) })),
    approvals_required: mr.approvalsRequired,
    approvals_left: Math.max(0, mr.approvalsRequired - count),
  };
}

/** Seeded notes (minus deleted ones), then created ones, oldest first. */
function notesOf(w: World, mr: MergeRequestRec): NoteRec[] {
  const out: NoteRec[] = [];
  for (let n = 1; n <= mr.seededNotes; n++) {
    if (mr.deletedNotes.includes(n)) continue;
    const h = w.h(83, mr.projectId, mr.iid, n);
    out.push({
      id: NOTE_ID_BASE + ((mr.projectId - 1) * 8 + mr.iid) * NOTE_SLOTS + n,
      body: NOTE_BODIES[(h >>> 8) % NOTE_BODIES.length]!,
      authorId: 1 + (h % w.seededUserCount),
      createdAt: mr.createdAt + n * 600_000,
    });
  }
  return [...out, ...mr.createdNotes].map((n) => {
    const edit = mr.editedNotes.find((e) => e.id === n.id);
    return edit ? { ...n, body: edit.body, updatedAt: edit.updatedAt } : n;
  });
}

const mergeRequestNoteable = (mr: MergeRequestRec): Noteable => ({ id: mr.id, iid: mr.iid, projectId: mr.projectId, type: 'MergeRequest' });

/** A note on the route's merge request (the notes route and discussions add theirs this way). */
function addMergeRequestNote(ctx: Ctx, p: ProjectRec, body: string): RenderedNote {
  requireAbility(ctx, p, 'read_merge_request');
  const mr = findMergeRequest(ctx, p, () => E.notFound('MergeRequest'));
  const note = { id: nextMergeRequestNoteId(ctx.world), body, authorId: ctx.user!.id, createdAt: Date.now() };
  saveMergeRequest(ctx.world, { ...mr, createdNotes: [...mr.createdNotes, note] });
  return { id: note.id, json: ask('noteJson')(ctx.world, mergeRequestNoteable(mr), note) };
}

export function mountMergeRequestActions({ project }: Mounts): void {
  offer('mergeRequestNotes', {
    list(ctx, p) {
      requireAbility(ctx, p, 'read_merge_request');
      const mr = findMergeRequest(ctx, p, () => E.notFound('MergeRequest'));
      return notesOf(ctx.world, mr).map((n) => ({ id: n.id, json: ask('noteJson')(ctx.world, mergeRequestNoteable(mr), n) }));
    },
    add: addMergeRequestNote,
  });
  project.put('/merge_requests/:merge_request_iid/merge', { auth: 'user' }, (ctx, p) => {
    const mr = rechecked(ctx.world, findMergeRequest(ctx, p), true);
    if (!canMerge(ctx, p, mr)) throw E.unauthorized();
    shaMismatch(ctx, mr);
    const squash = boolParam(ctx, 'squash') ?? mr.squash;
    const removeSource = boolParam(ctx, 'should_remove_source_branch');
    const auto = boolParam(ctx, 'auto_merge') ?? boolParam(ctx, 'merge_when_pipeline_succeeds') ?? false;
    const status = detailedMergeStatus(ctx.world, mr);
    const ready = { ...mr, squash, removeSourceBranch: removeSource ?? mr.removeSourceBranch };
    if (auto && status === 'ci_still_running') {
      const waiting = enableAutoMerge(ctx.world, ready, ctx.user!.id);
      saveMergeRequest(ctx.world, waiting);
      return sendJson(ctx, 200, mergeRequestJson(ctx, p, waiting, true));
    }
    if (status !== 'mergeable') throw new ApiError(405, { message: '405 Method Not Allowed' });
    sendJson(ctx, 200, mergeRequestJson(ctx, p, mergeNow(ctx.world, ready, ctx.user!.id, squash), true));
  });

  // The 403 and 409 bodies are the service's forbidden!/conflict! texts for these cases.
  project.put('/merge_requests/:merge_request_iid/rebase', { auth: 'user' }, (ctx, p) => {
    const mr = findMergeRequest(ctx, p);
    if (!can(ctx.world, ctx.user, p, 'push_code')) throw new ApiError(403, { message: '403 Forbidden - Cannot push to source branch' });
    if (rebaseInProgress(mr)) throw new ApiError(409, { message: REBASE_LOCKED });
    boolParam(ctx, 'skip_ci');
    saveMergeRequest(ctx.world, rebasing(mr));
    sendJson(ctx, 202, { rebase_in_progress: true });
  });

  project.get('/merge_requests/:merge_request_iid/approvals', { auth: 'public' }, (ctx, p) => {
    requireAbility(ctx, p, 'read_merge_request');
    sendJson(ctx, 200, approvalsJson(ctx, p, findMergeRequest(ctx, p)));
  });
  // An EE route: on the free tier the router answers 404 as the service's does.
  project.get('/merge_requests/:merge_request_iid/approval_state', { auth: 'public', premium: true }, (ctx, p) => {
    requireAbility(ctx, p, 'read_merge_request');
    sendJson(ctx, 200, approvalStateJson(ctx.world, findMergeRequest(ctx, p)));
  });
  project.post('/merge_requests/:merge_request_iid/approve', { auth: 'user' }, (ctx, p) => {
    const mr = findMergeRequest(ctx, p);
    if (!can(ctx.world, ctx.user, p, 'approve_merge_request') || mr.state !== 'opened') throw E.forbidden();
    shaMismatch(ctx, mr);
    if (mr.approvals.some((a) => a.userId === ctx.user!.id)) return sendJson(ctx, 304, null);
    const approved = uncheck({ ...mr, approvals: [...mr.approvals, { userId: ctx.user!.id, at: Date.now() }] });
    saveMergeRequest(ctx.world, approved);
    sendJson(ctx, 201, approvalsJson(ctx, p, approved));
  });
  project.post('/merge_requests/:merge_request_iid/unapprove', { auth: 'user' }, (ctx, p) => {
    const mr = findMergeRequest(ctx, p);
    if (!can(ctx.world, ctx.user, p, 'approve_merge_request')) throw E.forbidden();
    if (!mr.approvals.some((a) => a.userId === ctx.user!.id)) return sendJson(ctx, 304, null);
    const left = uncheck({ ...mr, approvals: mr.approvals.filter((a) => a.userId !== ctx.user!.id) });
    saveMergeRequest(ctx.world, left);
    sendJson(ctx, 201, approvalsJson(ctx, p, left));
  });

  project.get('/merge_requests/:merge_request_iid/notes', { auth: 'public', job: true }, (ctx, p) => {
    requireAbility(ctx, p, 'read_merge_request');
    const mr = findMergeRequest(ctx, p, () => E.notFound('MergeRequest'));
    const sort = enumParam(ctx, 'sort', SORTS, 'desc');
    enumParam(ctx, 'order_by', ['created_at', 'updated_at'] as const);
    const notes = notesOf(ctx.world, mr);
    if (sort === 'desc') notes.reverse();
    sendList(
      ctx,
      pageOf(ctx, notes).map((n) => ask('noteJson')(ctx.world, mergeRequestNoteable(mr), n)),
    );
  });
  project.post('/merge_requests/:merge_request_iid/notes', { auth: 'user' }, (ctx, p) => {
    sendJson(ctx, 201, addMergeRequestNote(ctx, p, ask('noteBody')(ctx)).json);
  });
  project.get('/merge_requests/:merge_request_iid/notes/:note_id', { auth: 'public', job: true }, (ctx, p) => {
    requireAbility(ctx, p, 'read_merge_request');
    const mr = findMergeRequest(ctx, p, () => E.notFound('MergeRequest'));
    const id = intSeg(ctx, 'note_id');
    const note = notesOf(ctx.world, mr).find((n) => n.id === id);
    if (!note) throw E.findNotFound();
    sendJson(ctx, 200, ask('noteJson')(ctx.world, mergeRequestNoteable(mr), note));
  });
  project.put('/merge_requests/:merge_request_iid/notes/:note_id', { auth: 'user' }, (ctx, p) => {
    requireAbility(ctx, p, 'read_merge_request');
    const mr = findMergeRequest(ctx, p, () => E.notFound('MergeRequest'));
    const id = intSeg(ctx, 'note_id');
    const note = notesOf(ctx.world, mr).find((n) => n.id === id);
    if (!note) throw E.findNotFound();
    const body = ask('noteBody')(ctx);
    if (note.authorId !== ctx.user!.id) requireAbility(ctx, p, 'admin_project');
    const edit = { id, body, updatedAt: Date.now() };
    saveMergeRequest(ctx.world, { ...mr, editedNotes: [...mr.editedNotes.filter((e) => e.id !== id), edit] });
    sendJson(ctx, 200, ask('noteJson')(ctx.world, mergeRequestNoteable(mr), { ...note, body, updatedAt: edit.updatedAt }));
  });
  project.delete('/merge_requests/:merge_request_iid/notes/:note_id', { auth: 'user' }, (ctx, p) => {
    const mr = findMergeRequest(ctx, p, () => E.notFound('MergeRequest'));
    const id = intSeg(ctx, 'note_id');
    const note = notesOf(ctx.world, mr).find((n) => n.id === id);
    if (!note) throw E.findNotFound();
    if (note.authorId !== ctx.user!.id) requireAbility(ctx, p, 'admin_project');
    const seeded = id - NOTE_ID_BASE - ((mr.projectId - 1) * 8 + mr.iid) * NOTE_SLOTS;
    const rest = mr.createdNotes.filter((n) => n.id !== id);
    const deleted = rest.length === mr.createdNotes.length ? [...mr.deletedNotes, seeded] : mr.deletedNotes;
    saveMergeRequest(ctx.world, { ...mr, createdNotes: rest, deletedNotes: deleted });
    sendJson(ctx, 204, null);
  });

  project.get('/merge_requests/:merge_request_iid/changes', { auth: 'public' }, (ctx, p) => {
    requireAbility(ctx, p, 'read_code');
    const mr = findMergeRequest(ctx, p);
    sendJson(ctx, 200, { ...mergeRequestJson(ctx, p, mr, true), changes: mergeRequestChanges(ctx.world, mr), overflow: false });
  });
  project.get('/merge_requests/:merge_request_iid/diffs', { auth: 'public' }, (ctx, p) => {
    requireAbility(ctx, p, 'read_code');
    sendList(ctx, pageOf(ctx, mergeRequestChanges(ctx.world, findMergeRequest(ctx, p))));
  });
  project.get('/merge_requests/:merge_request_iid/raw_diffs', { auth: 'public' }, (ctx, p) => {
    requireAbility(ctx, p, 'read_code');
    const text = mergeRequestChanges(ctx.world, findMergeRequest(ctx, p))
      .map((c) => {
        const from = c.new_file ? '/dev/null' : `a/${c.old_path}`;
        const to = c.deleted_file ? '/dev/null' : `b/${c.new_path}`;
        const mode = c.new_file ? `new file mode ${c.b_mode}\n` : c.deleted_file ? `deleted file mode ${c.a_mode}\n` : '';
        const body = c.diff === '' ? `Binary files ${from} and ${to} differ\n` : `--- ${from}\n+++ ${to}\n${c.diff}`;
        return `diff --git a/${c.old_path} b/${c.new_path}\n${mode}${body}`;
      })
      .join('');
    sendText(ctx, 200, text, 'text/plain; charset=utf-8');
  });
}
