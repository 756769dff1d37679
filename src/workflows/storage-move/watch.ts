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
import { ApiError } from '../../http/api-error.js';
import type { HttpClient } from '../../http/client.js';
import { getContainer } from '../../api/storage-containers.js';
import {
  getStorageMove,
  isAlreadyMoving,
  latestMoveOf,
  moveHistory,
  scheduleStorageMove,
  trackableMove,
  type MoveKind,
} from '../../api/storage-moves.js';
import type { Deadline } from '../shared/deadline.js';
import type { StatusLines, WorkflowHost } from '../shared/host.js';
import { isUncertainFailure, KIND_NAMES } from './kinds.js';
import { formatProgressLine } from './progress.js';
import type { KindTracker, TrackedContainer } from './tracker.js';

const PER_PAGE = 100;
const UNLISTED_WINDOW_PAGES = 50;
/** Rolling mode: the soonest look after a poll that scheduled moves; before any move ended it doubles while none ends, up to the interval. */
const REFILL_FIRST_LOOK_MS = 20;
/** Rolling mode: a look is worth its request once about this share of the slots should have freed (at least one). */
const REFILL_SHARE = 0.25;
/** Rolling mode: the shortest step between looks. */
const MIN_LOOK_MS = 5;
/** Single-container POSTs sent at once: a refill of many slots takes one round trip, not many. */
const SCHEDULE_CONCURRENCY = 20;

export interface WatchPlan {
  intervalMs: number;
  deadline: Deadline;
  maxInFlight: number;
  /** `wait`: the first poll looks for moves that already exist (back to the boundary, or through a window without one). */
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

/**
 * The time to the next poll. In the rolling mode a freed slot should be refilled soon, but each
 * look costs a request while the POSTs that refill are the same however the looks fall. Once moves
 * have ended, the pace they end at says when about a quarter of the slots should be free again:
 * svc looks then (at most every 5 ms, at least every interval), so a look finds several ends to
 * refill, not one or none. Before any move ended, it looks soon after a poll that scheduled one,
 * backing off while none ends.
 */
export function nextPollDelay(
  plan: Pick<WatchPlan, 'intervalMs' | 'maxInFlight'>,
  look: { previousMs: number; busy: boolean; refilled: boolean; endsPerMs?: number },
): number {
  if (!Number.isFinite(plan.maxInFlight) || !look.busy) return plan.intervalMs;
  if (look.endsPerMs) {
    const batch = Math.max(1, Math.round(plan.maxInFlight * REFILL_SHARE));
    return Math.min(Math.max(batch / look.endsPerMs, MIN_LOOK_MS), plan.intervalMs);
  }
  if (look.refilled) return Math.min(REFILL_FIRST_LOOK_MS, plan.intervalMs);
  return Math.min(look.previousMs * 2, plan.intervalMs);
}

/** How many of this run's moves end per ms, from its first POST to now; undefined before one ended. */
export function endsPerMs(trackers: KindTracker[], now: number): number | undefined {
  const ended = trackers.reduce((n, t) => n + t.endedMoves, 0);
  const started = Math.min(...trackers.map((t) => t.firstScheduledAt ?? Number.POSITIVE_INFINITY));
  return ended && now > started ? ended / (now - started) : undefined;
}

class WatchRun {
  readonly stats: WatchStats = { timedOut: false, polls: 0, requests: 0, maxRequestsPerPoll: 0 };
  private readonly warnedCleanup = new Set<string>();
  private readonly cleanupFailedByKind = new Map<MoveKind, number>();
  private readonly sawMoves = new Set<MoveKind>();

  constructor(
    private readonly host: WorkflowHost,
    private readonly http: HttpClient,
    private readonly trackers: KindTracker[],
    private readonly plan: WatchPlan,
  ) {}

  grace(tracker: KindTracker): number {
    return graceMs(this.plan.intervalMs, this.sawMoves.has(tracker.kind));
  }

