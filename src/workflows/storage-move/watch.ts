/*
 * How the watch works (one loop for `schedule --wait`, `wait` and the rolling mode).
 *
 * Expected set: per kind, the containers on the source when the run starts. Projects come from
 * `GET /projects?repository_storage=SRC` (keyset by id); groups and snippets from the admin
 * storage filters when the instance has them and every record names its storage. Otherwise
 * ("unlisted") the set grows from move records SRC→DST created during this run, and only
 * `verify`'s history scan can find a container the bulk job skipped.
 *
 * Each poll, per kind:
 * 1. Discovery, only while the bulk job may still create moves: page the newest-first move list
 *    back to the high-water mark of the last poll (or this run's boundary: the newest move id
 *    before it started, or `--since`). A poll reads the moves created since the previous one.
 * 2. Refresh unfinished moves: continue paging only while one page covers more of them than it
 *    costs (ids are dense per kind, so the id gap estimates the pages); GET the rest one by one.
 *    Either way a poll costs O(unfinished moves), never O(history).
 * 3. Settle: `finished` and `cleanup failed` are moved; `failed` is re-scheduled singly while
 *    retries remain; a container the bulk job passed (it walks by id) or never reached within the
 *    grace gets a single move, once a fresh read shows it still on the source. A single POST that
 *    finds the container read-only adopts the move already running for it, however old or wherever
 *    it goes; an adopted move settles nothing by itself: when it ends, the container's storage is
 *    read again (destination: moved; source: scheduled again; elsewhere: not moved).
 * 4. Schedule queued single moves, keeping at most --max-in-flight non-final at once.
 *
 * `wait --since` pages back to that time on its first poll, however many pages it takes: every
 * SRC→DST move after it joins the set, so the totals are those of the run that printed it.
 * `wait` without `--since` has no boundary, so its set is the containers on the source now: its
 * first poll pages back far enough for twice the listed containers, then asks each container still
 * without a record for its latest move. A move
 * older than the container's newest move in another direction is history that move undid, and a
 * move that had landed before the listing showed the container on the source is adopted, not trusted.
 * Nothing is kept locally: a new process rebuilds all of this from the server.
 */
import type { Context } from '../../context.js';
import { ApiError } from '../../http/api-error.js';
import type { HttpClient } from '../../http/client.js';
import { getContainer } from '../../api/storage-containers.js';
import {
  getStorageMove,
  isAlreadyMoving,
  latestMoveOf,
  listStorageMoves,
  scheduleStorageMove,
  type MoveKind,
} from '../../api/storage-moves.js';
import { isUncertainFailure, KIND_NAMES } from './options.js';
import { sleep } from '../shared/wait.js';
import { formatProgressLine, type Progress } from './progress.js';
import type { KindTracker, TrackedContainer } from './tracker.js';

const PER_PAGE = 100;
const UNLISTED_WINDOW_PAGES = 50;

export interface WatchPlan {
  intervalMs: number;
  deadline?: number;
  maxInFlight: number;
  /** `wait` without a boundary: the first poll looks for moves that already exist. */
  rebuild: boolean;
}

export interface WatchStats {
  timedOut: boolean;
  polls: number;
  requests: number;
  maxRequestsPerPoll: number;
}

/** How long a bulk job may go without creating a move before the missing containers are scheduled singly. */
export function graceMs(intervalMs: number, sawMoves: boolean): number {
  return sawMoves ? Math.max(3 * intervalMs, 2_000) : Math.max(12 * intervalMs, 30_000);
}

