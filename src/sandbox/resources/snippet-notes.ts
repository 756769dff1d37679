// A project snippet's notes (lib/api/notes.rb with `noteable_type` snippets, the same code as issue
// notes; reference endpoints §1, Notes): list (`order_by` `created_at|updated_at`, `sort` default
// `desc`), one, create (201), edit (200) and delete (204); `noteable_type` `Snippet`, no `noteable_iid`.
// Whoever reads the snippet comments; its author or a maintainer edits and deletes (README, "Project snippets").
import { can } from '../access.js';
import { ask } from '../engine/ports.js';
import type { Ctx } from '../server/context.js';
import { E } from '../server/errors.js';
import { pageOf } from '../server/paging.js';
import { enumParam, intSeg, SORTS } from '../server/params.js';
import { sendJson, sendList } from '../server/respond.js';
import { storeFor } from '../store/collection.js';
import type { ProjectRec } from '../store/records.js';
import type { Mounts } from './mounts.js';
import type { Noteable, NoteRec } from './notes.js';
import { findSnippet, type ProjectSnippetRec } from './project-snippets.js';

/** Snippet note ids come from their own range, apart from issue and commit notes. */
const FIRST_ID = 7_000_001;

const notes = storeFor(() => ({ bySnippet: new Map<number, NoteRec[]>(), nextId: FIRST_ID }));

const noteable = (s: ProjectSnippetRec): Noteable => ({ id: s.id, iid: null, projectId: s.projectId, type: 'Snippet' });

function notesOf(ctx: Ctx, s: ProjectSnippetRec): NoteRec[] {
  const store = notes(ctx.world);
  let list = store.bySnippet.get(s.id);
  if (!list) store.bySnippet.set(s.id, (list = []));
  return list;
}

function noteOf(ctx: Ctx, s: ProjectSnippetRec): NoteRec {
  const id = intSeg(ctx, 'note_id');
  const note = notesOf(ctx, s).find((n) => n.id === id);
  if (!note) throw E.findNotFound();
  return note;
}

function mayEdit(ctx: Ctx, p: ProjectRec, note: NoteRec): void {
  if (note.authorId !== ctx.user!.id && !can(ctx.world, ctx.user, p, 'admin_snippet')) throw E.forbidden();
}

export function mountSnippetNotes({ project }: Mounts): void {
  const base = '/snippets/:snippet_id/notes';
  const json = (ctx: Ctx, s: ProjectSnippetRec, n: NoteRec) => ask('noteJson')(ctx.world, noteable(s), n);
  project.get(base, { auth: 'public' }, (ctx, p) => {
    const s = findSnippet(ctx, p);
    const by = enumParam(ctx, 'order_by', ['created_at', 'updated_at'] as const) ?? 'created_at';
    const desc = (enumParam(ctx, 'sort', SORTS) ?? 'desc') === 'desc';
    const key = (n: NoteRec) => (by === 'updated_at' ? (n.updatedAt ?? n.createdAt) : n.createdAt);
    const list = [...notesOf(ctx, s)].sort((a, b) => (desc ? key(b) - key(a) || b.id - a.id : key(a) - key(b) || a.id - b.id));
    sendList(
      ctx,
      pageOf(ctx, list).map((n) => json(ctx, s, n)),
    );
  });
  project.get(`${base}/:note_id`, { auth: 'public' }, (ctx, p) => {
    const s = findSnippet(ctx, p);
    sendJson(ctx, 200, json(ctx, s, noteOf(ctx, s)));
  });
  project.post(base, { auth: 'user' }, (ctx, p) => {
    const s = findSnippet(ctx, p);
    const body = ask('noteBody')(ctx);
    const note: NoteRec = { id: notes(ctx.world).nextId++, body, authorId: ctx.user!.id, createdAt: ctx.world.now() };
    notesOf(ctx, s).push(note);
    sendJson(ctx, 201, json(ctx, s, note));
  });
  project.put(`${base}/:note_id`, { auth: 'user' }, (ctx, p) => {
    const s = findSnippet(ctx, p);
    const note = noteOf(ctx, s);
    mayEdit(ctx, p, note);
    note.body = ask('noteBody')(ctx);
    note.updatedAt = ctx.world.now();
    sendJson(ctx, 200, json(ctx, s, note));
  });
  project.delete(`${base}/:note_id`, { auth: 'user' }, (ctx, p) => {
    const s = findSnippet(ctx, p);
    const note = noteOf(ctx, s);
    mayEdit(ctx, p, note);
    const list = notesOf(ctx, s);
    list.splice(list.indexOf(note), 1);
    sendJson(ctx, 204, null);
  });
}
