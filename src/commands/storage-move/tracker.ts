import type { Container } from '../../api/storage-containers.js';
import { FINAL_STATES, moveContainer, type MoveKind, type MoveState, type StorageMove } from '../../api/storage-moves.js';

export type Outcome = 'finished' | 'cleanup failed' | 'failed';

export interface TrackedContainer {
  id: number;
  label: string;
  move?: { id: number; state: MoveState; error?: string | null };
  /** Ids of this container's moves that failed; each one followed by another move is a retry used. */
  failedMoveIds: Set<number>;
  /** Waiting for a single-container move scheduled by the client. */
  queued?: 'initial' | 'retry' | 'missing';
  /** Got a single move because the bulk job never created one for it. */
  scheduledSingly: boolean;
  /** The last POST for it failed without an answer: look for its move before posting again. */
  uncertain?: boolean;
  outcome?: Outcome;
}

export interface TrackerOptions {
  source: string;
  destination: string;
  maxRetries: number;
  /** The expected set came from a listing by storage, so a container without a move can be noticed. */
  listed: boolean;
  /** Containers moved SRC→DST within this run's boundary join the set (bulk jobs, resumed runs). */
  growFromMoves: boolean;
  /** Moves with an id up to this existed before the run and are never matched. */
  baselineMoveId?: number;
  /** Moves created before this time (server clock, ms) are never matched. */
  sinceMs?: number;
  /** Bulk mode: the service creates the moves; otherwise the client schedules every container singly. */
  bulk: boolean;
}

/**
 * What the client knows about one kind's moves, rebuilt from the server alone. Pure: the poller
 * feeds it move records and asks what to do next; it never does I/O itself.
 */
export class KindTracker {
  readonly kind: MoveKind;
  readonly options: TrackerOptions;
  readonly containers = new Map<number, TrackedContainer>();
  /** Discovery high-water mark: every move up to this id has been seen. */
  newestMoveId: number;
  /** When discovery last found a move this run cares about (ms). */
  lastNewMoveAt: number;
  /** Highest container id with a move, as of the previous poll: the bulk job walks containers by id. */
  private passedBelow = 0;
  private highestMovedContainer = 0;
  /** Newest move per container in any direction, so an older move never overrides a newer one. */
  private readonly newestAnyDirection = new Map<number, number>();

  constructor(kind: MoveKind, options: TrackerOptions, now: number) {
    this.kind = kind;
    this.options = options;
    this.newestMoveId = options.baselineMoveId ?? 0;
    this.lastNewMoveAt = now;
  }

  expect(container: Container): void {
    if (this.containers.has(container.id)) return;
    this.containers.set(container.id, {
      id: container.id,
      label: container.label,
      failedMoveIds: new Set(),
      queued: this.options.bulk ? undefined : 'initial',
      scheduledSingly: false,
    });
  }

  /** True when the record is before this run's boundary (created before it started). */
  isBeforeRun(move: StorageMove): boolean {
    if (this.options.baselineMoveId !== undefined && move.id <= this.options.baselineMoveId) return true;
    if (this.options.sinceMs !== undefined && Date.parse(move.created_at) < this.options.sinceMs) return true;
    return false;
  }

  /** Takes any move record of this kind; returns true when it told something new about a tracked container. */
  observe(move: StorageMove, now: number): boolean {
    const ref = moveContainer(move);
    if (!ref) return false;
    const newest = this.newestAnyDirection.get(ref.id) ?? 0;
    if (move.id > newest) this.newestAnyDirection.set(ref.id, move.id);
    const relevant = move.source_storage_name === this.options.source && !this.isBeforeRun(move);
    if (!relevant) return false;
    let container = this.containers.get(ref.id);
    if (!container) {
      // Only this container's newest move, and one to our destination, adds it to the set.
      if (!this.options.growFromMoves || move.destination_storage_name !== this.options.destination || move.id < newest) return false;
      this.expect({ id: ref.id, label: ref.label });
      container = this.containers.get(ref.id) as TrackedContainer;
    }
    if (move.state === 'failed') container.failedMoveIds.add(move.id);
    if (container.move && move.id < container.move.id) return false;
    const isNew = !container.move || container.move.id !== move.id;
    const changed = isNew || container.move?.state !== move.state;
    container.move = { id: move.id, state: move.state, error: move.error_message };
    if (isNew) {
      container.queued = undefined;
      this.lastNewMoveAt = now;
      this.highestMovedContainer = Math.max(this.highestMovedContainer, ref.id);
    }
    return changed;
  }

