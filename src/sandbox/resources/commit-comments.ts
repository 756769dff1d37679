// Comments and discussions on a commit, and its signature (lib/api/commits.rb `comments`,
// `signature`; discussions.rb for `Commit`; entities/commit_note.rb, discussion.rb, note.rb): a comment
// is `{note, path, line, line_type, author, created_at}`; each one is also an individual discussion of
// one note. An unknown commit is `404 Commit Not Found`. The sandbox's commits are unsigned, so
// `signature` is `404 Signature Not Found` (README, "Commit comments").
import type { Ctx } from '../server/context.js';
import { E } from '../server/errors.js';
import { pageOf } from '../server/paging.js';
import { enumParam, intParam, strParam } from '../server/params.js';
import { sendJson, sendList } from '../server/respond.js';
import { storeFor } from '../store/collection.js';
import type { ProjectRec } from '../store/records.js';
import { sha1 } from '../util/digest.js';
import { iso } from '../util/time.js';
import { requireAbility } from './guards.js';
import type { Mounts } from './mounts.js';
import { userBasic } from '../entities/user.js';

interface CommentRec {
  id: number;
  projectId: number;
  sha: string;
  note: string;
  path: string | null;
  line: number | null;
  lineType: 'new' | 'old' | null;
  authorId: number;
  at: number;
}

/** Commit notes take ids far above the seeded issue notes, so the two never meet. */
const comments = storeFor(() => ({ list: [] as CommentRec[], nextId: 9_000_001 }));

function commitOf(ctx: Ctx, p: ProjectRec): string {
  requireAbility(ctx, p, 'read_code');
  const w = ctx.world;
  const sha = w.repos.isEmpty(p.id) ? null : w.repos.resolveRef(p.id, ctx.p.sha!);
  if (!sha) throw E.notFound('Commit');
  return sha;
}

function commentJson(ctx: Ctx, c: CommentRec): Record<string, unknown> {
  return {
    note: c.note,
    path: c.path,
    line: c.line,
    line_type: c.lineType,
    author: userBasic(ctx.world, ctx.world.users.get(c.authorId)!),
    created_at: iso(c.at),
  };
}

function discussionJson(ctx: Ctx, c: CommentRec): Record<string, unknown> {
  return {
    id: sha1(`commit-note:${c.id}`),
    individual_note: true,
    notes: [
      {
        id: c.id,
        type: null,
        body: c.note,
        attachment: null,
        author: userBasic(ctx.world, ctx.world.users.get(c.authorId)!),
        created_at: iso(c.at),
        updated_at: iso(c.at),
        system: false,
        noteable_id: null,
        noteable_type: 'Commit',
        project_id: c.projectId,
        commit_id: c.sha,
        resolvable: false,
        confidential: false,
        internal: false,
        imported: false,
        imported_from: 'none',
        noteable_iid: null,
        commands_changes: {},
      },
    ],
  };
}

function add(ctx: Ctx, p: ProjectRec, body: 'note' | 'body'): CommentRec {
  const sha = commitOf(ctx, p);
  const note = strParam(ctx, body);
  if (note === undefined) throw E.missing(body);
  const store = comments(ctx.world);
  const rec: CommentRec = {
    id: store.nextId++,
    projectId: p.id,
    sha,
    note,
    path: body === 'note' ? (strParam(ctx, 'path') ?? null) : null,
    line: body === 'note' ? (intParam(ctx, 'line') ?? null) : null,
    lineType: body === 'note' ? (enumParam(ctx, 'line_type', ['new', 'old'] as const) ?? null) : null,
    authorId: ctx.user!.id,
    at: ctx.world.now(),
  };
  store.list.push(rec);
  return rec;
}

const on = (ctx: Ctx, p: ProjectRec, sha: string) => comments(ctx.world).list.filter((c) => c.projectId === p.id && c.sha === sha);

export function mountCommitComments({ project }: Mounts): void {
  project.get('/repository/commits/:sha/comments', { auth: 'public' }, (ctx, p) => {
    const list = on(ctx, p, commitOf(ctx, p));
    sendList(
      ctx,
      pageOf(ctx, list).map((c) => commentJson(ctx, c)),
    );
  });
  project.post('/repository/commits/:sha/comments', { auth: 'user' }, (ctx, p) =>
    sendJson(ctx, 201, commentJson(ctx, add(ctx, p, 'note'))),
  );
  project.get('/repository/commits/:sha/discussions', { auth: 'public' }, (ctx, p) => {
    const list = on(ctx, p, commitOf(ctx, p));
    sendList(
      ctx,
      pageOf(ctx, list).map((c) => discussionJson(ctx, c)),
    );
  });
  project.post('/repository/commits/:sha/discussions', { auth: 'user' }, (ctx, p) =>
    sendJson(ctx, 201, discussionJson(ctx, add(ctx, p, 'body'))),
  );
  project.get('/repository/commits/:sha/signature', { auth: 'public' }, (ctx, p) => {
    commitOf(ctx, p);
    throw E.notFound('Signature');
  });
}
