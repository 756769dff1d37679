const TURN_ENDED = Symbol('turn ended');

/**
 * Groups records into batches of those that arrive in the same turn of the event loop: a page of
 * a listing arrives at once and the next needs a request, so each batch is one page, written at
 * once, and a record that arrives alone is not held back waiting for company.
 */
export async function* batchesOf<T>(records: AsyncIterable<T>): AsyncGenerator<T[]> {
  const iterator = records[Symbol.asyncIterator]();
  let next: Promise<IteratorResult<T>> | undefined;
  let finished = false;
  try {
    for (;;) {
      const first = await (next ?? iterator.next());
      if (first.done) {
        finished = true;
        return;
      }
      const batch = [first.value];
      const turnEnded = new Promise<typeof TURN_ENDED>((resolve) => setImmediate(resolve, TURN_ENDED));
      for (;;) {
        next = iterator.next();
        let result: IteratorResult<T> | typeof TURN_ENDED;
        try {
          result = await Promise.race([next, turnEnded]);
        } catch (error) {
          finished = true;
          yield batch;
          throw error;
        }
        if (result === TURN_ENDED) break;
        if (result.done) {
          finished = true;
          yield batch;
          return;
        }
        batch.push(result.value);
      }
      yield batch;
    }
  } finally {
    if (!finished) {
      // The consumer stopped early (a reader that went away): the pending request may still fail.
      next?.catch(() => {});
      await iterator.return?.();
    }
  }
}
