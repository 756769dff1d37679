// Repository storage moves for projects, snippets and groups: the state
// machine of the real service (initial → scheduled → started → replicated →
// finished; failed; cleanup failed), a bounded worker pool, and the bulk
// scheduler that creates moves gradually in the background.
import type { World } from './store/world.js';
import { rng } from './util/random.js';

export type MoveKind = 'project' | 'snippet' | 'group';
export const MOVE_KINDS: MoveKind[] = ['project', 'snippet', 'group'];

export interface MoveRec {
  id: number;
  kind: MoveKind;
  containerId: number;
  state: 'initial' | 'scheduled' | 'started' | 'replicated' | 'finished' | 'failed' | 'cleanup failed';
  source: string;
  dest: string;
  createdAt: number;
  updatedAt: number;
  errorMessage: string | null;
  outcome: 'ok' | 'failed' | 'cleanup';
  /** every state the move went through, in order (for tests; not rendered) */
  history: string[];
}

export interface MoveEngineOptions {
  moveMs: number;
  concurrency: number;
  failureRate: number;
  skipRate: number;
  seed: number;
  log?: (line: string) => void;
}

/** How many moves are in some states now, and the most there were at once. */
class StateGauge {
  current = 0;
  max = 0;

  constructor(private readonly states: ReadonlySet<string>) {}

  change(from: string, to: string): void {
    const was = this.states.has(from);
    const is = this.states.has(to);
    if (!was && is) this.max = Math.max(this.max, ++this.current);
    else if (was && !is) this.current--;
  }
}

export class MoveEngine {
  readonly moves: Record<MoveKind, MoveRec[]> = { project: [], snippet: [], group: [] };
  readonly byContainer: Record<MoveKind, Map<number, number[]>> = { project: new Map(), snippet: new Map(), group: new Map() };
  readonly byState: Record<string, number> = {};
  /** Lines the bulk scheduler logged for containers it skipped. */
  readonly skipped: string[] = [];
  created = 0;
  /** Moves a worker holds: what the worker pool bounds. */
  readonly running = new StateGauge(new Set(['started', 'replicated']));
  /** Moves not final yet: what a client's in-flight cap counts. */
  readonly unfinished = new StateGauge(new Set(['scheduled', 'started', 'replicated']));
  /** Scheduled moves in the job queue, oldest first, with the time a worker may take each. */
  private readonly queue: Array<{ move: MoveRec; readyAt: number }> = [];
  private pumpArmed = false;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly failedBefore = new Set<string>();
  private readonly failRng: () => number;
  private readonly skipRng: () => number;
  private closed = false;
  private bulkActive = 0;

  constructor(
    private readonly world: World,
    private readonly opts: MoveEngineOptions,
  ) {
    this.failRng = rng(opts.seed ^ 0x0f00_11ed);
    this.skipRng = rng(opts.seed ^ 0x05c1_9911);
  }

  /** Moves currently being created by bulk schedulers (for tests). */
  get bulkInProgress(): number {
    return this.bulkActive;
  }

  container(kind: MoveKind, id: number): { storage: string; readOnly: boolean; label: string } | null {
    if (kind === 'project') {
      const p = this.world.projects.get(id);
      return p ? { storage: p.storage, readOnly: p.readOnly, label: `Project ${p.fullPath} (${p.id})` } : null;
    }
    if (kind === 'snippet') {
      const s = this.world.snippets.get(id);
      return s ? { storage: s.storage, readOnly: s.readOnly, label: `Snippet ${s.id}` } : null;
    }
    const g = this.world.groups.get(id);
    return g ? { storage: g.storage, readOnly: g.readOnly, label: `Group ${g.fullPath} (${g.id})` } : null;
  }

  setReadOnly(kind: MoveKind, id: number, ro: boolean): void {
    if (kind === 'project') {
      const p = this.world.projects.get(id);
      if (p) p.readOnly = ro;
    } else if (kind === 'snippet') {
      const s = this.world.snippets.get(id);
      if (s) s.readOnly = ro;
    } else {
      const g = this.world.groups.get(id);
      if (g) g.readOnly = ro;
    }
  }

  private setStorage(kind: MoveKind, id: number, storage: string): void {
    if (kind === 'project') this.world.setProjectStorage(id, storage);
    else if (kind === 'snippet') {
      const s = this.world.snippets.get(id);
      if (s) s.storage = storage;
    } else {
      const g = this.world.groups.get(id);
      if (g) g.storage = storage;
    }
  }

  get(kind: MoveKind, id: number): MoveRec | null {
    return this.moves[kind][id - 1] ?? null;
  }

