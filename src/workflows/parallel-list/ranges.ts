import { ExitCode, SvcError } from '../../errors.js';
import type { HttpClient } from '../../http/client.js';
import type { QueryParams } from '../../http/encode.js';
import { parseLinkHeader } from '../../http/link.js';
import type { Page } from '../../http/types.js';
import type { Throttle } from '../../http/throttle.js';

/** Most ids one range spans: a range walked ahead of its turn keeps at most this many records. */
const MAX_RANGE_IDS = 300;
/** More ranges than workers, so a dense range does not leave the others idle. */
const RANGES_PER_WORKER = 4;
/** Ranges walked or waiting for their turn, per worker: what bounds memory (about 450 records per worker). */
const LOOKAHEAD_PER_WORKER = 1.5;
/** A page the service rate limited past the client's own retries is asked for again this often. */
const RATE_LIMITED_RETRIES = 3;

type Sort = 'asc' | 'desc';

interface IdRange {
  first: number;
  last: number;
}

interface RangeState {
  pages: Array<Page<{ id: number }>>;
  finished: boolean;
  failure?: unknown;
  wake?: () => void;
}

export interface ParallelListing<T> {
  http: HttpClient;
  path: string;
  /** The listing's filters; order, paging and id bounds are set here. */
  query: QueryParams;
  workers: number;
  sort: Sort;
  /** The same listing one page after another, for a service whose id bounds make no sense. */
  sequential: () => AsyncGenerator<Page<T>>;
  /** A line for the person watching (stderr). */
  note: (line: string) => void;
}

/**
 * Every record of an id-ordered listing, in the order the sequential listing gives, fetched by
 * `workers` keyset walks over disjoint id ranges (`id_after` and `id_before` apply together).
 * Pages are handed on in order; a range finished ahead of its turn waits in memory, and no range
 * starts more than a few ahead of the one being written.
 */
export async function* parallelIdPages<T extends { id: number }>(listing: ParallelListing<T>): AsyncGenerator<Page<T>> {
  const bounds = await idBounds(listing);
  if (typeof bounds === 'string') {
    listing.note(`${bounds}; listing one page after another instead of in parallel`);
    yield* listing.sequential();
    return;
  }
  const ranges = splitIdSpace(listing, bounds);
  const throttle = listing.http.throttle(listing.workers);
  const states: Array<RangeState | undefined> = ranges.map(() => ({ pages: [], finished: false }));
  let head = 0;
  let started = 0;
  let walking = 0;
  let abandoned = false;
  const startMore = () => {
    while (walking < listing.workers && started < ranges.length && started < head + listing.workers * LOOKAHEAD_PER_WORKER) {
      const state = states[started] as RangeState;
      const range = ranges[started] as IdRange;
      started++;
      walking++;
      void walkRange(listing, range, state, throttle, () => abandoned).finally(() => {
        walking--;
        state.finished = true;
        wake(state);
        if (!abandoned) startMore();
      });
    }
  };
  try {
    startMore();
    for (; head < ranges.length; head++) {
      const state = states[head] as RangeState;
      for (;;) {
        const page = state.pages.shift();
        if (page) yield page as Page<T>;
        else if (state.failure !== undefined) throw state.failure;
        else if (state.finished) break;
        else await new Promise<void>((resolve) => (state.wake = resolve));
      }
      states[head] = undefined;
      startMore();
    }
  } finally {
    abandoned = true;
  }
}

function wake(state: RangeState): void {
  const resolve = state.wake;
  state.wake = undefined;
  resolve?.();
}

/**
 * The lowest and highest ids (two one-record requests), or why they cannot be trusted: a service
 * that ignores `sort` gives the same record both ways, and cut at those bounds the ranges would
 * hold one record of thousands.
 */
