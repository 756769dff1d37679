import type { Readable } from 'node:stream';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { terminalSafe } from '../../output/terminal-safe.js';
import { write } from '../../output/writer.js';

/**
 * Streams bytes to stdout as they come, never holding them all. Binary content is not written to a
 * terminal, where it would be garbage at best and terminal commands at worst; text shown there has
 * its control characters (other than tab and newline) as visible escapes. Elsewhere the bytes are
 * written exactly.
 */
export async function writeRawBytes(ctx: Context, bytes: Readable, what: string, onChunk?: (chunk: Buffer) => void): Promise<void> {
  const terminal = ctx.io.isTTY.stdout ? new TextDecoder('utf-8') : undefined;
  let first = true;
  for await (const chunk of bytes as AsyncIterable<Buffer>) {
    if (first && terminal && looksBinary(chunk)) {
      bytes.destroy();
      throw new UsageError(`${what}: refusing to write binary content to a terminal; redirect stdout to a file`);
    }
    first = false;
    onChunk?.(chunk);
    await write(ctx.stdout, terminal ? terminalSafe(terminal.decode(chunk, { stream: true }), { multiline: true }) : chunk);
  }
  if (terminal) await write(ctx.stdout, terminalSafe(terminal.decode(), { multiline: true }));
}

/** Binary: a NUL byte among the first 8,000 bytes (git's test), or bytes that are not UTF-8 text. */
function looksBinary(chunk: Buffer): boolean {
  const head = chunk.subarray(0, 8000);
  if (head.includes(0)) return true;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    return false;
  } catch {
    return true;
  }
}
