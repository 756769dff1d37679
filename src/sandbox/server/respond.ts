// Writing answers with the headers the service sets on every API response.
import type { Ctx } from './context.js';

function baseHeaders(ctx: Ctx, contentType: string, extra: Record<string, string>): void {
  const res = ctx.res;
  res.setHeader('X-Frame-Options', 'SAMEORIGIN');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Type', contentType);
  res.setHeader('X-Request-Id', ctx.requestId);
  res.setHeader('Cache-Control', 'max-age=0, private, must-revalidate');
  for (const [k, v] of ctx.out) res.setHeader(k, v);
  for (const [k, v] of Object.entries(extra)) res.setHeader(k, v);
}

export function sendText(ctx: Ctx, status: number, text: string | Buffer, contentType: string, extra: Record<string, string> = {}): void {
  baseHeaders(ctx, contentType, extra);
  ctx.res.statusCode = status;
  if (status === 204) {
    ctx.res.end();
    return;
  }
  ctx.res.setHeader('Content-Length', typeof text === 'string' ? Buffer.byteLength(text) : text.length);
  if (ctx.method !== 'GET' && typeof text === 'string' && contentType === 'application/json') ctx.answer = text;
  ctx.res.end(text);
}

/** Send an already-serialized JSON text. */
export function sendRawJson(ctx: Ctx, status: number, text: string, extra: Record<string, string> = {}): void {
  sendText(ctx, status, text, 'application/json', extra);
}

export function sendJson(ctx: Ctx, status: number, body: unknown, extra: Record<string, string> = {}): void {
  sendText(ctx, status, status === 204 ? '' : JSON.stringify(body), 'application/json', extra);
}

export function sendList(ctx: Ctx, items: unknown[]): void {
  sendRawJson(ctx, 200, `[${items.map((x) => JSON.stringify(x)).join(',')}]`);
}

/** A body streamed without a Content-Length (chunked), as Workhorse sends what Gitaly makes on the fly. */
export function sendStreamed(ctx: Ctx, status: number, body: Buffer, contentType: string, extra: Record<string, string> = {}): void {
  baseHeaders(ctx, contentType, extra);
  ctx.res.statusCode = status;
  const piece = 16 * 1024;
  for (let at = 0; at < body.length; at += piece) ctx.res.write(body.subarray(at, at + piece));
  ctx.res.end();
}
