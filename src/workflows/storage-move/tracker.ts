import type { Container } from '../../api/storage-containers.js';
import type { WorkflowHost } from '../shared/host.js';
import {
  FINAL_STATES,
  moveContainer,
  ON_DESTINATION_STATES,
  type MoveKind,
  type MoveState,
  type StorageMove,
} from '../../api/storage-moves.js';

export type Outcome = 'finished' | 'cleanup failed' | 'failed';

/** Final states with the repository on the destination. */
const LANDED_STATES: ReadonlySet<string> = new Set(['finished', 'cleanup failed']);

export interface TrackedMove {
  id: number;
  state: MoveState;
  error?: string | null;
  source: string;
  destination: string;
  /**
   * This move cannot settle the container by itself: it was adopted (it predates the run, or goes
   * elsewhere), so once it is final the client reads where the repository is.
   */
  adopted: boolean;
  /** When the client scheduled it (clock ms): its end tells how long moves take here. */
  scheduledAt?: number;
}

/**
 * Every container is always in exactly one of these, so the watch can always make progress:
 * queued (the client will POST), a live move (polled), its storage to read (after an adopted move
 * ended), settled (an outcome); and in bulk mode only, waiting for the bulk job within the grace.
 */
export interface TrackedContainer {
  id: number;
  label: string;
  move?: TrackedMove;
  /** Ids of this container's moves that failed; each one followed by another move is a retry used. */
  failedMoveIds: Set<number>;
  /** Waiting for a single-container move scheduled by the client. */
  queued?: 'initial' | 'retry' | 'missing';
  /** Got a single move because the bulk job never created one for it. */
  scheduledSingly: boolean;
  /** From the start-of-run listing (or named): it was on the source then. */
  onSourceAtStart: boolean;
  /** The last POST for it failed without an answer: look for its move before posting again. */
  uncertain?: boolean;
  /** Its adopted move ended: read where the repository is before settling it. */
  readStorage?: boolean;
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
  /** The newest move when the expected set was listed: an older move that had landed cannot have moved a container listed on the source. */
  listingMoveId?: number;
  /** Bulk mode: the service creates the moves; otherwise the client schedules every container singly. */
  bulk: boolean;
  /** Told when a container's move is new or has a new state. */
  onMoveChange?: (containerId: number, move: { id: number; state: string }) => void;
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
  /** Moves this run scheduled and then saw final, and when it scheduled its first (clock ms): the pace a rolling run looks at. */
  endedMoves = 0;
  firstScheduledAt?: number;
  /** Highest container id with a move, as of the previous poll: the bulk job walks containers by id. */
  private passedBelow = 0;
  private highestMovedContainer = 0;
  /** Newest move per container that is not SRC→DST: an older SRC→DST move is history it undid. */
  private readonly newestOtherDirection = new Map<number, number>();
  /** Per container of a kind grown from moves: its newest move, which had landed before a watch with no boundary began. */
  private readonly landedBeforeRun = new Map<number, number>();

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
      onSourceAtStart: true,
    });
  }

  /** Whether the first look of a watch with no boundary found moves of this kind that had landed before it. */
  foundLandedHistory(): boolean {
    return this.landedBeforeRun.size > 0;
  }

  /** Whether the run has a boundary (a newest move before it, or `--since`) that discovery can page back to. */
  hasBoundary(): boolean {
    return this.options.baselineMoveId !== undefined || this.options.sinceMs !== undefined;
  }

  /** True when the record is before this run's boundary (created before it started). */
  isBeforeRun(move: StorageMove): boolean {
    if (this.options.baselineMoveId !== undefined && move.id <= this.options.baselineMoveId) return true;
    if (this.options.sinceMs !== undefined && Date.parse(move.created_at) < this.options.sinceMs) return true;
    return false;
  }

  /**
   * Takes any move record of this kind; returns true when it told something new about a tracked
   * container. `history`: the record was read by the first look of a watch with no boundary, which
   * pages newest first through moves of earlier runs. A container whose newest move there had
   * already landed left the source before this run and is not in its totals, and only a
   * container's newest failure is this run's to retry: older ones were another run's retries.
   */
  observe(move: StorageMove, now: number, history = false): boolean {
    const ref = moveContainer(move);
    if (!ref) return false;
    let container = this.containers.get(ref.id);
    if (container?.move?.id === move.id) return this.record(container, move, container.move.adopted, now);
    const forward = move.source_storage_name === this.options.source && move.destination_storage_name === this.options.destination;
    const undoneAfter = this.newestOtherDirection.get(ref.id) ?? 0;
    if (!forward) {
      if (move.id > undoneAfter) this.newestOtherDirection.set(ref.id, move.id);
      return false;
    }
    if (move.id < undoneAfter || move.id <= (this.landedBeforeRun.get(ref.id) ?? 0) || this.isBeforeRun(move)) return false;
    if (!container) {
      if (!this.options.growFromMoves) return false;
      if (history && LANDED_STATES.has(move.state)) {
        this.landedBeforeRun.set(ref.id, move.id);
        return false;
      }
      this.expect({ id: ref.id, label: ref.label });
      container = this.containers.get(ref.id) as TrackedContainer;
      container.onSourceAtStart = false;
    }
    if (move.state === 'failed' && !(history && container.move && move.id < container.move.id)) container.failedMoveIds.add(move.id);
    if (container.move && move.id < container.move.id) return false;
    // Listed on the source, yet its move had already landed when it was listed: a later move may have brought it back.
    const stale = container.onSourceAtStart && move.id <= (this.options.listingMoveId ?? 0) && ON_DESTINATION_STATES.has(move.state);
    return this.record(container, move, stale, now);
  }

  /**
   * A move from the source that was already running when this run started: followed like a move
   * a single POST ran into, so nothing is posted for its container. An unlisted kind takes in only
   * moves to this run's destination.
   */
  adoptRunning(move: StorageMove, now: number): boolean {
    const ref = moveContainer(move);
    if (!ref || move.source_storage_name !== this.options.source) return false;
    if (!this.containers.has(ref.id)) {
      if (this.options.listed || !this.options.growFromMoves || move.destination_storage_name !== this.options.destination) return false;
      this.expect({ id: ref.id, label: ref.label });
      (this.containers.get(ref.id) as TrackedContainer).onSourceAtStart = false;
    }
    const container = this.containers.get(ref.id) as TrackedContainer;
    if (container.outcome || (container.move && container.move.id >= move.id)) return false;
    this.record(container, move, true, now);
    return true;
  }

  /** A move the client created or found for a queued container: recorded even when it predates the run or goes elsewhere. */
  scheduled(container: TrackedContainer, move: StorageMove, now: number): void {
    if (container.queued === 'missing') container.scheduledSingly = true;
    container.queued = undefined;
    container.uncertain = false;
    this.observe(move, now);
    if (move.id > (container.move?.id ?? 0)) this.record(container, move, true, now);
    if (container.move?.id === move.id && !FINAL_STATES.has(move.state)) {
      container.move.scheduledAt ??= now;
      this.firstScheduledAt ??= now;
    }
  }

  /**
   * Where the repository is now, read after its adopted move ended (or before a POST for a container
   * the bulk job passed). Undefined when the service does not say: the move's end tells.
   */
  located(container: TrackedContainer, storage: string | undefined): 'destination' | 'source' | 'elsewhere' {
    container.readStorage = false;
    const move = container.move;
    const where = storage ?? (move && (ON_DESTINATION_STATES.has(move.state) ? move.destination : move.source));
    if (where === this.options.destination) {
      container.queued = undefined;
      container.outcome = move?.state === 'cleanup failed' && move.destination === where ? 'cleanup failed' : 'finished';
      return 'destination';
    }
    if (where === undefined || where === this.options.source) {
      container.queued ??= this.options.bulk ? 'missing' : 'initial';
      return 'source';
    }
    this.settleFailed(container);
    return 'elsewhere';
  }

  /** Not moved, and nothing more the client can do for it (gone, read-only with no move, on a third storage). */
  settleFailed(container: TrackedContainer): void {
    container.queued = undefined;
    container.readStorage = false;
    container.outcome = 'failed';
  }

  private record(container: TrackedContainer, move: StorageMove, adopted: boolean, now: number): boolean {
    if (move.state === 'failed' && !adopted) container.failedMoveIds.add(move.id);
    const isNew = container.move?.id !== move.id;
    const changed = isNew || container.move?.state !== move.state;
    const scheduledAt = isNew ? undefined : container.move?.scheduledAt;
    if (scheduledAt !== undefined && changed && FINAL_STATES.has(move.state)) this.endedMoves++;
    container.move = {
      id: move.id,
      state: move.state,
      error: move.error_message,
      source: move.source_storage_name,
      destination: move.destination_storage_name,
      adopted,
      scheduledAt,
    };
    if (changed) this.options.onMoveChange?.(container.id, move);
    if (isNew) {
      container.queued = undefined;
      container.readStorage = false;
      if (!adopted) {
        this.lastNewMoveAt = now;
        this.highestMovedContainer = Math.max(this.highestMovedContainer, container.id);
      }
    }
    return changed;
  }

  retriesUsed(container: TrackedContainer): number {
    const latestFailed = container.move && container.failedMoveIds.has(container.move.id) ? 1 : 0;
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

  /** Containers waiting for the client to schedule a move. */
  queuedCount(): number {
    let n = 0;
    for (const c of this.containers.values()) if (c.queued && !c.outcome) n++;
    return n;
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
      if (c.outcome || c.queued || c.readStorage) continue;
      const state = c.move?.state;
      if (c.move?.adopted) {
        if (FINAL_STATES.has(c.move.state)) c.readStorage = true;
      } else if (state === 'finished') c.outcome = 'finished';
      else if (state === 'cleanup failed') {
        c.outcome = 'cleanup failed';
        cleanupFailed.push(c);
      } else if (state === 'failed') {
        if (this.retriesUsed(c) < this.options.maxRetries) c.queued = 'retry';
        else c.outcome = 'failed';
      } else if (!c.move && !this.options.bulk) {
        c.queued = 'initial';
      } else if (!c.move && (c.id < this.passedBelow || quiet)) {
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

/** What a tracker of `kind` tells the host when a move changes, if the host listens. */
export function moveChangesTo(host: WorkflowHost, kind: MoveKind): TrackerOptions['onMoveChange'] {
  const listener = host.moveChanged?.bind(host);
  return listener && ((containerId, move) => listener(kind, containerId, move));
}
