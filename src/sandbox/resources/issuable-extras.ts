// What hangs on an issue or a merge request besides notes (lib/api/subscriptions.rb, todos.rb,
// award_emoji.rb (issues, merge requests and their notes); entities/todo.rb, award_emoji.rb): subscribing answers 201 with the issuable and
// `subscribed: true`, or `304 Not Modified` when nothing changes (its author and assignees are
// subscribed until they unsubscribe); `todo` adds a pending to-do for the caller (201), or 304 when one
// is pending; `/todos` lists the caller's, `mark_as_done` settles them. Award emoji: a known name, once
// per user and name (the service's `404 Award Emoji Name has already been taken Not Found`); only its
// user or an administrator removes one (401 otherwise), with 204 (README, "Subscriptions, to-dos and
// award emoji").
import { can } from '../access.js';
import { ask, type Issuable, offer } from '../engine/ports.js';
import type { Ctx } from '../server/context.js';
import { E } from '../server/errors.js';
import { pageOf } from '../server/paging.js';
import { enumParam, intParam, strParam } from '../server/params.js';
import { sendJson, sendList, sendText } from '../server/respond.js';
import type { Scope } from '../server/router.js';
import { storeFor } from '../store/collection.js';
import type { ProjectRec } from '../store/records.js';
import { iso } from '../util/time.js';
import type { Mounts } from './mounts.js';
import { userBasic } from '../entities/user.js';

interface AwardRec {
  id: number;
  name: string;
  userId: number;
  at: number;
  type: Awardable['type'];
  awardableId: number;
}

/** What an award hangs on: an issue, a merge request, or a note on one. */
interface Awardable {
  type: Issuable['type'] | 'Note';
  id: number;
  /** the ability that reads it (a note's is its issuable's) */
  read: 'read_issue' | 'read_merge_request';
}

const awardableOf = (i: Issuable): Awardable => ({
  type: i.type,
  id: i.id,
  read: i.type === 'Issue' ? 'read_issue' : 'read_merge_request',
});

/** The note `:note_id` of the route's issuable, through the notes resource's port; `find`'s 404 otherwise. */
function noteAwardable(ctx: Ctx, p: ProjectRec, i: Issuable): Awardable {
  const notes = i.type === 'Issue' ? ask('issueNotes') : ask('mergeRequestNotes');
  const note = notes.list(ctx, p).find((n) => String(n.id) === ctx.p.note_id);
  if (!note) throw E.findNotFound();
  return { type: 'Note', id: note.id, read: awardableOf(i).read };
}

interface TodoRec {
  id: number;
  userId: number;
  projectId: number;
  type: Issuable['type'];
  iid: number;
  authorId: number;
  title: string;
  at: number;
  state: 'pending' | 'done';
}

/** Emoji names the sandbox knows (a subset of the service's list). */
const EMOJI = new Set(['thumbsup', 'thumbsdown', 'smile', 'tada', 'heart', 'rocket', 'eyes', 'white_check_mark', 'confused', 'laughing']);

const extras = storeFor(() => ({
  /** `${type}:${id}:${userId}` → subscribed or not, where the user chose */
  subscriptions: new Map<string, boolean>(),
  todos: [] as TodoRec[],
  awards: [] as AwardRec[],
  nextTodo: 1,
  nextAward: 1,
}));

const ISSUABLES: ReadonlyArray<{ base: string; find: (ctx: Ctx, p: ProjectRec) => Issuable }> = [
  { base: '/issues/:issue_iid', find: (ctx, p) => ask('issueOf')(ctx, p) },
  { base: '/merge_requests/:merge_request_iid', find: (ctx, p) => ask('mergeRequestOf')(ctx, p) },
];

function subscribed(ctx: Ctx, i: Pick<Issuable, 'type' | 'id' | 'authorId' | 'assigneeIds'>): boolean {
  if (!ctx.user) return false;
  const chosen = extras(ctx.world).subscriptions.get(`${i.type}:${i.id}:${ctx.user!.id}`);
  return chosen ?? (i.authorId === ctx.user!.id || i.assigneeIds.includes(ctx.user!.id));
}

