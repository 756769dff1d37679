// Offset and keyset pagination exactly as the real service renders them,
// plus lookup helpers shared by the route files.
import { ApiError, type Ctx, E, sendRawJson } from './core.js';
import type { ProjectRec } from './data.js';
import { decodeComponent } from './util.js';

/** Above this many records, X-Total, X-Total-Pages and rel="last" are omitted. */
export const COUNT_LIMIT = 10_000;

function rawParam(ctx: Ctx, name: string): string | undefined {
  const v = ctx.params[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'number') return String(v);
  if (typeof v === 'string') return v;
  return '\u0000invalid';
}

/** Integer parameter as Grape coerces it; non-integers give `{"error":"<name> is invalid"}`. */
export function intParam(ctx: Ctx, name: string): number | undefined {
  const v = rawParam(ctx, name);
  if (v === undefined || v === '') return undefined;
  if (!/^\s*[-+]?\d+\s*$/.test(v)) throw E.invalid(name);
  return Number(v);
}

export function strParam(ctx: Ctx, name: string): string | undefined {
  const v = ctx.params[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw E.invalid(name);
}

/** Route parameter that must be an integer. */
export function intSeg(ctx: Ctx, name: string): number {
  const v = ctx.p[name]!;
  if (!/^\d+$/.test(v)) throw E.invalid(name);
  return Number(v);
}

export interface PageReq {
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

/**
 * Offset pagination over `total` records; `fetch(offset, limit)` returns the
 * page. Sets every header of the reference in its order. `maxOffsetType`
 * enables the maximum-offset 405 (types that also support keyset).
 */
export function offsetPage<T>(ctx: Ctx, total: number, fetch: (offset: number, limit: number) => T[], maxOffsetType?: string): T[] {
  const { page, perPage, perPageRaw } = pageParams(ctx);
  const max = ctx.core.opts.maxOffset;
  if (maxOffsetType && max > 0 && page * perPageRaw > max) {
    throw new ApiError(405, {
      error: `Offset pagination has a maximum allowed offset of ${max} for requests that return objects of type ${maxOffsetType}. Remaining records can be retrieved using keyset pagination.`,
    });
  }
  const offset = (page - 1) * perPage;
  const items = offset < total ? fetch(offset, Math.min(perPage, total - offset)) : [];
  const counted = total <= COUNT_LIMIT;
  const totalPages = Math.max(1, Math.ceil(total / perPage));
  const hasNext = offset + perPage < total;
  const out = ctx.out;
  out.push(['X-Per-Page', String(perPage)]);
  out.push(['X-Page', String(page)]);
  out.push(['X-Next-Page', hasNext ? String(page + 1) : '']);
  out.push(['X-Prev-Page', page > 1 ? String(page - 1) : '']);
  const pp = String(perPageRaw);
  const links: string[] = [];
  const mk = (n: number) => linkUrl(ctx, [['page', String(n)], ['per_page', pp]], []);
  if (page > 1) links.push(`<${mk(page - 1)}>; rel="prev"`);
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

/** Serialize a list of plain objects and send it as 200. */
export function sendList(ctx: Ctx, items: unknown[], status = 200): void {
  sendRawJson(ctx, status, `[${items.map((x) => JSON.stringify(x)).join(',')}]`);
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

/**
 * Resolve the `:id` project parameter (numeric id or URL-encoded full path),
 * enforcing visibility, job-token scope and redirects of renamed projects.
 */
export function findProject(ctx: Ctx, name = 'id'): ProjectRec {
  const w = ctx.world;
  const v = ctx.p[name]!;
  let p: ProjectRec | undefined;
  let redirected = false;
  if (/^\d+$/.test(v)) p = w.projects[Number(v)];
  else if (v.includes('/')) {
    const f = w.findProjectByPath(v);
    if (f) {
      p = f.project;
      redirected = f.redirected;
    }
  }
  if (!p || !w.canReadProject(ctx.user, p)) throw E.notFound('Project');
  if (redirected) {
    if (ctx.method === 'GET' || ctx.method === 'HEAD') {
      const seg = ctx.rawP[name]!;
      const parts = ctx.rawPath.split('/');
      parts[seg.index] = String(p.id);
      const location = `http://${ctx.host}${parts.join('/')}${ctx.rawQuery ? `?${ctx.rawQuery}` : ''}`;
      throw new ApiError(301, `This resource has been moved permanently to ${location}`, { Location: location }, 'text/plain');
    }
    throw new ApiError(405, { message: 'Non GET methods are not allowed for moved projects' });
  }
  const t = ctx.token;
  if (t && t.kind === 'job' && t.projectId !== p.id) {
    const src = w.projects[t.projectId!]!;
    throw E.forbidden(`Authentication by CI/CD job token not allowed from ${src.fullPath} to ${p.fullPath}.`);
  }
  return p;
}

export function requireWrite(ctx: Ctx, p: ProjectRec): void {
  if (!ctx.world.canWriteProject(ctx.user, p)) throw E.forbidden();
}

export function requireWritable(ctx: Ctx, p: ProjectRec): void {
  if (p.readOnly) throw new ApiError(403, { message: '403 Forbidden - The repository is temporarily read-only. Please try again later.' });
  void ctx;
}
