// Issue notes (reference endpoints §1, Notes): list (default sort `desc`),
// create (201, or 202 for a body of only quick actions), edit (200), delete (204).
// Seeded notes derive from (seed, project, iid, n).
import { can } from '../access.js';
import type { Ctx } from '../server/context.js';
import { E } from '../server/errors.js';
import { pageOf } from '../server/paging.js';
import { enumParam, intSeg, SORTS, strParam } from '../server/params.js';
import { sendJson, sendList } from '../server/respond.js';
import { ChildCollection, storeFor } from '../store/collection.js';
import type { ProjectRec } from '../store/records.js';
import { NOTE_BODIES } from '../store/seed.js';
import type { World } from '../store/world.js';
import { iso } from '../util/time.js';
import { requireAbility } from './guards.js';
import type { Issue } from './issue-filters.js';
import { ask, offer, type RenderedNote } from '../engine/ports.js';
import type { Mounts } from './mounts.js';
import { userBasic } from '../entities/user.js';

const ISSUE_SLOTS = 8;
const NOTE_SLOTS = 64;
const FIRST_ISSUE_ID = 101;

export interface NoteRec {
  id: number;
  body: string;
  authorId: number;
  createdAt: number;
  updatedAt?: number;
  system?: boolean;
}

/** The seeded issue behind a global issue id: its project, iid and seeded note count. */
function seededParent(w: World, issueId: number): { pid: number; iid: number; count: number } | null {
  const slot = issueId - FIRST_ISSUE_ID;
  if (slot < 0 || slot >= w.seededProjects * ISSUE_SLOTS) return null;
  const pid = Math.floor(slot / ISSUE_SLOTS) + 1;
  const iid = (slot % ISSUE_SLOTS) + 1;
  const issue = ask('deriveIssue')(w, pid, iid);
  return issue ? { pid, iid, count: issue.userNotesCount } : null;
}

const firstNoteId = (pid: number, iid: number) => 10 + ((pid - 1) * ISSUE_SLOTS + (iid - 1)) * NOTE_SLOTS;

function deriveNote(w: World, issueId: number, noteId: number): NoteRec | null {
  const parent = seededParent(w, issueId);
  if (!parent) return null;
  const { pid, iid } = parent;
  const n = noteId - firstNoteId(pid, iid);
  if (n < 1 || n > parent.count) return null;
  const h = w.h(53, pid, iid, n);
  return {
    id: noteId,
    body: NOTE_BODIES[(h >>> 8) % NOTE_BODIES.length]!,
    authorId: 1 + (h % w.seededUserCount),
    createdAt: w.projects.get(pid)!.createdAt + iid * 3 * 3_600_000 + n * 600_000 + (h % 1000),
  };
}

const noteStore = storeFor((w) => ({
  notes: new ChildCollection<number, NoteRec>({
    seededKeys: (issueId) => {
      const parent = seededParent(w, issueId);
      if (!parent) return [];
      const first = firstNoteId(parent.pid, parent.iid);
      return Array.from({ length: parent.count }, (_, k) => first + k + 1);
    },
    derive: (issueId, noteId) => deriveNote(w, issueId, noteId),
  }),
  nextId: firstNoteId(w.seededProjects + 1, 1),
}));

/** The parent a note hangs on: an issue, a merge request or a project snippet (which has no iid). */
export interface Noteable {
  id: number;
  iid: number | null;
  projectId: number;
  type: 'Issue' | 'MergeRequest' | 'Snippet';
}

export function noteJson(w: World, noteable: Noteable, note: NoteRec): Record<string, unknown> {
  return {
    id: note.id,
    type: null,
    body: note.body,
    attachment: null,
    author: userBasic(w, w.users.get(note.authorId)!),
    created_at: iso(note.createdAt),
    updated_at: iso(note.updatedAt ?? note.createdAt),
    system: note.system ?? false,
    noteable_id: noteable.id,
    noteable_type: noteable.type,
    project_id: noteable.projectId,
    noteable_iid: noteable.iid,
    resolvable: false,
    confidential: false,
    internal: false,
    commands_changes: {},
  };
}

const issueNoteable = (issue: Issue): Noteable => ({ id: issue.id, iid: issue.iid, projectId: issue.projectId, type: 'Issue' });

/** The quick actions the sandbox knows, with the summary the service gives once they ran. */
const QUICK_ACTIONS: Record<string, { state: 'opened' | 'closed'; event: string; summary: string }> = {
  '/close': { state: 'closed', event: 'close', summary: 'Closed this issue.' },
  '/reopen': { state: 'opened', event: 'reopen', summary: 'Reopened this issue.' },
};

/** Runs the quick-action lines of a note body; returns what is left of the body and what ran. */
function runQuickActions(
  ctx: Ctx,
  p: ProjectRec,
  issue: Issue,
  body: string,
): { text: string; changes: Record<string, string>; summary: string[] } {
  const mayEdit = issue.authorId === ctx.user!.id || can(ctx.world, ctx.user, p, 'update_issue');
  const changes: Record<string, string> = {};
  const summary: string[] = [];
  const kept: string[] = [];
  let changed = issue;
  for (const line of body.split('\n')) {
    const action = QUICK_ACTIONS[line.trim()];
    if (!action || !mayEdit) {
      kept.push(line);
      continue;
    }
    changes.state_event = action.event;
    summary.push(action.summary);
    const closed = action.state === 'closed';
    if (changed.state !== action.state) {
      changed = { ...changed, state: action.state, updatedAt: Date.now() };
      Object.assign(changed, { closedAt: closed ? changed.updatedAt : null, closedById: closed ? ctx.user!.id : null });
    }
  }
  if (changed !== issue) ask('saveIssue')(ctx, p, changed);
  return { text: kept.join('\n'), changes, summary };
}