function mountSubscriptions(project: Scope<ProjectRec>, base: string, find: (ctx: Ctx, p: ProjectRec) => Issuable): void {
  for (const [action, value] of [
    ['subscribe', true],
    ['unsubscribe', false],
  ] as const) {
    project.post(`${base}/${action}`, { auth: 'user' }, (ctx, p) => {
      const i = find(ctx, p);
      if (subscribed(ctx, i) === value) return sendText(ctx, 304, '', 'application/json');
      extras(ctx.world).subscriptions.set(`${i.type}:${i.id}:${ctx.user!.id}`, value);
      sendJson(ctx, 201, { ...i.json(), subscribed: value });
    });
  }
}

function todoJson(ctx: Ctx, t: TodoRec): Record<string, unknown> {
  const w = ctx.world;
  const p = w.projects.get(t.projectId)!;
  const path = t.type === 'Issue' ? 'issues' : 'merge_requests';
  return {
    id: t.id,
    project: { id: p.id, name: p.name, name_with_namespace: p.fullPath, path: p.path, path_with_namespace: p.fullPath },
    author: userBasic(w, w.users.get(t.authorId)!),
    action_name: 'marked',
    target_type: t.type,
    target: { iid: t.iid, title: t.title, project_id: t.projectId },
    target_url: `${w.base()}/${p.fullPath}/-/${path}/${t.iid}`,
    body: t.title,
    state: t.state,
    created_at: iso(t.at),
    updated_at: iso(t.at),
  };
}

function mountTodos({ root, project }: Mounts): void {
  for (const { base, find } of ISSUABLES) {
    project.post(`${base}/todo`, { auth: 'user' }, (ctx, p) => {
      const i = find(ctx, p);
      const store = extras(ctx.world);
      const pending = store.todos.some(
        (t) => t.userId === ctx.user!.id && t.type === i.type && t.iid === i.iid && t.projectId === p.id && t.state === 'pending',
      );
      if (pending) return sendText(ctx, 304, '', 'application/json');
      const todo: TodoRec = {
        id: store.nextTodo++,
        userId: ctx.user!.id,
        projectId: p.id,
        type: i.type,
        iid: i.iid,
        authorId: ctx.user!.id,
        title: i.title,
        at: ctx.world.now(),
        state: 'pending',
      };
      store.todos.push(todo);
      sendJson(ctx, 201, { ...todoJson(ctx, todo), target: i.json() });
    });
  }
  root.get('/todos', { auth: 'user' }, (ctx) => {
    const state = enumParam(ctx, 'state', ['pending', 'done'] as const, 'pending');
    const type = enumParam(ctx, 'type', ['Issue', 'MergeRequest'] as const);
    const projectId = intParam(ctx, 'project_id');
    const list = extras(ctx.world)
      .todos.filter(
        (t) =>
          t.userId === ctx.user!.id &&
          t.state === state &&
          (!type || t.type === type) &&
          (projectId === undefined || t.projectId === projectId),
      )
      .reverse();
    sendList(
      ctx,
      pageOf(ctx, list).map((t) => todoJson(ctx, t)),
    );
  });
  root.post('/todos/:todo_id/mark_as_done', { auth: 'user' }, (ctx) => {
    const todo = extras(ctx.world).todos.find((t) => String(t.id) === ctx.p.todo_id && t.userId === ctx.user!.id);
    if (!todo) throw E.findNotFound();
    todo.state = 'done';
    sendJson(ctx, 201, todoJson(ctx, todo));
  });
  root.post('/todos/mark_as_done', { auth: 'user' }, (ctx) => {
    for (const t of extras(ctx.world).todos) if (t.userId === ctx.user!.id) t.state = 'done';
    sendJson(ctx, 204, null);
  });
}

function awardJson(ctx: Ctx, a: AwardRec): Record<string, unknown> {
  return {
    id: a.id,
    name: a.name,
    user: userBasic(ctx.world, ctx.world.users.get(a.userId)!),
    created_at: iso(a.at),
    updated_at: iso(a.at),
    awardable_id: a.awardableId,
    awardable_type: a.type,
  };
}

