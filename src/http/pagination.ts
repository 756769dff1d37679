import { createHash } from 'node:crypto';
import { ExitCode, SvcError } from '../errors.js';
import { isMaxOffsetError } from './api-error.js';
import type { QueryParams } from './encode.js';
import { parseLinkHeader } from './link.js';
import type { ApiRequest, ApiResponse, Page, PaginateOptions } from './types.js';
import { apiRootTarget, displayPath, isUnder, redactUrl, resolveReference, targetHref, type Target } from './urls.js';
import { stringifyJson } from '../json.js';

/** What walking the pages needs from the client. */
export interface PageSource {
  readonly apiRoot: string;
  url(path: string, query?: QueryParams): string;
  request<T>(req: ApiRequest): Promise<ApiResponse<T>>;
  debug(line: string): void;
}

/**
 * Walks `Link: rel="next"` as the server wrote it; the caller stops whenever it has enough. Every
 * loop a hostile server could set up ends: the keyset fallback is taken once, a link already
 * followed (fragments aside) or a page already read ends the listing with one line. A keyset page
 * by id that goes back over ids already read ends it too, before any of that page is handed on.
 */
export async function* paginate<T>(
  source: PageSource,
  path: string,
  query: QueryParams | undefined,
  options: PaginateOptions<T>,
): AsyncGenerator<Page<T>> {
  let next: string | undefined = source.url(path, query);
  let lastItem: T | undefined;
  let lastId: number | undefined;
  let fellBack = false;
  const followed = new Set<string>();
  const pagesRead = new Map<string, number>();
  while (next) {
    followed.add(next);
    let res: ApiResponse<unknown>;
    try {
      res = await source.request<unknown>({ path: next });
    } catch (error) {
      const fallback = !fellBack && lastItem !== undefined && isMaxOffsetError(error) ? options.keysetFallback?.(lastItem) : undefined;
      if (!fallback) throw error;
      fellBack = true;
      next = source.url(fallback.path, fallback.query);
      source.debug('offset limit reached; continuing with keyset pagination');
      continue;
    }
    const where = `GET ${displayPath(res.url, source.apiRoot)}`;
    if (!Array.isArray(res.data)) {
      throw new SvcError(`${where} returned ${describeJson(res.data)} where a list was expected`, ExitCode.failure);
    }
    const items = res.data as T[];
    const link = parseLinkHeader(res.headers.link).next;
    const nextUrl = link && items.length ? nextPage(link, res.url, source.apiRoot, where) : undefined;
    if (nextUrl && followed.has(nextUrl)) {
      throw new SvcError(`the server's next-page link repeats a page already read (${redactUrl(nextUrl)})`, ExitCode.failure);
    }
    const order = keysetIdOrder(res.url);
    for (const item of items) {
      const id = (item as { id?: unknown } | null)?.id;
      if (typeof id !== 'number') continue;
      if (order && lastId !== undefined && (order === 'asc' ? id <= lastId : id >= lastId)) {
        throw new SvcError(
          `${where} returned id ${id} after id ${lastId}: the keyset page goes back over records already read; stopping`,
          ExitCode.failure,
        );
      }
      lastId = id;
    }
    if (items.length) {
      lastItem = items[items.length - 1];
      const fingerprint = pageFingerprint(items);
      const earlier = pagesRead.get(fingerprint);
      if (earlier !== undefined) {
        throw new SvcError(
          `${where} returned the same records as page ${earlier} of this listing; stopping after ${pagesRead.size + 1} pages`,
          ExitCode.failure,
        );
      }
      pagesRead.set(fingerprint, pagesRead.size + 1);
    }
    yield { items, headers: res.headers, url: res.url, hasNext: Boolean(nextUrl) };
    next = nextUrl;
  }
}

/** The next page's URL, checked: a valid URL, on the instance, under the API root. */
function nextPage(link: string, from: string, apiRoot: string, where: string): string {
  const root = apiRootTarget(apiRoot);
  const target = resolveReference(link, resolveReference(from, root) as Target);
  if (!target) throw new SvcError(`${where}: the server's next-page link is not a valid URL`, ExitCode.failure);
  if (target.origin !== root.origin) {
    throw new SvcError(
      `the pagination link points to another host (${target.origin}, not ${root.origin}); refusing to send credentials there`,
      ExitCode.failure,
    );
  }
  if (!isUnder(target, root)) throw new SvcError(`${where}: the server's next-page link leads outside ${root.path}`, ExitCode.failure);
  return targetHref(target);
}

/** The id order of a keyset page (the service's default sort is descending), or nothing for any other page. */
function keysetIdOrder(url: string): 'asc' | 'desc' | undefined {
  const query = new URL(url).searchParams;
  if (query.get('pagination') !== 'keyset' || query.get('order_by') !== 'id') return undefined;
  return query.get('sort') === 'asc' ? 'asc' : 'desc';
}

/**
 * A page's length and its first and last records: enough to know a page read before, cheap on every
 * page. Records with numeric ids are told apart by those (a page served again with a changed
 * `updated_at` is still a page read before); others by a hash of their content.
 */
function pageFingerprint(items: unknown[]): string {
  const first = (items[0] as { id?: unknown } | null)?.id;
  const last = (items[items.length - 1] as { id?: unknown } | null)?.id;
  if (typeof first === 'number' && typeof last === 'number') return `${items.length} ${first} ${last}`;
  return createHash('sha256')
    .update(stringifyJson([items.length, items[0], items[items.length - 1]]))
    .digest('hex');
}

export function describeJson(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'an empty body';
  if (Array.isArray(value)) return 'a JSON array';
  if (typeof value === 'object') return 'a JSON object';
  return `a JSON ${typeof value}`;
}
