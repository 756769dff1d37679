// Contribution events (lib/api/events.rb, entities/event.rb, push_event_payload.rb, app/models/event.rb
// `action_name`): every successful write the service records as an event is kept as one, as the writes
// happen (the seeded world starts with none). `/events` lists the caller's own (or, with `scope=all`,
// those of every project it can see), `/users/:id/events` a user's, `/projects/:id/events` a project's;
// filtered by `action`, `target_type`, `before`/`after` (dates, exclusive), newest first unless
// `sort=asc`, paged (README, "Events").
import { canReadProject } from '../access.js';
import type { Ctx } from '../server/context.js';
import { E } from '../server/errors.js';
import { pageOf } from '../server/paging.js';
import { enumParam, strParam } from '../server/params.js';
import { sendList } from '../server/respond.js';
import type { WriteObserver } from '../server/router.js';
import { storeFor } from '../store/collection.js';
import type { World } from '../store/world.js';
import { iso } from '../util/time.js';
import type { Mounts } from './mounts.js';
import { userBasic } from '../entities/user.js';

type Action = 'created' | 'closed' | 'reopened' | 'pushed' | 'commented' | 'merged' | 'joined' | 'left' | 'destroyed';
type TargetType = 'Issue' | 'MergeRequest' | 'Note' | null;

interface PushData {
  commit_count: number;
  action: 'pushed' | 'created';
  ref_type: 'branch' | 'tag';
  commit_from: string | null;
  commit_to: string | null;
  ref: string;
  commit_title: string | null;
  ref_count: null;
}

interface EventRec {
  id: number;
  projectId: number;
  action: Action;
  targetType: TargetType;
  targetId: number | null;
  targetIid: number | null;
  targetTitle: string | null;
  authorId: number;
  at: number;
  push?: PushData;
  note?: unknown;
}

const events = storeFor(() => ({ list: [] as EventRec[], nextId: 1 }));

type Answer = Record<string, unknown>;
type Draft = Omit<EventRec, 'id' | 'at' | 'projectId' | 'authorId'> & { projectId?: number; authorId?: number };

const issuable = (type: 'Issue' | 'MergeRequest', action: Action, a: Answer): Draft => ({
  action,
  targetType: type,
  targetId: a.id as number,
  targetIid: a.iid as number,
  targetTitle: a.title as string,
});

function stateChange(type: 'Issue' | 'MergeRequest', ctx: Ctx, a: Answer): Draft | null {
  const change = ctx.params.state_event;
  if (change === 'close') return issuable(type, 'closed', a);
  if (change === 'reopen') return issuable(type, 'reopened', a);
  return null;
}

function pushTo(ref: string, created: boolean, refType: 'branch' | 'tag', sha: string | null, title: string | null): Draft {
  return {
    action: 'pushed',
    targetType: null,
    targetId: null,
    targetIid: null,
    targetTitle: null,
    push: {
      commit_count: created ? 0 : 1,
      action: created ? 'created' : 'pushed',
      ref_type: refType,
      commit_from: null,
      commit_to: sha,
      ref,
      commit_title: title,
      ref_count: null,
    },
  };
}

function note(ctx: Ctx, a: Answer, type: 'Issue' | 'MergeRequest'): Draft {
  const iid = Number(ctx.p[type === 'Issue' ? 'issue_iid' : 'merge_request_iid']);
  return { action: 'commented', targetType: 'Note', targetId: a.id as number, targetIid: iid, targetTitle: null, note: a };
}

/** What each write the service records answers as an event, by method and route. */
const RULES: Record<string, (ctx: Ctx, a: Answer) => Draft | null> = {
  'POST /projects': (_ctx, a) => ({
    action: 'created',
    targetType: null,
    targetId: null,
    targetIid: null,
    targetTitle: null,
    projectId: a.id as number,
  }),
  'POST /projects/:id/issues': (_ctx, a) => issuable('Issue', 'created', a),
  'PUT /projects/:id/issues/:issue_iid': (ctx, a) => stateChange('Issue', ctx, a),
  'POST /projects/:id/merge_requests': (_ctx, a) => issuable('MergeRequest', 'created', a),
  'PUT /projects/:id/merge_requests/:merge_request_iid': (ctx, a) => stateChange('MergeRequest', ctx, a),
  'PUT /projects/:id/merge_requests/:merge_request_iid/merge': (_ctx, a) =>
    a.state === 'merged' ? issuable('MergeRequest', 'merged', a) : null,
  'POST /projects/:id/issues/:issue_iid/notes': (ctx, a) => note(ctx, a, 'Issue'),
  'POST /projects/:id/merge_requests/:merge_request_iid/notes': (ctx, a) => note(ctx, a, 'MergeRequest'),
  'POST /projects/:id/repository/branches': (_ctx, a) => {
    const commit = a.commit as Answer;
    return pushTo(a.name as string, true, 'branch', commit.id as string, commit.title as string);
  },
  'POST /projects/:id/repository/tags': (_ctx, a) => {
    const commit = a.commit as Answer;
    return pushTo(a.name as string, true, 'tag', commit.id as string, commit.title as string);
  },
  'POST /projects/:id/repository/commits': (ctx, a) =>
    pushTo(String(ctx.params.branch), false, 'branch', a.id as string, a.title as string),
  'POST /projects/:id/members': (_ctx, a) => ({
    action: 'joined',
    targetType: null,
    targetId: null,
    targetIid: null,
    targetTitle: null,
    authorId: a.id as number,
  }),
  'DELETE /projects/:id/members/:user_id': (ctx) => ({
    action: 'left',
    targetType: null,
    targetId: null,
    targetIid: null,
    targetTitle: null,
    authorId: Number(ctx.p.user_id),
  }),
};