  /**
   * Create and schedule one move. Returns the record, or the validation
   * errors the real service renders as `{"message": errors}` with 400.
   */
  create(kind: MoveKind, containerId: number, dest: string | undefined): MoveRec | { errors: Record<string, string[]> } {
    const c = this.container(kind, containerId)!;
    const destination = dest ?? this.world.pickStorageByWeight();
    const errors: Record<string, string[]> = {};
    if (!this.world.storages.includes(destination)) errors.destination_storage_name = ['is not included in the list'];
    if (c.readOnly) errors[kind] = ['is read-only'];
    if (Object.keys(errors).length > 0) return { errors };
    const key = `${kind}:${containerId}`;
    const rate = this.failedBefore.has(key) ? this.opts.failureRate / 5 : this.opts.failureRate;
    const r = this.failRng();
    let outcome: MoveRec['outcome'] = 'ok';
    if (r < rate) outcome = 'failed';
    else if (this.opts.failureRate > 0 && this.failRng() < this.opts.failureRate / 10) outcome = 'cleanup';
    const now = Date.now();
    const m: MoveRec = {
      id: this.moves[kind].length + 1,
      kind,
      containerId,
      state: 'initial',
      source: c.storage,
      dest: destination,
      createdAt: now,
      updatedAt: now,
      errorMessage: null,
      outcome,
      history: ['initial'],
    };
    this.moves[kind].push(m);
    const list = this.byContainer[kind].get(containerId) ?? [];
    list.push(m.id);
    this.byContainer[kind].set(containerId, list);
    this.byState.initial = (this.byState.initial ?? 0) + 1;
    this.created++;
    // Created and scheduled at once, as the real service does: the container
    // turns read-only and the move waits in `scheduled` until a worker takes it.
    this.setReadOnly(kind, containerId, true);
    this.setState(m, 'scheduled');
    this.queue.push({ move: m, readyAt: now + this.opts.moveMs });
    this.pump();
    return m;
  }

  private setState(m: MoveRec, state: MoveRec['state']): void {
    const from = m.state;
    this.byState[from] = (this.byState[from] ?? 1) - 1;
    m.state = state;
    m.history.push(state);
    m.updatedAt = Date.now();
    this.byState[state] = (this.byState[state] ?? 0) + 1;
    this.running.change(from, state);
    this.unfinished.change(from, state);
  }

  private later(fn: () => void, ms: number): void {
    if (this.closed) return;
    const t = setTimeout(() => {
      this.timers.delete(t);
      if (!this.closed) fn();
    }, ms);
    t.unref();
    this.timers.add(t);
  }

  /**
   * Let free workers take queued moves (`scheduled → started`), each no
   * sooner than `moveMs` after it was scheduled; re-arm for the next one.
   */
  private pump(): void {
    const now = Date.now();
    while (this.running.current < this.opts.concurrency && this.queue.length > 0 && this.queue[0]!.readyAt <= now) {
      const m = this.queue.shift()!.move;
      this.setState(m, 'started');
      this.later(() => this.advance(m), this.opts.moveMs);
    }
    if (this.running.current < this.opts.concurrency && this.queue.length > 0 && !this.pumpArmed) {
      this.pumpArmed = true;
      this.later(() => {
        this.pumpArmed = false;
        this.pump();
      }, this.queue[0]!.readyAt - now);
    }
  }

  private advance(m: MoveRec): void {
    switch (m.state) {
      case 'started':
        if (m.outcome === 'failed') {
          this.setReadOnly(m.kind, m.containerId, false);
          m.errorMessage = 'Failed to replicate repository: checksum mismatch between source and destination';
          this.failedBefore.add(`${m.kind}:${m.containerId}`);
          this.setState(m, 'failed');
          this.pump();
          return;
        }
        this.setReadOnly(m.kind, m.containerId, false);
        this.setStorage(m.kind, m.containerId, m.dest);
        this.setState(m, 'replicated');
        this.later(() => this.advance(m), this.opts.moveMs);
        return;
      case 'replicated':
        if (m.outcome === 'cleanup') {
          m.errorMessage = 'Failed to remove the repository from the source storage';
          this.setState(m, 'cleanup failed');
        } else {
          this.setState(m, 'finished');
        }
        this.pump();
        return;
      default:
        return;
    }
  }

  /**
   * Bulk scheduling, like the real worker: iterate the containers on the
   * source storage in the background, a small batch every few milliseconds,
   * and silently skip (log only) those that cannot be scheduled.
   */
  bulk(kind: MoveKind, source: string, dest: string | undefined): void {
    let ids: number[];
    if (kind === 'project') ids = [...(this.world.storageIdx.get(source) ?? [])];
    else if (kind === 'snippet') ids = this.world.snippets.filter((s) => s && s.storage === source).map((s) => s.id);
    else ids = this.world.groups.filter((g) => g && g.storage === source).map((g) => g.id);
    let i = 0;
    const batch = 25;
    this.bulkActive++;
    const tick = () => {
      const end = Math.min(ids.length, i + batch);
      for (; i < end; i++) {
        const id = ids[i]!;
        const c = this.container(kind, id);
        if (!c || c.storage !== source) continue;
        let reason: string | null = null;
        if (c.readOnly) reason = `${kind} is read-only`;
        else if (this.opts.skipRate > 0 && this.skipRng() < this.opts.skipRate) reason = 'Gitaly is not reachable (skipped by the sandbox)';
        if (!reason) {
          const res = this.create(kind, id, dest);
          if ('errors' in res)
            reason = Object.entries(res.errors)
              .map(([k, v]) => `${k} ${v.join(', ')}`)
              .join('; ');
        }
        if (reason) {
          const line = `${c.label} was skipped: ${reason}`;
          this.skipped.push(line);
          this.opts.log?.(line);
        }
      }
      if (i < ids.length) this.later(tick, 2);
      else this.bulkActive--;
    };
    this.later(tick, 1);
  }

  close(): void {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}
