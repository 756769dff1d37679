import { isKeptNumber } from '../../json.js';

/**
 * A field of the service's answer as a line a person reads says it: text or a number, else undefined,
 * so the line can say what was asked for instead, or leave the part out, rather than print "undefined".
 */
export function answerText(value: unknown): string | undefined {
  if (typeof value === 'string' || typeof value === 'number' || isKeptNumber(value)) return String(value);
  return undefined;
}
