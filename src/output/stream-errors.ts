import type { Writable } from 'node:stream';
import { SvcError } from '../errors.js';

const streamErrors = new WeakMap<Writable, NodeJS.ErrnoException>();
const watched = new WeakSet<Writable>();

/** Failed writes to stdout surface as 'error' events after the write returned: remember the last. */
export function watch(stream: Writable): void {
  if (watched.has(stream)) return;
  watched.add(stream);
  stream.on('error', (error: NodeJS.ErrnoException) => streamErrors.set(stream, error));
}

/** The reader of stdout went away (`| head`): what it took is all it wants. */
export function readerGone(stream: Writable): boolean {
  return streamErrors.get(stream)?.code === 'EPIPE';
}

/** A failure to write the output other than a reader going away (a full disk): it ends the command. */
export function outputFailure(stream: Writable): SvcError | undefined {
  return writeFailure(streamErrors.get(stream));
}

/** What a failed write to stdout means for the command: nothing when the reader went away. */
export function writeFailure(error: NodeJS.ErrnoException | undefined): SvcError | undefined {
  if (!error || error.code === 'EPIPE') return undefined;
  const reason = error.code === 'ENOSPC' ? 'no space left on the device' : error.message;
  return new SvcError(`cannot write the output: ${reason} (${error.code ?? 'error'})`);
}
