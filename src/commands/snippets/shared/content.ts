import { UsageError } from '../../../errors.js';

/**
 * Content for a snippet, which the service keeps as text: bytes that are not UTF-8 would reach it
 * with replacement characters in place of what they were, so they are refused instead.
 */
export function snippetText(bytes: Buffer, source: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new UsageError(`${source} is not UTF-8 text (the service keeps snippets as text): convert it first, e.g. with iconv`);
  }
}