  /** One poll of every kind; returns how many single moves it scheduled. */
  async poll(): Promise<number> {
    const { host, http } = this;
    const before = http.requestsSent;
    const perKind: string[] = [];
    let scheduled = 0;
    for (const tracker of this.trackers) {
      const kindBefore = http.requestsSent;
      await pollKind(http, tracker, this.grace(tracker), this.plan.rebuild && this.stats.polls === 0, host.clock.now());
      // Moves that landed before a watch with no boundary also show the bulk job has been at work.
      const moving = tracker.unfinishedMoveIds().length || [...tracker.containers.values()].some((c) => c.move);
      if (moving || tracker.foundLandedHistory()) this.sawMoves.add(tracker.kind);
      const { cleanupFailed } = tracker.evaluate(host.clock.now(), this.grace(tracker));
      for (const c of cleanupFailed) this.noteCleanupFailed(tracker.kind, c);
      for (const c of tracker.containers.values()) if (c.readStorage) await locate(host, http, tracker, c);
      scheduled += await scheduleQueued(host, http, tracker, this.plan);
      perKind.push(`${KIND_NAMES[tracker.kind]} ${http.requestsSent - kindBefore}`);
    }
    this.stats.polls++;
    const used = http.requestsSent - before;
    this.stats.maxRequestsPerPoll = Math.max(this.stats.maxRequestsPerPoll, used);
    host.debug(`poll ${this.stats.polls}: ${used} requests (${perKind.join(', ')})`);
    return scheduled;
  }

  /** On a terminal one line per container; in a log one line at the end with the count. */
  private noteCleanupFailed(kind: MoveKind, c: TrackedContainer): void {
    const key = `${kind}:${c.id}`;
    if (this.warnedCleanup.has(key)) return;
    this.warnedCleanup.add(key);
    this.cleanupFailedByKind.set(kind, (this.cleanupFailedByKind.get(kind) ?? 0) + 1);
    if (this.host.interactive)
      this.host.warn(`${kind} ${c.label} (${c.id}) moved, but the copy on the source remains (cleanup failed): remove it by hand`);
  }

  reportCleanupFailed(): void {
    if (this.host.interactive || !this.cleanupFailedByKind.size) return;
    const counts = [...this.cleanupFailedByKind].map(([kind, n]) => `${n} ${KIND_NAMES[kind]}`);
    const total = [...this.cleanupFailedByKind.values()].reduce((a, b) => a + b, 0);
    this.host.warn(
      `${total} moved ${total === 1 ? 'repository keeps its copy' : 'repositories keep their copies'} on the source (cleanup failed: ${counts.join(', ')}): remove them by hand; their ids are the summary's cleanup_failed_ids (-o json)`,
    );
  }

  allDone(): boolean {
    const now = this.host.clock.now();
    return this.trackers.every((t) => t.done(now, this.grace(t)));
  }

