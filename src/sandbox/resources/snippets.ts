// Personal snippets: `GET /snippets` (own), `/snippets/public`,
// `/snippets/all`, `/snippets/:id`, its raw content and files, `PUT` and `DELETE /snippets/:id`, and
// `POST /snippets` with the sandbox's spam rule and the CAPTCHA flow (reference §8, endpoints §14).
import { canReadSnippet } from '../access.js';
import type { Ctx } from '../server/context.js';
import { ApiError, E } from '../server/errors.js';
import { pageOf } from '../server/paging.js';
import { enumParam, intSeg, strParam, timeParam } from '../server/params.js';
import { sendJson, sendList, sendText } from '../server/respond.js';
import { storeFor } from '../store/collection.js';
import type { SnippetRec, Visibility } from '../store/records.js';
import type { World } from '../store/world.js';
import { offer } from '../engine/ports.js';
import type { Mounts } from './mounts.js';
import { type SnippetFile, updatedFileList } from './snippet-files.js';
import { snippetEntity } from '../entities/snippet.js';

/** Spam rule: any submitted text containing this (case-insensitive) is spam. */
const SPAM_PATTERN = /cheap pills/i;
const CAPTCHA_SITE_KEY = '6LeSandboxSiteKey-0000000000000000000000';

/** A snippet's repository has one branch. */
const SNIPPET_REF = 'main';
const VISIBILITIES = ['public', 'internal', 'private'] as const;

/** Files of snippets created or updated with several; the others have the one their record names. */
const fileLists = storeFor(() => new Map<number, SnippetFile[]>());

function snippetFiles(w: World, s: SnippetRec): SnippetFile[] {
  return fileLists(w).get(s.id) ?? [{ path: s.fileName, content: s.content }];
}

/** The record keeps the first file, as the service's `file_name` and `/raw` show it. */
function setSnippetFiles(w: World, s: SnippetRec, files: SnippetFile[]): void {
  fileLists(w).set(s.id, files);
  s.fileName = files[0]!.path;
  s.content = files[0]!.content;
}

const spamLogs = storeFor(() => new Map<number, { userId: number; used: boolean }>());

function newSpamLog(w: World, userId: number): number {
  const logs = spamLogs(w);
  const id = logs.size + 1;
  logs.set(id, { userId, used: false });
  return id;
}

export function snippetJson(w: World, s: SnippetRec): Record<string, unknown> {
  return snippetEntity(w, { ...s, files: snippetFiles(w, s) }, null);
}

/** Newest first, within `created_after`/`created_before` when given. */
function listSnippets(ctx: Ctx, keep: (s: SnippetRec) => boolean): void {
  const after = timeParam(ctx, 'created_after');
  const before = timeParam(ctx, 'created_before');
  const list = ctx.world.snippets
    .filter((s) => keep(s) && (after === undefined || s.createdAt >= after) && (before === undefined || s.createdAt <= before))
    .reverse();
  sendList(
    ctx,
    pageOf(ctx, list).map((s) => snippetJson(ctx.world, s)),
  );
}