function mountAwards(project: Scope<ProjectRec>, base: string, find: (ctx: Ctx, p: ProjectRec) => Awardable): void {
  const awardsOn = (ctx: Ctx, i: Awardable) => extras(ctx.world).awards.filter((a) => a.type === i.type && a.awardableId === i.id);
  const findAward = (ctx: Ctx, i: Awardable) => {
    const a = awardsOn(ctx, i).find((x) => String(x.id) === ctx.p.award_id);
    if (!a) throw E.findNotFound();
    return a;
  };
  project.get(`${base}/award_emoji`, { auth: 'user' }, (ctx, p) => {
    const i = find(ctx, p);
    sendList(
      ctx,
      pageOf(ctx, awardsOn(ctx, i)).map((a) => awardJson(ctx, a)),
    );
  });
  project.get(`${base}/award_emoji/:award_id`, { auth: 'user' }, (ctx, p) =>
    sendJson(ctx, 200, awardJson(ctx, findAward(ctx, find(ctx, p)))),
  );
  project.post(`${base}/award_emoji`, { auth: 'user' }, (ctx, p) => {
    const i = find(ctx, p);
    const name = strParam(ctx, 'name');
    if (name === undefined) throw E.missing('name');
    if (!can(ctx.world, ctx.user, p, i.read)) throw E.notFound('Award Emoji');
    if (!EMOJI.has(name)) throw E.notFound('Award Emoji Name is not a valid emoji name');
    if (awardsOn(ctx, i).some((a) => a.userId === ctx.user!.id && a.name === name))
      throw E.notFound('Award Emoji Name has already been taken');
    const store = extras(ctx.world);
    const award: AwardRec = { id: store.nextAward++, name, userId: ctx.user!.id, at: ctx.world.now(), type: i.type, awardableId: i.id };
    store.awards.push(award);
    sendJson(ctx, 201, awardJson(ctx, award));
  });
  project.delete(`${base}/award_emoji/:award_id`, { auth: 'user' }, (ctx, p) => {
    const award = findAward(ctx, find(ctx, p));
    if (award.userId !== ctx.user!.id && !ctx.user!.isAdmin) throw E.unauthorized();
    const list = extras(ctx.world).awards;
    list.splice(list.indexOf(award), 1);
    sendJson(ctx, 204, null);
  });
}

/**
 * `GET …/participants` (`visible_participants`): the author, the assignees, a merge request's reviewers, then
 * the authors of its comments (not system notes), each once, as UserBasic. A merge request's list is paged,
 * an issue's is not (lib/api/issues.rb, merge_requests.rb).
 */
function mountParticipants(project: Scope<ProjectRec>): void {
  const participants = (ctx: Ctx, p: ProjectRec, i: Issuable, notes: 'issueNotes' | 'mergeRequestNotes') => {
    const reviewers = ((i.json().reviewers ?? []) as Array<{ id: number }>).map((r) => r.id);
    const commenters = ask(notes)
      .list(ctx, p)
      .filter((n) => n.json.system !== true)
      .map((n) => (n.json.author as { id: number }).id);
    const ids = [...new Set([i.authorId, ...i.assigneeIds, ...reviewers, ...commenters])];
    return ids.map((id) => userBasic(ctx.world, ctx.world.users.get(id)!));
  };
  project.get('/issues/:issue_iid/participants', { auth: 'public' }, (ctx, p) => {
    sendJson(ctx, 200, participants(ctx, p, ask('issueOf')(ctx, p), 'issueNotes'));
  });
  project.get('/merge_requests/:merge_request_iid/participants', { auth: 'public' }, (ctx, p) => {
    sendList(ctx, pageOf(ctx, participants(ctx, p, ask('mergeRequestOf')(ctx, p), 'mergeRequestNotes')));
  });
}

export function mountIssuableExtras(mounts: Mounts): void {
  offer('isSubscribed', subscribed);
  mountParticipants(mounts.project);
  for (const { base, find } of ISSUABLES) {
    mountSubscriptions(mounts.project, base, find);
    mountAwards(mounts.project, base, (ctx, p) => awardableOf(find(ctx, p)));
    mountAwards(mounts.project, `${base}/notes/:note_id`, (ctx, p) => noteAwardable(ctx, p, find(ctx, p)));
  }
  mountTodos(mounts);
}
