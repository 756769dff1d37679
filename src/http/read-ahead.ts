/**
 * Pages of a listing the caller reads to the end: the next page is asked for as soon as one
 * arrives, so the server prepares it while this one is printed. The same requests, one at a time
 * on one connection; only their wait overlaps the printing. A caller that stops early leaves one
 * request to end, quietly.
 */
export async function* readingAhead<T>(pages: AsyncIterable<T>): AsyncGenerator<T> {
  const iterator = pages[Symbol.asyncIterator]();
  let pending = iterator.next();
  let finished = false;
  try {
    for (;;) {
      const result = await pending;
      if (result.done) {
        finished = true;
        return;
      }
      pending = iterator.next();
      yield result.value;
    }
  } finally {
    if (!finished) {
      pending.catch(() => {});
      await iterator.return?.(undefined);
    }
  }
}