export function mountSnippets({ root }: Mounts): void {
  offer('snippetJson', snippetJson);
  root.get('/snippets', { auth: 'user' }, (ctx) => listSnippets(ctx, (s) => s.authorId === ctx.user!.id));
  root.get('/snippets/public', { auth: 'user' }, (ctx) => listSnippets(ctx, (s) => s.visibility === 'public'));
  root.get('/snippets/all', { auth: 'user' }, (ctx) => listSnippets(ctx, (s) => canReadSnippet(ctx.user, s)));
  root.get('/snippets/:id', { auth: 'public' }, (ctx) => sendJson(ctx, 200, snippetJson(ctx.world, visibleSnippet(ctx))));

  root.get('/snippets/:id/raw', { auth: 'public' }, (ctx) => {
    const s = visibleSnippet(ctx);
    sendText(ctx, 200, snippetFiles(ctx.world, s)[0]!.content, 'text/plain; charset=utf-8');
  });
  root.get('/snippets/:id/files/:ref/:file_path/raw', { auth: 'public' }, (ctx) => {
    const s = visibleSnippet(ctx);
    if (ctx.p.ref !== SNIPPET_REF) throw E.notFound('Reference');
    const file = snippetFiles(ctx.world, s).find((f) => f.path === ctx.p.file_path);
    if (!file) throw E.notFound('File');
    sendText(ctx, 200, file.content, 'text/plain; charset=utf-8');
  });

  root.put('/snippets/:id', { auth: 'user' }, (ctx) => {
    const s = ownSnippet(ctx);
    const title = strParam(ctx, 'title');
    if (title !== undefined && !title.trim()) throw new ApiError(400, { error: 'title is empty' });
    const visibility = enumParam(ctx, 'visibility', VISIBILITIES);
    const given = ['content', 'description', 'files', 'file_name', 'title', 'visibility'].filter((k) => ctx.params[k] !== undefined);
    if (given.length === 0) throw E.atLeastOne('content', 'description', 'files', 'file_name', 'title', 'visibility');
    if (ctx.params.files !== undefined && ctx.params.content !== undefined) {
      throw new ApiError(400, { error: 'files, content are mutually exclusive' });
    }
    const files = updatedFileList(ctx, snippetFiles(ctx.world, s));
    if (title !== undefined) s.title = title;
    if (ctx.params.description !== undefined) s.description = strParam(ctx, 'description') ?? null;
    if (visibility !== undefined) s.visibility = visibility;
    if (files) setSnippetFiles(ctx.world, s, files);
    s.updatedAt = Date.now();
    sendJson(ctx, 200, snippetJson(ctx.world, s));
  });

  root.delete('/snippets/:id', { auth: 'user' }, (ctx) => {
    const s = ownSnippet(ctx);
    ctx.world.snippets.remove(s.id);
    sendJson(ctx, 204, null);
  });

  root.post('/snippets', { auth: 'user' }, (ctx) => {
    const w = ctx.world;
    const title = strParam(ctx, 'title');
    if (!title) throw E.missing('title');
    const files = Array.isArray(ctx.params.files) ? (ctx.params.files as Array<Record<string, unknown>>) : null;
    const content = strParam(ctx, 'content');
    if (content === undefined && !files)
      throw new ApiError(400, { error: 'content, files are missing, exactly one parameter must be provided' });
    const visibility = strParam(ctx, 'visibility') ?? 'internal';
    if (!['public', 'internal', 'private'].includes(visibility)) throw E.notValid('visibility');
    const description = strParam(ctx, 'description') ?? null;
    const fileList = files?.map((f) => ({ path: String(f?.file_path ?? ''), content: String(f?.content ?? '') }));
    const fileContent = fileList ? fileList.map((f) => f.content).join('\n') : (content ?? '');
    const fileName = strParam(ctx, 'file_name') ?? (files?.[0]?.file_path ? String(files[0].file_path) : 'snippetfile1.txt');
    const text = [title, description ?? '', fileContent].join('\n');
    if (SPAM_PATTERN.test(text)) {
      const user = ctx.user!;
      if (!ctx.core.opts.captcha) {
        throw new ApiError(400, { message: { error: 'Your snippet has been recognized as spam and has been discarded.' } });
      }
      const answer = ctx.req.headers['x-service-captcha-response'];
      const logIdText = ctx.req.headers['x-service-spam-log-id'];
      const log = typeof logIdText === 'string' && /^\d+$/.test(logIdText) ? spamLogs(w).get(Number(logIdText)) : undefined;
      const solved = typeof answer === 'string' && answer.trim() !== '' && log && log.userId === user.id && !log.used;
      if (!solved) {
        const id = newSpamLog(w, user.id);
        throw new ApiError(409, {
          needs_captcha_response: true,
          spam_log_id: id,
          captcha_site_key: CAPTCHA_SITE_KEY,
          message: { error: 'Your snippet has been recognized as spam. Please, change the content or solve the reCAPTCHA to proceed.' },
        });
      }
      log!.used = true;
    }
    const now = Date.now();
    const s: SnippetRec = {
      id: w.snippets.nextId(),
      title,
      fileName,
      description,
      visibility: visibility as Visibility,
      authorId: ctx.user!.id,
      content: fileContent,
      createdAt: now,
      updatedAt: now,
      storage: w.pickStorageByWeight(),
      readOnly: false,
    };
    w.snippets.insert(s);
    if (fileList?.length) setSnippetFiles(w, s, fileList);
    sendJson(ctx, 201, snippetJson(w, s));
  });
}

function visibleSnippet(ctx: Ctx): SnippetRec {
  const s = ctx.world.snippets.get(intSeg(ctx, 'id'));
  if (!s || !canReadSnippet(ctx.user, s)) throw E.notFound('Snippet');
  return s;
}

/**
 * Updates and deletes look only among the caller's own snippets, as the service does: anyone else's is
 * not found, administrators included (they read every snippet, but change only theirs).
 */
function ownSnippet(ctx: Ctx): SnippetRec {
  const s = ctx.world.snippets.get(intSeg(ctx, 'id'));
  if (!s || s.authorId !== ctx.user!.id) throw E.notFound('Snippet');
  return s;
}
