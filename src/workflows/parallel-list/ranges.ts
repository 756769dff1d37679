import { ExitCode, SvcError } from '../../errors.js';
import type { HttpClient } from '../../http/client.js';
import type { QueryParams } from '../../http/encode.js';
import type { Page } from '../../http/types.js';
import { InFlightLimit } from '../bulk/limit.js';
import { systemClock } from '../shared/clock.js';
import { RequestSlots } from './slots.js';

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

export interface ParallelListing {
  http: HttpClient;
  path: string;
  /** The listing's filters; order, paging and id bounds are set here. */
  query: QueryParams;
  workers: number;
  sort: Sort;
}

/**
 * Every record of an id-ordered listing, in the order the sequential listing gives, fetched by
 * `workers` keyset walks over disjoint id ranges (`id_after` and `id_before` apply together).
 * Pages are handed on in order; a range finished ahead of its turn waits in memory, and no range
 * starts more than a few ahead of the one being written.
 */
export async function* parallelIdPages<T extends { id: number }>(listing: ParallelListing): AsyncGenerator<Page<T>> {
  const ranges = await splitIdSpace(listing);
  const limit = new InFlightLimit(listing.workers, systemClock);
  const slots = new RequestSlots(limit);
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
      void walkRange(listing, range, state, slots, limit, () => abandoned).finally(() => {
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

/** The lowest and highest ids (two one-record requests), cut into ranges in the listing's order. */
async function splitIdSpace(listing: ParallelListing): Promise<IdRange[]> {
  const edge = async (sort: Sort) => {
    const query = { ...listing.query, order_by: 'id', sort, per_page: 1, pagination: 'keyset' };
    return (await fetchPage(listing, query)).data[0]?.id;
  };
  const [lowest, highest] = await Promise.all([edge('asc'), edge('desc')]);
  if (lowest === undefined || highest === undefined) return [];
  const span = highest - lowest + 1;
  const width = Math.max(1, Math.min(MAX_RANGE_IDS, Math.ceil(span / (listing.workers * RANGES_PER_WORKER))));
  const ranges: IdRange[] = [];
  for (let first = lowest; first <= highest; first += width) ranges.push({ first, last: Math.min(highest, first + width - 1) });
  return listing.sort === 'asc' ? ranges : ranges.reverse();
}

async function walkRange(
  listing: ParallelListing,
  range: IdRange,
  state: RangeState,
  slots: RequestSlots,
  limit: InFlightLimit,
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
      const res = await fetchWithSlot(listing, query, slots, limit);
      const items = res.data;
      for (const item of items) {
        const inOrder = ascending ? item.id > cursor : item.id < cursor;
        if (!inOrder || item.id < range.first || item.id > range.last) {
          throw new SvcError(`GET ${listing.path} returned id ${item.id} outside the id range asked for`, ExitCode.failure);
        }
        cursor = item.id;
      }
      if (items.length > 0) state.pages.push({ items, headers: res.headers, url: res.url, hasNext: items.length === perPage });
      wake(state);
      // A short page, or one that reached the range's edge, is the range's last: no empty page to ask for.
      if (items.length < perPage || cursor === (ascending ? range.last : range.first)) return;
    }
  } catch (error) {
    state.failure = error;
  }
}

async function fetchWithSlot(listing: ParallelListing, query: QueryParams, slots: RequestSlots, limit: InFlightLimit) {
  for (let attempt = 0; ; attempt++) {
    await slots.acquire();
    try {
      // A 429 the client retried, or a window close to spent, slows every worker, not only this one.
      const res = await limit.watch(() => fetchPage(listing, query));
      limit.succeeded();
      return res;
    } catch (error) {
      if (!(error instanceof SvcError && error.exitCode === ExitCode.rateLimited) || attempt >= RATE_LIMITED_RETRIES) throw error;
    } finally {
      slots.release();
    }
  }
}

async function fetchPage(listing: ParallelListing, query: QueryParams) {
  const res = await listing.http.request<Array<{ id: number }>>({ path: listing.path, query });
  if (!Array.isArray(res.data) || !res.data.every((item) => typeof item?.id === 'number')) {
    throw new SvcError(`GET ${listing.path} returned something other than a list of records with ids`, ExitCode.failure);
  }
  return { data: res.data, headers: res.headers, url: res.url };
}
