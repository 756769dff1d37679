// Discussions on issues and merge requests (lib/api/discussions.rb, entities/discussion.rb, note.rb):
// every note is a discussion of its own (`individual_note: true`) until a reply makes it a thread; one
// started here is a thread from its first note. Listing gives them oldest first, paged; a reply goes to
// `…/discussions/:discussion_id/notes`; on a merge request a thread is resolvable and
// `PUT …/discussions/:id?resolved=true|false` resolves or reopens it (developers, or its author). The
// notes themselves are the notes resources' (the `issueNotes` and `mergeRequestNotes` ports); an
// unknown discussion is `404 Discussion Not Found` (README, "Discussions").
import { can } from '../access.js';
import { ask, type NoteThread, type RenderedNote } from '../engine/ports.js';
import type { Ctx } from '../server/context.js';
import { E } from '../server/errors.js';
import { pageOf } from '../server/paging.js';
import { boolParam } from '../server/params.js';
import { sendJson, sendList } from '../server/respond.js';
import { storeFor } from '../store/collection.js';
import type { ProjectRec } from '../store/records.js';
import { sha1 } from '../util/digest.js';
import { iso } from '../util/time.js';
import type { Mounts } from './mounts.js';
import { userBasic } from '../entities/user.js';

interface ThreadRec {
  id: string;
  /** the first note and the replies, by note id */
  noteIds: number[];
  resolvedBy: number | null;
  resolvedAt: number | null;
}

const threads = storeFor(() => ({ byId: new Map<string, ThreadRec>(), byNote: new Map<number, ThreadRec>() }));

interface Discussion {
  id: string;
  thread: ThreadRec | null;
  notes: RenderedNote[];
}

function discussionsOf(ctx: Ctx, p: ProjectRec, notes: NoteThread, type: string): Discussion[] {
  const store = threads(ctx.world);
  const out: Discussion[] = [];
  const seen = new Map<string, Discussion>();
  for (const note of notes.list(ctx, p)) {
    const thread = store.byNote.get(note.id) ?? null;
    const id = thread?.id ?? sha1(`${type}-note:${note.id}`);
    const existing = seen.get(id);
    if (existing) existing.notes.push(note);
    else {
      const d = { id, thread, notes: [note] };
      seen.set(id, d);
      out.push(d);
    }
  }
  return out;
}

function discussionJson(ctx: Ctx, d: Discussion, resolvable: boolean): Record<string, unknown> {
  const t = d.thread;
  const resolver = t?.resolvedBy ? ctx.world.users.get(t.resolvedBy) : null;
  return {
    id: d.id,
    individual_note: t === null,
    notes: d.notes.map((n) => ({
      ...n.json,
      type: t ? 'DiscussionNote' : null,
      resolvable: resolvable && t !== null,
      ...(resolvable && t !== null
        ? {
            resolved: t.resolvedBy !== null,
            resolved_by: resolver ? userBasic(ctx.world, resolver) : null,
            resolved_at: t.resolvedAt ? iso(t.resolvedAt) : null,
          }
        : {}),
    })),
  };
}

function findDiscussion(ctx: Ctx, p: ProjectRec, notes: NoteThread, type: string): Discussion {
  const d = discussionsOf(ctx, p, notes, type).find((x) => x.id === ctx.p.discussion_id);
  if (!d) throw E.notFound('Discussion');
  return d;
}

function mountOn(project: Mounts['project'], base: string, notes: () => NoteThread, type: 'Issue' | 'MergeRequest'): void {
  const resolvable = type === 'MergeRequest';
  project.get(`${base}/discussions`, { auth: 'public' }, (ctx, p) => {
    const list = discussionsOf(ctx, p, notes(), type);
    sendList(
      ctx,
      pageOf(ctx, list).map((d) => discussionJson(ctx, d, resolvable)),
    );
  });
  project.get(`${base}/discussions/:discussion_id`, { auth: 'public' }, (ctx, p) => {
    sendJson(ctx, 200, discussionJson(ctx, findDiscussion(ctx, p, notes(), type), resolvable));
  });
  project.post(`${base}/discussions`, { auth: 'user' }, (ctx, p) => {
    const note = notes().add(ctx, p, ask('noteBody')(ctx));
    const thread: ThreadRec = { id: sha1(`${type}-discussion:${note.id}`), noteIds: [note.id], resolvedBy: null, resolvedAt: null };
    threads(ctx.world).byId.set(thread.id, thread);
    threads(ctx.world).byNote.set(note.id, thread);
    sendJson(ctx, 201, discussionJson(ctx, { id: thread.id, thread, notes: [note] }, resolvable));
  });
  project.post(`${base}/discussions/:discussion_id/notes`, { auth: 'user' }, (ctx, p) => {
    const d = findDiscussion(ctx, p, notes(), type);
    const body = ask('noteBody')(ctx);
    const store = threads(ctx.world);
    let thread = d.thread;
    if (!thread) {
      // Replying to a lone note turns it into a thread that keeps the note's discussion id.
      thread = { id: d.id, noteIds: d.notes.map((n) => n.id), resolvedBy: null, resolvedAt: null };
      store.byId.set(thread.id, thread);
      for (const n of d.notes) store.byNote.set(n.id, thread);
    }
    const note = notes().add(ctx, p, body);
    thread.noteIds.push(note.id);
    store.byNote.set(note.id, thread);
    const json = discussionJson(ctx, { id: thread.id, thread, notes: [note] }, resolvable).notes as unknown[];
    sendJson(ctx, 201, json[0]);
  });
  if (!resolvable) return;
  project.put(`${base}/discussions/:discussion_id`, { auth: 'user' }, (ctx, p) => {
    const d = findDiscussion(ctx, p, notes(), type);
    const resolved = boolParam(ctx, 'resolved');
    if (resolved === undefined) throw E.missing('resolved');
    const author = d.notes[0]!.json.author as { id: number } | undefined;
    if (!can(ctx.world, ctx.user, p, 'update_merge_request') && author?.id !== ctx.user!.id) throw E.forbidden();
    if (!d.thread) throw E.badRequest('400 Bad request - Discussion is not resolvable');
    d.thread.resolvedBy = resolved ? ctx.user!.id : null;
    d.thread.resolvedAt = resolved ? ctx.world.now() : null;
    sendJson(ctx, 200, discussionJson(ctx, d, resolvable));
  });
}

export function mountDiscussions({ project }: Mounts): void {
  mountOn(project, '/issues/:issue_iid', () => ask('issueNotes'), 'Issue');
  mountOn(project, '/merge_requests/:merge_request_iid', () => ask('mergeRequestNotes'), 'MergeRequest');
}