  /** Moves running or containers waiting for a slot. */
  busy(): boolean {
    return this.trackers.some((t) => t.queuedCount() > 0 || t.inFlight() > 0);
  }
}

export async function watchMoves(
  host: WorkflowHost,
  http: HttpClient,
  trackers: KindTracker[],
  plan: WatchPlan,
  status: StatusLines,
): Promise<WatchStats> {
  const run = new WatchRun(host, http, trackers, plan);
  const startRequests = http.requestsSent;
  let delay = plan.intervalMs;
  for (;;) {
    const raced = await plan.deadline.race(run.poll());
    if (raced.expired) {
      run.stats.timedOut = true;
      break;
    }
    status.update(trackers.map((t) => formatProgressLine(KIND_NAMES[t.kind], t.counts())));
    if (run.allDone()) break;
    const pace = endsPerMs(trackers, host.clock.now());
    delay = nextPollDelay(plan, { previousMs: delay, busy: run.busy(), refilled: raced.value > 0, endsPerMs: pace });
    await host.clock.sleep(Math.min(delay, plan.deadline.remainingMs()), host.signal);
    if (plan.deadline.expired()) {
      run.stats.timedOut = true;
      break;
    }
  }
  run.reportCleanupFailed();
  run.stats.requests = http.requestsSent - startRequests;
  return run.stats;
}

async function pollKind(http: HttpClient, tracker: KindTracker, grace: number, rebuild: boolean, now: number): Promise<void> {
  const discovering = rebuild || tracker.needsDiscovery(now, grace);
  const pending = new Set(tracker.unfinishedMoveIds());
  const head = Math.max(tracker.newestMoveId, ...pending);
  const windowPages = tracker.options.listed ? Math.ceil((2 * tracker.containers.size) / PER_PAGE) + 1 : UNLISTED_WINDOW_PAGES;

  if (discovering || worthPaging(pending, head + 1)) {
    let pages = 0;
    let newest = tracker.newestMoveId;
    let oldest = Number.POSITIVE_INFINITY;
    let reachedKnown = false;
    for await (const page of moveHistory(http, tracker.kind, PER_PAGE)) {
      pages++;
      for (const move of page.items) {
        newest = Math.max(newest, move.id);
        oldest = Math.min(oldest, move.id);
        // Ids grow with creation, so reaching the id after the mark means every newer move was on these pages.
        if (move.id <= tracker.newestMoveId + 1 || tracker.isBeforeRun(move)) reachedKnown = true;
        tracker.observe(move, now, rebuild && !tracker.hasBoundary());
        pending.delete(move.id);
      }
      // With a boundary, every move after it may belong to the set, so discovery pages back to it.
      const windowDone = !tracker.hasBoundary() && (pages >= windowPages || (tracker.options.listed && allHaveMoves(tracker)));
      const discoveryDone = !discovering || reachedKnown || (rebuild && windowDone);
      if (!page.hasNext || (discoveryDone && !worthPaging(pending, oldest))) break;
    }
    tracker.newestMoveId = newest;
  }
  for (const id of pending) {
    tracker.observe(trackableMove(await getStorageMove(http, tracker.kind, id), `GET move ${id}`), now);
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

/** Schedules queued containers while slots are free, a few POSTs at a time; stops at the deadline, whose report is already out. */
async function scheduleQueued(host: WorkflowHost, http: HttpClient, tracker: KindTracker, plan: WatchPlan): Promise<number> {
  const batch = tracker.nextToSchedule(plan.maxInFlight);
  let scheduled = 0;
  for (let i = 0; i < batch.length && !plan.deadline.expired(); i += SCHEDULE_CONCURRENCY) {
    const results = await Promise.allSettled(batch.slice(i, i + SCHEDULE_CONCURRENCY).map((c) => scheduleOne(host, http, tracker, c)));
    for (const result of results) {
      if (result.status === 'rejected') throw result.reason;
      if (result.value) scheduled++;
    }
  }
  return scheduled;
}

/** One single-container move; false when a read showed the container needs none. */
async function scheduleOne(host: WorkflowHost, http: HttpClient, tracker: KindTracker, container: TrackedContainer): Promise<boolean> {
  const reason =
    container.queued === 'retry'
      ? 'retrying after a failed move'
      : container.queued === 'missing'
        ? 'no move from the bulk job'
        : 'scheduling';
  host.debug(`${tracker.kind} ${container.id}: ${reason}`);
  // The bulk job passes a container that is read-only or already gone from the source: look before moving it.
  if (container.queued === 'missing' && !container.uncertain && (await locate(host, http, tracker, container)) !== 'source') return false;
  try {
    if (container.uncertain) {
      const latest = await latestMoveOf(http, tracker.kind, container.id);
      if (latest && latest.id > (container.move?.id ?? 0) && !tracker.isBeforeRun(latest)) {
        tracker.scheduled(container, latest, host.clock.now());
        return true;
      }
    }
    tracker.scheduled(
      container,
      await scheduleStorageMove(http, tracker.kind, container.id, tracker.options.destination),
      host.clock.now(),
    );
  } catch (error) {
    if (isUncertainFailure(error) && !host.signal.aborted) {
      container.uncertain = true;
      host.debug(`${tracker.kind} ${container.id}: ${(error as Error).message}; will look again next poll`);
    } else if (isAlreadyMoving(error, tracker.kind)) {
      const running = await latestMoveOf(http, tracker.kind, container.id);
      if (running && running.id !== container.move?.id) tracker.scheduled(container, running, host.clock.now());
      else {
        tracker.settleFailed(container);
        host.warn(`${tracker.kind} ${container.label} (${container.id}) is read-only but no move is running for it; not moved`);
      }
    } else if (error instanceof ApiError && error.status === 404) {
      settleGone(host, tracker, container);
    } else {
      throw error;
    }
  }
  return true;
}

/** Reads where a container's repository is now and settles or queues it accordingly; a failed read is tried again next poll. */
async function locate(host: WorkflowHost, http: HttpClient, tracker: KindTracker, container: TrackedContainer): Promise<string> {
  let storage: string | undefined;
  try {
    storage = (await getContainer(http, tracker.kind, String(container.id))).storage;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      settleGone(host, tracker, container);
      return 'gone';
    }
    if (!isUncertainFailure(error) || host.signal.aborted) throw error;
    host.debug(`${tracker.kind} ${container.id}: ${(error as Error).message}; will look again next poll`);
    return 'unknown';
  }
  const where = tracker.located(container, storage);
  if (where === 'elsewhere') {
    host.warn(
      `${tracker.kind} ${container.label} (${container.id}) is on ${storage ?? 'another storage'}, neither ${tracker.options.source} nor ${tracker.options.destination}; not moved`,
    );
  }
  return where;
}

function settleGone(host: WorkflowHost, tracker: KindTracker, container: TrackedContainer): void {
  tracker.settleFailed(container);
  host.warn(`${tracker.kind} ${container.label} (${container.id}) no longer exists; not moved`);
}
