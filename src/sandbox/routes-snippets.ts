// Personal snippets, with the sandbox's spam rule and the CAPTCHA flow.
import { ApiError, type Core, E, sendJson } from './core.js';
import type { SnippetRec, Visibility } from './data.js';
import { intSeg, offsetPage, sendList, strParam } from './paging.js';

/** Spam rule: any submitted text containing this (case-insensitive) is spam. */
export const SPAM_PATTERN = /cheap pills/i;
export const CAPTCHA_SITE_KEY = '6LeSandboxSiteKey-0000000000000000000000';

export function registerSnippetRoutes(core: Core): void {
  core.add('GET', '/snippets', { auth: 'user' }, (ctx) => {
    const w = ctx.world;
    const uid = ctx.user!.id;
    const mine = w.snippets.filter((s) => s && s.authorId === uid);
    const n = mine.length;
    const page = offsetPage(ctx, n, (off, lim) => {
      const out: SnippetRec[] = [];
      for (let k = off; k < off + lim; k++) out.push(mine[n - 1 - k]!);
      return out;
    });
    sendList(ctx, page.map((s) => w.snippetJson(s)));
  });

  core.add('GET', '/snippets/:id', { auth: 'public' }, (ctx) => {
    const w = ctx.world;
    const s = w.snippets[intSeg(ctx, 'id')];
    if (!s || !w.canReadSnippet(ctx.user, s)) throw E.notFound('Snippet');
    sendJson(ctx, 200, w.snippetJson(s));
  });

  core.add('POST', '/snippets', { auth: 'user' }, (ctx) => {
    const w = ctx.world;
    const title = strParam(ctx, 'title');
    if (!title) throw E.missing('title');
    const files = Array.isArray(ctx.params.files) ? (ctx.params.files as Array<Record<string, unknown>>) : null;
    const content = strParam(ctx, 'content');
    if (content === undefined && !files) throw new ApiError(400, { error: 'content, files are missing, exactly one parameter must be provided' });
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
      const log = typeof logIdText === 'string' && /^\d+$/.test(logIdText) ? w.spamLogs.get(Number(logIdText)) : undefined;
      const solved = typeof answer === 'string' && answer.trim() !== '' && log && log.userId === user.id && !log.used;
      if (!solved) {
        const id = w.newSpamLog(user.id);
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
      id: w.snippets.length,
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
    w.snippets.push(s);
    sendJson(ctx, 201, w.snippetJson(s));
  });
}