  /** A move the client created itself (the answer of a single-container POST). */
  scheduled(container: TrackedContainer, move: StorageMove, now: number): void {
    if (container.queued === 'missing') container.scheduledSingly = true;
    container.queued = undefined;
    container.uncertain = false;
    this.observe(move, now);
  }

  retriesUsed(container: TrackedContainer): number {
    const latestFailed = container.move?.state === 'failed' ? 1 : 0;
    return container.failedMoveIds.size - latestFailed;
  }

  /** Moves whose state the next poll must learn (not final yet). */
  unfinishedMoveIds(): number[] {
    const ids: number[] = [];
    for (const c of this.containers.values()) {
      if (c.move && !FINAL_STATES.has(c.move.state)) ids.push(c.move.id);
    }
    return ids;
  }

  inFlight(): number {
    return this.unfinishedMoveIds().length;
  }

  /** Whether the bulk job may still create moves this run must see. */
  needsDiscovery(now: number, graceMs: number): boolean {
    if (!this.options.bulk) return false;
    if (!this.options.listed) return now - this.lastNewMoveAt <= graceMs;
    for (const c of this.containers.values()) if (!c.move && !c.queued && !c.outcome) return true;
    return false;
  }

  /**
   * Settles final moves and decides which containers need a single-container move: a failed one
   * (while retries remain), or one the bulk job passed without a move (it walks containers by id,
   * so a gap below a container it reached in an earlier poll is a skip) or never reached in the grace.
   */
  evaluate(now: number, graceMs: number): { cleanupFailed: TrackedContainer[] } {
    const cleanupFailed: TrackedContainer[] = [];
    const quiet = now - this.lastNewMoveAt > graceMs;
    for (const c of this.containers.values()) {
      if (c.outcome || c.queued) continue;
      const state = c.move?.state;
      if (state === 'finished') c.outcome = 'finished';
      else if (state === 'cleanup failed') {
        c.outcome = 'cleanup failed';
        cleanupFailed.push(c);
      } else if (state === 'failed') {
        if (this.retriesUsed(c) < this.options.maxRetries) c.queued = 'retry';
        else c.outcome = 'failed';
      } else if (!c.move && this.options.bulk && (c.id < this.passedBelow || quiet)) {
        c.queued = 'missing';
      }
    }
    this.passedBelow = this.highestMovedContainer;
    return { cleanupFailed };
  }

  /** Containers to schedule now, keeping at most `maxInFlight` moves running. */
  nextToSchedule(maxInFlight: number): TrackedContainer[] {
    let room = maxInFlight - this.inFlight();
    const out: TrackedContainer[] = [];
    for (const c of this.containers.values()) {
      if (room <= 0) break;
      if (c.queued && !c.outcome) {
        out.push(c);
        room--;
      }
    }
    return out;
  }

  /** Every container settled, and the bulk job can no longer add one this run would not know. */
  done(now: number, graceMs: number): boolean {
    for (const c of this.containers.values()) if (!c.outcome) return false;
    return this.options.listed || !this.needsDiscovery(now, graceMs);
  }

  counts(): ProgressCounts {
    const counts: ProgressCounts = { total: this.containers.size, finished: 0, running: 0, waiting: 0, retrying: 0, failed: 0 };
    for (const c of this.containers.values()) {
      if (c.outcome === 'finished' || c.outcome === 'cleanup failed') counts.finished++;
      else if (c.outcome === 'failed') counts.failed++;
      else if (c.queued === 'retry') counts.retrying++;
      else if (c.move && c.move.state !== 'initial' && c.move.state !== 'scheduled') counts.running++;
      else counts.waiting++;
    }
    return counts;
  }
}

export interface ProgressCounts {
  total: number;
  finished: number;
  running: number;
  waiting: number;
  retrying: number;
  failed: number;
}
