// Lists over many projects (the issues or merge requests of a group or of the instance) read
// project by project only as far as the requested page needs. Seeded records fall in a time
// window that follows from their project's creation time, so when projects are read in the
// order of those windows, every record beyond the window of the next unread project is in its
// final place. Lists longer than the service counts (10,000) need no total; shorter ones, and
// orders without windows, are read whole, as before.
import type { Ctx } from '../server/context.js';
import { pageParams } from '../server/paging.js';
import type { Compare } from '../store/collection.js';
import type { ProjectRec } from '../store/records.js';

/** The service stops counting past this many records (paging.ts answers no X-Total then). */
const COUNTED = 10_000;
/** Projects read in the first step; each further step reads twice as many. */
const FIRST_STEP = 256;

export interface ScanSource<T> {
  /** Every project in the list's scope the caller may read. */
  projects: ProjectRec[];
  /** A project's records the filters keep, in any order. */
  records(p: ProjectRec): T[];
  /** The order (ascending) and whether the answer is reversed. */
  compare: Compare<T>;
  desc: boolean;
  /**
   * The key `compare` orders by first, and for a project whose records are all seeded the
   * range that key takes there; null when the records may be anywhere (written through the
   * API, or an order without windows), which makes the project read first.
   */
  key(t: T): number;
  window(p: ProjectRec): [number, number] | null;
}

export class OrderedScan<T> {
  /** records in their final order */
  private readonly done: T[] = [];
  /** records read but not yet known to be in place */
  private pending: T[] = [];
  /** projects with a window, in the order of their windows, and the bound each window ends at */
  private readonly queue: ProjectRec[];
  private readonly bounds: number[];
  private next = 0;
  private step = FIRST_STEP;
  private readonly order: Compare<T>;

  constructor(private readonly source: ScanSource<T>) {
    const { projects, desc } = source;
    const windowed: Array<[ProjectRec, number]> = [];
    for (const p of projects) {
      const range = source.window(p);
      if (range === null) this.pending.push(...source.records(p));
      else windowed.push([p, desc ? range[1] : range[0]]);
    }
    windowed.sort((a, b) => (desc ? b[1] - a[1] : a[1] - b[1]));
    this.queue = windowed.map(([p]) => p);
    this.bounds = windowed.map(([, bound]) => bound);
    this.order = desc ? (a, b) => source.compare(b, a) : source.compare;
  }

  /** At least `n` records in order, or every one when there are fewer. */
  take(n: number): T[] {
    while (this.done.length < n && this.next < this.queue.length) {
      const end = Math.min(this.queue.length, this.next + this.step);
      for (; this.next < end; this.next++) this.pending.push(...this.source.records(this.queue[this.next]!));
      this.step *= 2;
      this.settle();
    }
    if (this.next >= this.queue.length && this.pending.length > 0) {
      this.done.push(...this.pending.sort(this.order));
      this.pending = [];
    }
    return this.done;
  }

  /** Moves to `done` the pending records no unread project can come before. */
  private settle(): void {
    this.pending.sort(this.order);
    if (this.next >= this.queue.length) return;
    const bound = this.bounds[this.next]!;
    const { key, desc } = this.source;
    let cut = 0;
    while (cut < this.pending.length && (desc ? key(this.pending[cut]!) > bound : key(this.pending[cut]!) < bound)) cut++;
    this.done.push(...this.pending.slice(0, cut));
    this.pending = this.pending.slice(cut);
  }

  /**
   * The records the answer to this request pages over: all of them, or, for a long list, enough
   * to fill the page, show that another follows, and pass the count the service stops at.
   */
  forPage(ctx: Ctx): T[] {
    const { page, perPage } = pageParams(ctx);
    return this.take(Math.max(page * perPage + 1, COUNTED + 1));
  }
}
