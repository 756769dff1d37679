/**
 * Pages of a listing the caller reads to the end: the next page is asked for as soon as one
 * arrives, so the server prepares it while this one is printed. The same requests, one at a time
 * on one connection; only their wait overlaps the printing. A caller that stops early leaves one
 * request to end, quietly.
 */
export async function* readingAhead<T>(pages: AsyncIterable<T>): AsyncGenerator<T> {
  const iterator = pages[Symbol.asyncIterator]();
  // A page that fails while the one before is printed fails in its turn, after it: until then its
  // rejection has a handler, so it is not reported as unhandled.
  const ask = () => {
    const next = iterator.next();
    next.catch(() => {});
    return next;
  };
  let pending = ask();
  let finished = false;
  try {
    for (;;) {
      const result = await pending;
      if (result.done) {
        finished = true;
        return;
      }
      pending = ask();
      // The request goes out a few promise steps into that call; printing a page is one long
      // step, so without a turn of the event loop first the request would wait for the printing.
      await new Promise((resolve) => setImmediate(resolve));
      yield result.value;
    }
  } finally {
    if (!finished) await iterator.return?.(undefined);
  }
}
