// Top-level records (users, groups, projects, snippets) kept by id; the
// seeded ones are generated at start, created ones are appended.
export class Table<T extends { id: number }> {
  private readonly rows: Array<T | undefined> = [undefined];
  private live = 0;

  get(id: number): T | null {
    return Number.isInteger(id) && id > 0 ? (this.rows[id] ?? null) : null;
  }

  insert(rec: T): void {
    if (this.rows[rec.id] === undefined) this.live++;
    this.rows[rec.id] = rec;
  }

  /** Deletes a record; its id is never given out again. */
  remove(id: number): boolean {
    if (this.get(id) === null) return false;
    this.rows[id] = undefined;
    this.live--;
    return true;
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