async function idBounds(listing: ParallelListing<unknown>): Promise<IdRange | undefined | string> {
  const probe = async (extra: QueryParams) => {
    const query = { ...listing.query, order_by: 'id', per_page: 1, pagination: 'keyset', ...extra };
    return (await fetchPage(listing, query)).data[0]?.id;
  };
  const [first, last] = await Promise.all([probe({ sort: 'asc' }), probe({ sort: 'desc' })]);
  if (first === undefined && last === undefined) return undefined;
  if (first === undefined || last === undefined) return 'the service listed records in one id order and none in the other';
  if (first > last) return `the service gave a lowest id (${first}) above its highest (${last})`;
  if (first === last) {
    // One record, or a service that ignores the order: any other record around it tells.
    const others = await Promise.all([probe({ sort: 'asc', id_after: first }), probe({ sort: 'desc', id_before: first })]);
    if (others.some((id) => id !== undefined)) return `the service gave the same lowest and highest id (${first}) though it holds more`;
  }
  return { first, last };
}

/** The id bounds cut into ranges in the listing's order. */
function splitIdSpace(listing: ParallelListing<unknown>, bounds: IdRange | undefined): IdRange[] {
  if (!bounds) return [];
  const { first: lowest, last: highest } = bounds;
  const span = highest - lowest + 1;
  const width = Math.max(1, Math.min(MAX_RANGE_IDS, Math.ceil(span / (listing.workers * RANGES_PER_WORKER))));
  const ranges: IdRange[] = [];
  for (let first = lowest; first <= highest; first += width) ranges.push({ first, last: Math.min(highest, first + width - 1) });
  return listing.sort === 'asc' ? ranges : ranges.reverse();
}

async function walkRange(
  listing: ParallelListing<unknown>,
  range: IdRange,
  state: RangeState,
  throttle: Throttle,
  abandoned: () => boolean,
): Promise<void> {
  const perPage = Number(listing.query.per_page ?? 100);
  const ascending = listing.sort === 'asc';
  let cursor = ascending ? range.first - 1 : range.last + 1;
  try {
    while (!abandoned()) {
      const query: QueryParams = {
        ...listing.query,
        order_by: 'id',
        sort: listing.sort,
        pagination: 'keyset',
        id_after: ascending ? cursor : range.first - 1,
        id_before: ascending ? range.last + 1 : cursor,
      };
      const res = await fetchWithSlot(listing, query, throttle);
      const items = res.data;
      for (const item of items) {
        if (item.id < range.first || item.id > range.last) {
          throw new SvcError(
            `GET ${listing.path} returned id ${item.id}, outside the ids ${range.first}..${range.last} asked for; list without --parallel`,
            ExitCode.failure,
          );
        }
        if (ascending ? item.id <= cursor : item.id >= cursor) {
          throw new SvcError(
            `GET ${listing.path} returned id ${item.id} after ${cursor}, against the order asked for; list without --parallel`,
            ExitCode.failure,
          );
        }
        cursor = item.id;
      }
      // A page shorter than asked is the range's last only when the service does not link a next one:
      // a service that serves fewer records per page than asked still says there are more.
      const more =
        items.length > 0 && cursor !== (ascending ? range.last : range.first) && (items.length >= perPage || hasNextLink(res.headers));
      if (items.length > 0) state.pages.push({ items, headers: res.headers, url: res.url, hasNext: more });
      wake(state);
      if (!more) return;
    }
  } catch (error) {
    state.failure = error;
  }
}

function hasNextLink(headers: Record<string, string>): boolean {
  return parseLinkHeader(headers.link).next !== undefined;
}

async function fetchWithSlot(listing: ParallelListing<unknown>, query: QueryParams, throttle: Throttle) {
  for (let attempt = 0; ; attempt++) {
    try {
      // A 429 the client retried, or a window close to spent, slows every worker, not only this one.
      return await throttle.run(() => fetchPage(listing, query));
    } catch (error) {
      if (!(error instanceof SvcError && error.exitCode === ExitCode.rateLimited) || attempt >= RATE_LIMITED_RETRIES) throw error;
    }
  }
}

async function fetchPage(listing: ParallelListing<unknown>, query: QueryParams) {
  const res = await listing.http.request<Array<{ id: number }>>({ path: listing.path, query });
  if (!Array.isArray(res.data) || !res.data.every((item) => typeof item?.id === 'number')) {
    throw new SvcError(`GET ${listing.path} returned something other than a list of records with ids`, ExitCode.failure);
  }
  return { data: res.data, headers: res.headers, url: res.url };
}
