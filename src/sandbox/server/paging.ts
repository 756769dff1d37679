// Offset and keyset pagination exactly as the real service renders them
// (reference §2).
import type { Ctx } from './context.js';
import { ApiError } from './errors.js';
import { intParam } from './params.js';
import { decodeComponent } from '../util/query.js';

/** Above this many records, X-Total, X-Total-Pages and rel="last" are omitted. */
const COUNT_LIMIT = 10_000;

interface PageReq {
  page: number;
  perPage: number;
  perPageRaw: number;
}

export function pageParams(ctx: Ctx): PageReq {
  const pp = intParam(ctx, 'per_page');
  const pg = intParam(ctx, 'page');
  if (pp === 0) throw new ApiError(400, { error: 'per_page has a value not allowed' });
  const perPageRaw = pp === undefined || pp < 0 ? 20 : pp;
  const perPage = Math.min(100, perPageRaw);
  const page = pg === undefined || pg < 1 ? 1 : pg;
  return { page, perPage, perPageRaw };
}

function linkUrl(ctx: Ctx, set: Array<[string, string]>, drop: string[]): string {
  const dropSet = new Set([...drop, ...set.map(([k]) => k)]);
  const kept: Array<{ key: string; text: string }> = [];
  for (const [k, v] of ctx.rawPairs) {
    let dk: string;
    try {
      dk = decodeComponent(k);
    } catch {
      dk = k;
    }
    if (dropSet.has(dk)) continue;
    kept.push({ key: dk, text: v === '' && !k.includes('=') ? `${k}=` : `${k}=${v}` });
  }
  for (const [k, v] of set) kept.push({ key: k, text: `${k}=${encodeURIComponent(v)}` });
  kept.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return `http://${ctx.host}${ctx.rawPath}?${kept.map((x) => x.text).join('&')}`;
}

interface OffsetOptions {
  /** enables the maximum-offset 405 (types that also support keyset) */
  maxOffsetType?: string;
  /** lists the service never counts (commits, project jobs) */
  uncounted?: boolean;
}

/**
 * Offset pagination over `total` records; `fetch(offset, limit)` returns the
 * page. Sets every header of the reference in its order.
 */
export function offsetPage<T>(ctx: Ctx, total: number, fetch: (offset: number, limit: number) => T[], opts: OffsetOptions = {}): T[] {
  const { page, perPage, perPageRaw } = pageParams(ctx);
  const max = ctx.core.opts.maxOffset;
  if (opts.maxOffsetType && max > 0 && page * perPageRaw > max) {
    throw new ApiError(405, {
      error: `Offset pagination has a maximum allowed offset of ${max} for requests that return objects of type ${opts.maxOffsetType}. Remaining records can be retrieved using keyset pagination.`,
    });
  }
  const offset = (page - 1) * perPage;
  const items = offset < total ? fetch(offset, Math.min(perPage, total - offset)) : [];
  const counted = !opts.uncounted && total <= COUNT_LIMIT;
  const totalPages = Math.max(1, Math.ceil(total / perPage));
  // An uncounted list reports a next page whenever this one is full (the next may be empty).
  const hasNext = opts.uncounted ? items.length === perPage : offset + perPage < total;
  // Kaminari has no previous page past the last one; an uncounted list's
  // reported total always reaches the current page.
  const hasPrev = page > 1 && (opts.uncounted || page <= totalPages);
  const out = ctx.out;
  out.push(['X-Per-Page', String(perPage)]);
  out.push(['X-Page', String(page)]);
  out.push(['X-Next-Page', hasNext ? String(page + 1) : '']);
  out.push(['X-Prev-Page', hasPrev ? String(page - 1) : '']);
  const pp = String(perPageRaw);
  const links: string[] = [];
  const mk = (n: number) =>
    linkUrl(
      ctx,
      [
        ['page', String(n)],
        ['per_page', pp],
      ],
      [],
    );
  if (hasPrev) links.push(`<${mk(page - 1)}>; rel="prev"`);
  if (hasNext) links.push(`<${mk(page + 1)}>; rel="next"`);
  links.push(`<${mk(1)}>; rel="first"`);
  if (counted) links.push(`<${mk(totalPages)}>; rel="last"`);
  out.push(['Link', links.join(', ')]);
  if (counted) {
    out.push(['X-Total', String(total)]);
    out.push(['X-Total-Pages', String(totalPages)]);
  }
  return items;
}

/** Offset pagination over an array already in answer order. */
export function pageOf<T>(ctx: Ctx, list: readonly T[], opts: OffsetOptions = {}): T[] {
  return offsetPage(ctx, list.length, (off, lim) => list.slice(off, off + lim), opts);
}

/** Keyset: only a Link rel="next" (absent when nothing more can follow). */
export function keysetNext(ctx: Ctx, set: Array<[string, string]>, drop: string[]): void {
  ctx.out.push(['Link', `<${linkUrl(ctx, set, drop)}>; rel="next"`]);
}

export function keysetNotAvailable(): ApiError {
  return new ApiError(405, { error: 'Keyset pagination is not yet available for this type of request' });
}

export function isKeyset(ctx: Ctx): boolean {
  return ctx.params.pagination === 'keyset';
}

export function encodeCursor(obj: Record<string, string>): string {
  return Buffer.from(JSON.stringify(obj)).toString('base64').replace(/=+$/, '');
}

export function decodeCursor(s: string): Record<string, string> | null {
  try {
    const v = JSON.parse(Buffer.from(s, 'base64').toString('utf8'));
    return v && typeof v === 'object' ? (v as Record<string, string>) : null;
  } catch {
    return null;
  }
}
