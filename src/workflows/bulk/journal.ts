import { appendFile, readFile } from 'node:fs/promises';
import { SvcError } from '../../errors.js';

/**
 * The inputs that succeeded, one JSON string per line, so a rerun with the same journal skips them.
 * Items that failed are not recorded: a rerun tries them again.
 */
export class Journal {
  private constructor(
    private readonly path: string,
    private readonly done: Set<string>,
  ) {}

  /** `readOnly` (a dry run): the items already done are skipped, nothing is written. */
  static async open(path: string, readOnly = false): Promise<Journal> {
    let text = '';
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') throw new SvcError(`--journal ${path}: cannot read it (${code ?? 'error'})`);
    }
    const done = new Set<string>();
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      try {
        const key: unknown = JSON.parse(line);
        if (typeof key === 'string') done.add(key);
      } catch {
        // A line cut short by a crash: that item is simply run again.
      }
    }
    const journal = new Journal(path, done);
    // Writable now, not after the first item has run.
    if (!readOnly) await journal.append('');
    return journal;
  }

  has(key: string): boolean {
    return this.done.has(key);
  }

  async record(key: string): Promise<void> {
    this.done.add(key);
    await this.append(`${JSON.stringify(key)}\n`);
  }

  private async append(text: string): Promise<void> {
    try {
      await appendFile(this.path, text);
    } catch (error) {
      throw new SvcError(`--journal ${this.path}: cannot write it (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
}