export async function watchMoves(
  ctx: Context,
  http: HttpClient,
  trackers: KindTracker[],
  plan: WatchPlan,
  progress: Progress,
): Promise<WatchStats> {
  const stats: WatchStats = { timedOut: false, polls: 0, requests: 0, maxRequestsPerPoll: 0 };
  const warnedCleanup = new Set<string>();
  const sawMoves = new Set<MoveKind>();
  const startRequests = http.requestsSent;
  for (;;) {
    const before = http.requestsSent;
    const perKind: string[] = [];
    for (const tracker of trackers) {
      const kindBefore = http.requestsSent;
      const grace = graceMs(plan.intervalMs, sawMoves.has(tracker.kind));
      await pollKind(http, tracker, grace, plan.rebuild && stats.polls === 0);
      if (tracker.unfinishedMoveIds().length || [...tracker.containers.values()].some((c) => c.move)) sawMoves.add(tracker.kind);
      const { cleanupFailed } = tracker.evaluate(Date.now(), grace);
      for (const c of cleanupFailed) {
        const key = `${tracker.kind}:${c.id}`;
        if (warnedCleanup.has(key)) continue;
        warnedCleanup.add(key);
        ctx.warn(`${tracker.kind} ${c.label} (${c.id}) moved, but the copy on the source remains (cleanup failed): remove it by hand`);
      }
      for (const c of tracker.containers.values()) if (c.readStorage) await locate(ctx, http, tracker, c);
      await scheduleQueued(ctx, http, tracker, plan.maxInFlight);
      perKind.push(`${KIND_NAMES[tracker.kind]} ${http.requestsSent - kindBefore}`);
    }
    stats.polls++;
    const used = http.requestsSent - before;
    stats.maxRequestsPerPoll = Math.max(stats.maxRequestsPerPoll, used);
    ctx.debug(`poll ${stats.polls}: ${used} requests (${perKind.join(', ')})`);
    progress.update(trackers.map((t) => formatProgressLine(KIND_NAMES[t.kind], t.counts())));
    const now = Date.now();
    if (trackers.every((t) => t.done(now, graceMs(plan.intervalMs, sawMoves.has(t.kind))))) break;
    if (plan.deadline !== undefined && now >= plan.deadline) {
      stats.timedOut = true;
      break;
    }
    await sleep(Math.min(plan.intervalMs, plan.deadline === undefined ? plan.intervalMs : plan.deadline - now), ctx.signal);
  }
  stats.requests = http.requestsSent - startRequests;
  return stats;
}

async function pollKind(http: HttpClient, tracker: KindTracker, grace: number, rebuild: boolean): Promise<void> {
  const now = Date.now();
  const discovering = rebuild || tracker.needsDiscovery(now, grace);
  const pending = new Set(tracker.unfinishedMoveIds());
  const head = Math.max(tracker.newestMoveId, ...pending);
  const windowPages = tracker.options.listed ? Math.ceil((2 * tracker.containers.size) / PER_PAGE) + 1 : UNLISTED_WINDOW_PAGES;

  if (discovering || worthPaging(pending, head + 1)) {
    let pages = 0;
    let newest = tracker.newestMoveId;
    for await (const page of listStorageMoves(http, tracker.kind, { perPage: PER_PAGE })) {
      pages++;
      let reachedKnown = false;
      for (const move of page.items) {
        newest = Math.max(newest, move.id);
        // Ids grow with creation, so reaching the id after the mark means every newer move was on these pages.
        if (move.id <= tracker.newestMoveId + 1 || tracker.isBeforeRun(move)) reachedKnown = true;
        tracker.observe(move, now);
        pending.delete(move.id);
      }
      const oldest = page.items[page.items.length - 1]?.id ?? 0;
      // With a boundary, every move after it may belong to the set, so discovery pages back to it.
      const windowDone = !tracker.hasBoundary() && (pages >= windowPages || (tracker.options.listed && allHaveMoves(tracker)));
      const discoveryDone = !discovering || reachedKnown || (rebuild && windowDone);
      if (!page.hasNext || (discoveryDone && !worthPaging(pending, oldest))) break;
    }
    tracker.newestMoveId = newest;
  }
  for (const id of pending) {
    tracker.observe(await getStorageMove(http, tracker.kind, id), now);
  }
  if (rebuild && tracker.options.listed) await adoptLatestMoves(http, tracker, now);
}

