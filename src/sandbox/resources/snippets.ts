// Personal snippets: `GET /snippets` (own), `/snippets/public`,
// `/snippets/all`, `/snippets/:id`, `DELETE /snippets/:id`, and `POST /snippets` with the sandbox's
// spam rule and the CAPTCHA flow (reference §8).
import { canReadSnippet } from '../access.js';
import type { Ctx } from '../server/context.js';
import { ApiError, E } from '../server/errors.js';
import { pageOf } from '../server/paging.js';
import { intSeg, strParam, timeParam } from '../server/params.js';
import { sendJson, sendList } from '../server/respond.js';
import { storeFor } from '../store/collection.js';
import type { SnippetRec, Visibility } from '../store/records.js';
import type { World } from '../store/world.js';
import { iso } from '../util.js';
import type { Mounts } from './mounts.js';
import { userBasic } from './users.js';

/** Spam rule: any submitted text containing this (case-insensitive) is spam. */
const SPAM_PATTERN = /cheap pills/i;
const CAPTCHA_SITE_KEY = '6LeSandboxSiteKey-0000000000000000000000';

const spamLogs = storeFor(() => new Map<number, { userId: number; used: boolean }>());

function newSpamLog(w: World, userId: number): number {
  const logs = spamLogs(w);
  const id = logs.size + 1;
  logs.set(id, { userId, used: false });
  return id;
}

export function snippetJson(w: World, s: SnippetRec): Record<string, unknown> {
  const base = w.base();
  return {
    id: s.id,
    title: s.title,
    description: s.description,
    visibility: s.visibility,
    author: userBasic(w, w.users.get(s.authorId)!),
    created_at: iso(s.createdAt),
    updated_at: iso(s.updatedAt),
    project_id: null,
    web_url: `${base}/-/snippets/${s.id}`,
    raw_url: `${base}/-/snippets/${s.id}/raw`,
    ssh_url_to_repo: `git@${base.replace(/^https?:\/\//, '').replace(/:\d+$/, '')}:snippets/${s.id}.git`,
    http_url_to_repo: `${base}/snippets/${s.id}.git`,
    file_name: s.fileName,
    files: [{ path: s.fileName, raw_url: `${base}/-/snippets/${s.id}/raw/main/${s.fileName}` }],
    imported: false,
    imported_from: 'none',
  };
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
  root.get('/snippets', { auth: 'user' }, (ctx) => listSnippets(ctx, (s) => s.authorId === ctx.user!.id));
  root.get('/snippets/public', { auth: 'user' }, (ctx) => listSnippets(ctx, (s) => s.visibility === 'public'));
  root.get('/snippets/all', { auth: 'user' }, (ctx) => listSnippets(ctx, (s) => canReadSnippet(ctx.user, s)));
  root.get('/snippets/:id', { auth: 'public' }, (ctx) => {
    const s = ctx.world.snippets.get(intSeg(ctx, 'id'));
    if (!s || !canReadSnippet(ctx.user, s)) throw E.notFound('Snippet');
    sendJson(ctx, 200, snippetJson(ctx.world, s));
  });

  // Only the author (or an administrator) deletes; a snippet the caller cannot see is not found.
  root.delete('/snippets/:id', { auth: 'user' }, (ctx) => {
    const s = ctx.world.snippets.get(intSeg(ctx, 'id'));
    if (!s || !canReadSnippet(ctx.user, s)) throw E.notFound('Snippet');
    if (s.authorId !== ctx.user!.id && !ctx.user!.isAdmin) throw E.forbidden();
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
    const visibility = strParam(ctx, 'visibility') ?? 'private';
    if (!['public', 'internal', 'private'].includes(visibility)) throw E.notValid('visibility');
    const description = strParam(ctx, 'description') ?? null;
    const fileContent = files ? files.map((f) => String(f?.content ?? '')).join('\n') : (content ?? '');
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
    sendJson(ctx, 201, snippetJson(w, s));
  });
}