/** Records the event of a successful write, from the route, the parameters and the answer. */
export const recordEvent: WriteObserver = (ctx) => {
  const rule = ctx.route && RULES[`${ctx.method} ${ctx.route.pattern}`];
  if (!rule) return undefined;
  return () => {
    const answer = ctx.answer ? (JSON.parse(ctx.answer) as Answer) : {};
    const draft = rule(ctx, answer);
    if (!draft || !ctx.user) return;
    const project = draft.projectId !== undefined ? ctx.world.projects.get(draft.projectId) : ctx.world.findProject(ctx.p.id ?? '');
    if (!project) return;
    const store = events(ctx.world);
    store.list.push({ ...draft, id: store.nextId++, projectId: project.id, authorId: draft.authorId ?? ctx.user.id, at: ctx.world.now() });
  };
};

function actionName(e: EventRec): string {
  if (e.push) return e.push.action === 'created' ? 'pushed new' : 'pushed to';
  const names: Partial<Record<Action, string>> = {
    closed: 'closed',
    merged: 'accepted',
    joined: 'joined',
    left: 'left',
    destroyed: 'destroyed',
    commented: 'commented on',
  };
  if (e.action === 'created' && e.targetType === null) return 'created';
  return names[e.action] ?? 'opened';
}

function eventJson(w: World, e: EventRec): Record<string, unknown> {
  const author = w.users.get(e.authorId);
  return {
    id: e.id,
    project_id: e.projectId,
    action_name: actionName(e),
    target_id: e.targetId,
    target_iid: e.targetIid,
    target_type: e.targetType,
    author_id: e.authorId,
    target_title: e.targetTitle,
    created_at: iso(e.at),
    ...(e.note ? { note: e.note } : {}),
    author: author ? userBasic(w, author) : null,
    imported: false,
    imported_from: 'none',
    ...(e.push ? { push_data: e.push } : {}),
    author_username: author?.username ?? null,
  };
}

const TARGETS: Readonly<Record<string, TargetType>> = { issue: 'Issue', merge_request: 'MergeRequest', note: 'Note' };

function sendEvents(ctx: Ctx, keep: (e: EventRec) => boolean): void {
  const w = ctx.world;
  const action = enumParam(ctx, 'action', [
    'created',
    'updated',
    'closed',
    'reopened',
    'pushed',
    'commented',
    'merged',
    'joined',
    'left',
    'destroyed',
    'expired',
    'approved',
  ] as const);
  const target = enumParam(ctx, 'target_type', [
    'issue',
    'milestone',
    'merge_request',
    'note',
    'project',
    'snippet',
    'user',
    'wiki',
    'design',
  ] as const);
  const day = (name: string) => {
    const v = strParam(ctx, name);
    if (v === undefined) return undefined;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) throw E.invalid(name);
    return Date.parse(`${v}T00:00:00Z`);
  };
  const before = day('before');
  const after = day('after');
  const list = events(w).list.filter((e) => {
    const p = w.projects.get(e.projectId);
    if (!p || !canReadProject(w, ctx.user, p) || !keep(e)) return false;
    if (action && e.action !== action) return false;
    if (target && (TARGETS[target] ?? 'none') !== e.targetType) return false;
    if (before !== undefined && e.at >= before) return false;
    return after === undefined || e.at >= after + 86_400_000;
  });
  const ordered = enumParam(ctx, 'sort', ['asc', 'desc'] as const, 'desc') === 'asc' ? list : [...list].reverse();
  sendList(
    ctx,
    pageOf(ctx, ordered).map((e) => eventJson(w, e)),
  );
}

export function mountEvents({ root, project }: Mounts): void {
  root.get('/events', { auth: 'user', scopes: ['read_user'] }, (ctx) => {
    const all = strParam(ctx, 'scope') === 'all';
    sendEvents(ctx, (e) => all || e.authorId === ctx.user!.id);
  });
  root.get('/users/:user_id/events', { auth: 'public' }, (ctx) => {
    const w = ctx.world;
    const user = w.findUser(ctx.p.user_id!);
    if (!user) throw E.notFound('User');
    sendEvents(ctx, (e) => e.authorId === user.id);
  });
  project.get('/events', { auth: 'public' }, (ctx, p) => sendEvents(ctx, (e) => e.projectId === p.id));
}
