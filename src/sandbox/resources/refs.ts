// What the ref listings (branches, tags, the tree) share: Gitaly's ref search and keyset pages, and
// the ref names git accepts.
import type { Ctx } from '../server/context.js';
import { ApiError } from '../server/errors.js';
import { keysetNext, pageParams } from '../server/paging.js';
import { strParam } from '../server/params.js';

/** Gitaly's ref search: `^x` prefix, `x$` suffix, `^x$` exact, else substring. */
export function refSearch(search: string | undefined): (name: string) => boolean {
  if (!search) return () => true;
  const prefix = search.startsWith('^');
  const suffix = search.endsWith('$') && search.length > (prefix ? 1 : 0);
  const core = search.slice(prefix ? 1 : 0, suffix ? -1 : undefined);
  return (name) => {
    if (prefix && suffix) return name === core;
    if (prefix) return name.startsWith(core);
    if (suffix) return name.endsWith(core);
    return name.includes(core);
  };
}

/**
 * Gitaly keyset pages (reference §7, GKP): the page after `page_token` (the key of the previous
 * page's last entry), and a `rel="next"` Link only after a full page; an unknown token → 422.
 */
export function gitalyKeysetPage<T>(ctx: Ctx, list: readonly T[], key: (item: T) => string): T[] {
  const { perPage } = pageParams(ctx);
  const token = strParam(ctx, 'page_token');
  let start = 0;
  if (token) {
    const at = list.findIndex((item) => key(item) === token);
    if (at < 0) throw new ApiError(422, { message: `could not find page token: ${token}` });
    start = at + 1;
  }
  const page = list.slice(start, start + perPage);
  if (page.length === perPage) keysetNext(ctx, [['page_token', key(page[page.length - 1]!)]], ['page']);
  return page;
}

/** A ref name git accepts (`git check-ref-format --branch`): no spaces, `..`, `~^:?*[\`, control characters. */
export function validRefName(name: string): boolean {
  if (!name || name === '@' || name.startsWith('-') || name.startsWith('/') || name.endsWith('/') || name.endsWith('.')) return false;
  if (/[\x00-\x20\x7f~^:?*[\\]|\.\.|\/\/|@\{|\.lock$|\/\./.test(name)) return false;
  return !name.startsWith('.');
}

/** The service's refusal of a tag that a protection rule keeps the user from creating. */
export const PROTECTED_TAG_CREATE = 'You are not allowed to create this tag as it is protected.';