/** The `body` of an edit: required, not blank (reference endpoints §1, Notes). */
function noteBody(ctx: Ctx): string {
  const body = strParam(ctx, 'body');
  if (body === undefined) throw E.missing('body');
  if (body.trim() === '') throw E.badRequest('400 Bad request - Note {:note=>["can\'t be blank"]}');
  return body;
}

function findNote(ctx: Ctx, issue: Issue): NoteRec {
  const note = noteStore(ctx.world).notes.get(issue.id, intSeg(ctx, 'note_id'));
  if (!note) throw E.findNotFound();
  return note;
}

/** A note on the route's issue, without quick actions (discussions add theirs this way). */
function addIssueNote(ctx: Ctx, p: ProjectRec, body: string): RenderedNote {
  requireAbility(ctx, p, 'read_issue');
  const issue = ask('findIssue')(ctx, p, () => E.notFound('Issue'));
  const store = noteStore(ctx.world);
  const note: NoteRec = { id: store.nextId++, body, authorId: ctx.user!.id, createdAt: ctx.world.now() };
  store.notes.insert(issue.id, note.id, note);
  ask('saveIssue')(ctx, p, { ...issue, userNotesCount: issue.userNotesCount + 1 });
  return { id: note.id, json: noteJson(ctx.world, issueNoteable(issue), note) };
}

export function mountNotes({ project }: Mounts): void {
  offer('issueNotes', {
    list(ctx, p) {
      requireAbility(ctx, p, 'read_issue');
      const issue = ask('findIssue')(ctx, p, () => E.notFound('Issue'));
      return noteStore(ctx.world)
        .notes.list(issue.id)
        .map((n) => ({ id: n.id, json: noteJson(ctx.world, issueNoteable(issue), n) }));
    },
    add: addIssueNote,
  });
  offer('noteJson', noteJson);
  offer('noteBody', noteBody);
  project.get('/issues/:issue_iid/notes', { auth: 'public' }, (ctx, p) => {
    requireAbility(ctx, p, 'read_issue');
    const issue = ask('findIssue')(ctx, p, () => E.notFound('Issue'));
    const sort = enumParam(ctx, 'sort', SORTS, 'desc');
    enumParam(ctx, 'order_by', ['created_at', 'updated_at'] as const);
    const notes = noteStore(ctx.world).notes.list(issue.id);
    if (sort === 'desc') notes.reverse();
    sendList(
      ctx,
      pageOf(ctx, notes).map((n) => noteJson(ctx.world, issueNoteable(issue), n)),
    );
  });
  project.get('/issues/:issue_iid/notes/:note_id', { auth: 'public' }, (ctx, p) => {
    requireAbility(ctx, p, 'read_issue');
    const issue = ask('findIssue')(ctx, p, () => E.notFound('Issue'));
    sendJson(ctx, 200, noteJson(ctx.world, issueNoteable(issue), findNote(ctx, issue)));
  });
  project.post('/issues/:issue_iid/notes', { auth: 'user' }, (ctx, p) => {
    requireAbility(ctx, p, 'read_issue');
    const found = ask('findIssue')(ctx, p, () => E.notFound('Issue'));
    const body = strParam(ctx, 'body');
    if (body === undefined) throw E.missing('body');
    const { text, changes, summary } = runQuickActions(ctx, p, found, body);
    if (summary.length > 0 && text.trim() === '') {
      sendJson(ctx, 202, { commands_changes: changes, summary });
      return;
    }
    if (text.trim() === '') throw E.badRequest('400 Bad request - Note {:note=>["can\'t be blank"]}');
    sendJson(ctx, 201, { ...addIssueNote(ctx, p, text).json, commands_changes: changes });
  });
  project.put('/issues/:issue_iid/notes/:note_id', { auth: 'user' }, (ctx, p) => {
    requireAbility(ctx, p, 'read_issue');
    const issue = ask('findIssue')(ctx, p, () => E.notFound('Issue'));
    const note = findNote(ctx, issue);
    const body = noteBody(ctx);
    if (note.authorId !== ctx.user!.id && !can(ctx.world, ctx.user, p, 'admin_project')) throw E.forbidden();
    const edited = { ...note, body, updatedAt: ctx.world.now() };
    noteStore(ctx.world).notes.update(issue.id, note.id, edited);
    sendJson(ctx, 200, noteJson(ctx.world, issueNoteable(issue), edited));
  });
  project.delete('/issues/:issue_iid/notes/:note_id', { auth: 'user' }, (ctx, p) => {
    requireAbility(ctx, p, 'read_issue');
    const issue = ask('findIssue')(ctx, p, () => E.notFound('Issue'));
    const note = findNote(ctx, issue);
    if (note.authorId !== ctx.user!.id && !can(ctx.world, ctx.user, p, 'admin_project')) throw E.forbidden();
    noteStore(ctx.world).notes.remove(issue.id, note.id);
    ask('saveIssue')(ctx, p, { ...issue, userNotesCount: Math.max(0, issue.userNotesCount - 1) });
    sendJson(ctx, 204, null);
  });
}
