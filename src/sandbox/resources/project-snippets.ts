// A project's snippets (lib/api/project_snippets.rb, entities/project_snippet.rb): read by whoever
// reads the project; created by reporters and up (`title` and `visibility` required, `content` or
// `files` but not both); changed and deleted by their author or a maintainer. An unknown one is
// `404 Snippet Not Found`. The files and their update actions are those of personal snippets
// (snippet-files.ts). Ids come from their own range above the personal snippets' (README, "Project snippets").
import { can } from '../access.js';
import type { Ctx } from '../server/context.js';
import { ApiError, E } from '../server/errors.js';
import { pageOf } from '../server/paging.js';
import { enumParam, strParam } from '../server/params.js';
import { sendJson, sendList, sendText } from '../server/respond.js';
import { storeFor } from '../store/collection.js';
import type { ProjectRec, Visibility } from '../store/records.js';
import type { World } from '../store/world.js';
import type { Mounts } from './mounts.js';
import { type SnippetFile, updatedFileList } from './snippet-files.js';
import { snippetEntity } from '../entities/snippet.js';

export interface ProjectSnippetRec {
  id: number;
  projectId: number;
  title: string;
  description: string | null;
  visibility: Visibility;
  authorId: number;
  files: SnippetFile[];
  createdAt: number;
  updatedAt: number;
}

const VISIBILITIES = ['public', 'internal', 'private'] as const;
const REF = 'main';
const FIRST_ID = 1_000_001;

const snippets = storeFor(() => ({ list: [] as ProjectSnippetRec[], nextId: FIRST_ID }));

function snippetJson(w: World, p: ProjectRec, s: ProjectSnippetRec): Record<string, unknown> {
  return snippetEntity(w, s, p);
}

export function findSnippet(ctx: Ctx, p: ProjectRec): ProjectSnippetRec {
  if (!can(ctx.world, ctx.user, p, 'read_snippet')) throw E.notFound('Project');
  const s = snippets(ctx.world).list.find((x) => x.projectId === p.id && String(x.id) === ctx.p.snippet_id);
  if (!s || (s.visibility === 'private' && !can(ctx.world, ctx.user, p, 'create_snippet') && s.authorId !== ctx.user?.id))
    throw E.notFound('Snippet');
  return s;
}

export function mayChange(ctx: Ctx, p: ProjectRec, s: ProjectSnippetRec): void {
  if (s.authorId !== ctx.user!.id && !can(ctx.world, ctx.user, p, 'admin_snippet')) throw E.forbidden();
}

function createFiles(ctx: Ctx): SnippetFile[] {
  const files = ctx.params.files;
  const content = strParam(ctx, 'content');
  if (files !== undefined && content !== undefined) throw new ApiError(400, { error: 'content, files are mutually exclusive' });
  if (files === undefined && content === undefined)
    throw new ApiError(400, { error: 'content, files are missing, exactly one parameter must be provided' });
  if (content !== undefined) return [{ path: strParam(ctx, 'file_name') ?? 'snippetfile1.txt', content }];
  if (!Array.isArray(files)) throw E.invalid('files');
  return (files as Array<Record<string, unknown>>).map((f) => ({ path: String(f?.file_path ?? ''), content: String(f?.content ?? '') }));
}

export function mountProjectSnippets({ project }: Mounts): void {
  project.get('/snippets', { auth: 'public' }, (ctx, p) => {
    if (!can(ctx.world, ctx.user, p, 'read_snippet')) throw E.notFound('Project');
    const mine = (s: ProjectSnippetRec) =>
      s.visibility !== 'private' || can(ctx.world, ctx.user, p, 'create_snippet') || s.authorId === ctx.user?.id;
    const list = snippets(ctx.world)
      .list.filter((s) => s.projectId === p.id && mine(s))
      .reverse();
    sendList(
      ctx,
      pageOf(ctx, list).map((s) => snippetJson(ctx.world, p, s)),
    );
  });
  project.get('/snippets/:snippet_id', { auth: 'public' }, (ctx, p) => sendJson(ctx, 200, snippetJson(ctx.world, p, findSnippet(ctx, p))));
  project.get('/snippets/:snippet_id/raw', { auth: 'public' }, (ctx, p) => {
    sendText(ctx, 200, findSnippet(ctx, p).files[0]!.content, 'text/plain; charset=utf-8');
  });
  project.get('/snippets/:snippet_id/files/:ref/:file_path/raw', { auth: 'public' }, (ctx, p) => {
    const s = findSnippet(ctx, p);
    if (ctx.p.ref !== REF) throw E.notFound('Reference');
    const file = s.files.find((f) => f.path === ctx.p.file_path);
    if (!file) throw E.notFound('File');
    sendText(ctx, 200, file.content, 'text/plain; charset=utf-8');
  });
  project.post('/snippets', { auth: 'user' }, (ctx, p) => {
    if (!can(ctx.world, ctx.user, p, 'create_snippet')) throw E.forbidden();
    const missing = ['title', 'visibility'].filter((k) => strParam(ctx, k) === undefined);
    if (missing.length) throw E.missing(...missing);
    const visibility = enumParam(ctx, 'visibility', VISIBILITIES)!;
    const files = createFiles(ctx);
    if (files.some((f) => f.path === '')) throw new ApiError(400, { message: { error: 'File path can not be empty' } });
    const store = snippets(ctx.world);
    const now = ctx.world.now();
    const s: ProjectSnippetRec = {
      id: store.nextId++,
      projectId: p.id,
      title: strParam(ctx, 'title')!,
      description: strParam(ctx, 'description') ?? null,
      visibility,
      authorId: ctx.user!.id,
      files,
      createdAt: now,
      updatedAt: now,
    };
    store.list.push(s);
    sendJson(ctx, 201, snippetJson(ctx.world, p, s));
  });
  project.put('/snippets/:snippet_id', { auth: 'user' }, (ctx, p) => {
    const s = findSnippet(ctx, p);
    mayChange(ctx, p, s);
    const keys = ['content', 'description', 'file_name', 'files', 'title', 'visibility'];
    if (!keys.some((k) => ctx.params[k] !== undefined)) throw E.atLeastOne(...keys);
    if (ctx.params.files !== undefined && ctx.params.content !== undefined)
      throw new ApiError(400, { error: 'files, content are mutually exclusive' });
    const visibility = enumParam(ctx, 'visibility', VISIBILITIES);
    const files = updatedFileList(ctx, s.files);
    s.title = strParam(ctx, 'title') ?? s.title;
    if (ctx.params.description !== undefined) s.description = strParam(ctx, 'description') ?? null;
    if (visibility) s.visibility = visibility;
    if (files) s.files = files;
    s.updatedAt = ctx.world.now();
    sendJson(ctx, 200, snippetJson(ctx.world, p, s));
  });
  project.delete('/snippets/:snippet_id', { auth: 'user' }, (ctx, p) => {
    const s = findSnippet(ctx, p);
    mayChange(ctx, p, s);
    const list = snippets(ctx.world).list;
    list.splice(list.indexOf(s), 1);
    sendJson(ctx, 204, null);
  });
}
