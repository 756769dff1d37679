// Top-level records (users, groups, projects, snippets) kept by id; the
// seeded ones are generated at start, created ones are appended.
export class Table<T extends { id: number }> {
  private readonly rows: Array<T | undefined> = [undefined];
  private live = 0;
  /** Removed ids whose references now resolve to another record (a deleted user's to the ghost user). */
  private readonly merged = new Map<number, T>();

  /** The record of `id`, or the one it was merged into. */
  get(id: number): T | null {
    return this.own(id) ?? this.merged.get(id) ?? null;
  }

  /** The record of `id` itself, never the one a removed id was merged into. */
  own(id: number): T | null {
    return Number.isInteger(id) && id > 0 ? (this.rows[id] ?? null) : null;
  }

  insert(rec: T): void {
    if (this.rows[rec.id] === undefined) this.live++;
    this.rows[rec.id] = rec;
  }

  /** Deletes a record; its id is never given out again. */
  remove(id: number): boolean {
    if (this.own(id) === null) return false;
    this.rows[id] = undefined;
    this.live--;
    return true;
  }

  /** Removes a record; what still refers to its id sees `into` from now on. */
  mergeInto(id: number, into: T): void {
    if (this.remove(id)) this.merged.set(id, into);
  }

  nextId(): number {
    return this.rows.length;
  }

  /** Number of records. */
  get size(): number {
    return this.live;
  }

  /** Records in id order. */
  *[Symbol.iterator](): IterableIterator<T> {
    for (const r of this.rows) if (r !== undefined) yield r;
  }

  filter(keep: (rec: T) => boolean): T[] {
    const out: T[] = [];
    for (const r of this) if (keep(r)) out.push(r);
    return out;
  }
}
