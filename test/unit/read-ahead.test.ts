import { describe, expect, it } from 'vitest';
import { readingAhead } from '../../src/http/read-ahead.js';

/** A source that logs when each page is asked for and when it is handed over. */
function loggedPages(count: number, log: string[]): AsyncGenerator<number> {
  return (async function* pages() {
    try {
      for (let page = 1; page <= count; page++) {
        log.push(`request ${page}`);
        await Promise.resolve();
        yield page;
      }
    } finally {
      log.push('source closed');
    }
  })();
}

describe('readingAhead', () => {
  it('asks for the next page before the current one is handed to the reader, and for no page past the last', async () => {
    const log: string[] = [];
    for await (const page of readingAhead(loggedPages(3, log))) log.push(`print ${page}`);
    expect(log).toEqual(['request 1', 'request 2', 'print 1', 'request 3', 'print 2', 'source closed', 'print 3']);
  });

  it('a reader that stops early waits for the page asked for, then closes the source', async () => {
    const log: string[] = [];
    for await (const page of readingAhead(loggedPages(5, log))) {
      log.push(`print ${page}`);
      if (page === 2) break;
    }
    expect(log).toEqual(['request 1', 'request 2', 'print 1', 'request 3', 'print 2', 'source closed']);
  });

  it('an error on the page read ahead reaches the reader after the pages before it', async () => {
    const printed: number[] = [];
    async function* failing(): AsyncGenerator<number> {
      yield 1;
      yield 2;
      throw new Error('page 3 failed');
    }
    await expect(
      (async () => {
        for await (const page of readingAhead(failing())) printed.push(page);
      })(),
    ).rejects.toThrow('page 3 failed');
    expect(printed).toEqual([1, 2]);
  });

  it('a page that fails while the reader is busy with the one before fails in its turn, not as an unhandled rejection', async () => {
    const printed: number[] = [];
    async function* failingAtOnce(): AsyncGenerator<number> {
      yield 1;
      throw new Error('page 2 failed');
    }
    await expect(
      (async () => {
        for await (const page of readingAhead(failingAtOnce())) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          printed.push(page);
        }
      })(),
    ).rejects.toThrow('page 2 failed');
    expect(printed).toEqual([1]);
  });
});