/** Paging on is worth it when the pages needed to reach the oldest pending move are fewer than the GETs they save. */
function worthPaging(pending: Set<number>, belowId: number): boolean {
  const older = [...pending].filter((id) => id < belowId);
  if (!older.length) return false;
  return Math.ceil((belowId - Math.min(...older)) / PER_PAGE) <= older.length;
}

function allHaveMoves(tracker: KindTracker): boolean {
  for (const c of tracker.containers.values()) if (!c.move) return false;
  return true;
}

/** After a crash: a listed container with no move in the window asks for its own latest move, or gets a single move. */
async function adoptLatestMoves(http: HttpClient, tracker: KindTracker, now: number): Promise<void> {
  for (const c of tracker.containers.values()) {
    if (c.move) continue;
    const latest = await latestMoveOf(http, tracker.kind, c.id);
    if (latest && tracker.observe(latest, now)) continue;
    c.queued ??= 'missing';
  }
}

async function scheduleQueued(ctx: Context, http: HttpClient, tracker: KindTracker, maxInFlight: number): Promise<void> {
  const { destination } = tracker.options;
  for (const container of tracker.nextToSchedule(maxInFlight)) {
    const reason = container.queued === 'retry' ? 'retrying after a failed move' : container.queued === 'missing' ? 'no move from the bulk job' : 'scheduling';
    ctx.debug(`${tracker.kind} ${container.id}: ${reason}`);
    // The bulk job passes a container that is read-only or already gone from the source: look before moving it.
    if (container.queued === 'missing' && !container.uncertain && (await locate(ctx, http, tracker, container)) !== 'source') continue;
    try {
      if (container.uncertain) {
        const latest = await latestMoveOf(http, tracker.kind, container.id);
        if (latest && latest.id > (container.move?.id ?? 0) && !tracker.isBeforeRun(latest)) {
          tracker.scheduled(container, latest, Date.now());
          continue;
        }
      }
      tracker.scheduled(container, await scheduleStorageMove(http, tracker.kind, container.id, destination), Date.now());
    } catch (error) {
      if (isUncertainFailure(error) && !ctx.signal.aborted) {
        container.uncertain = true;
        ctx.debug(`${tracker.kind} ${container.id}: ${(error as Error).message}; will look again next poll`);
      } else if (isAlreadyMoving(error, tracker.kind)) {
        const running = await latestMoveOf(http, tracker.kind, container.id);
        if (running && running.id !== container.move?.id) tracker.scheduled(container, running, Date.now());
        else {
          tracker.settleFailed(container);
          ctx.warn(`${tracker.kind} ${container.label} (${container.id}) is read-only but no move is running for it; not moved`);
        }
      } else if (error instanceof ApiError && error.status === 404) {
        settleGone(ctx, tracker, container);
      } else {
        throw error;
      }
    }
  }
}

/** Reads where a container's repository is now and settles or queues it accordingly; a failed read is tried again next poll. */
async function locate(ctx: Context, http: HttpClient, tracker: KindTracker, container: TrackedContainer): Promise<string> {
  let storage: string | undefined;
  try {
    storage = (await getContainer(http, tracker.kind, String(container.id))).storage;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      settleGone(ctx, tracker, container);
      return 'gone';
    }
    if (!isUncertainFailure(error) || ctx.signal.aborted) throw error;
    ctx.debug(`${tracker.kind} ${container.id}: ${(error as Error).message}; will look again next poll`);
    return 'unknown';
  }
  const where = tracker.located(container, storage);
  if (where === 'elsewhere') {
    ctx.warn(`${tracker.kind} ${container.label} (${container.id}) is on ${storage ?? 'another storage'}, neither ${tracker.options.source} nor ${tracker.options.destination}; not moved`);
  }
  return where;
}

function settleGone(ctx: Context, tracker: KindTracker, container: TrackedContainer): void {
  tracker.settleFailed(container);
  ctx.warn(`${tracker.kind} ${container.label} (${container.id}) no longer exists; not moved`);
}
