import { createRequire } from 'node:module';
import type * as LosslessJson from 'lossless-json';

/**
 * JSON whose numbers come out exactly as they came in. JSON.parse rounds an id past 2^53
 * (9007199254740993 → …992) and turns 1e400 into Infinity (printed as null); such numbers are kept
 * as their source text instead. The lossless parser is slower, so it reads only bodies that hold a
 * literal it could matter for (a digit run of 16 or more, a three-digit exponent), and it is loaded
 * only then, so start-up and ordinary listings never pay for it. A literal is only looked for where
 * JSON lets a number start (after `[`, `:` or `,`): a path such as `calm-forge-99999` holds `e-999`,
 * and took nearly every page of a large listing through the slow parser.
 */
const MAYBE_UNSAFE_NUMBER = /(?:^|[:,[])\s*-?(?:[0-9]*\.)?[0-9]{16}|(?:^|[:,[])\s*-?[0-9]+(?:\.[0-9]+)?[eE][+-]?[0-9]{3}/;

let library: typeof LosslessJson | undefined;
function lossless(): typeof LosslessJson {
  library ??= createRequire(import.meta.url)('lossless-json') as typeof LosslessJson;
  return library;
}

let keptNumbers = false;

export function parseJson(text: string): unknown {
  if (!MAYBE_UNSAFE_NUMBER.test(text)) return JSON.parse(text);
  const { isSafeNumber, LosslessNumber, parse } = lossless();
  return parse(text, null, (literal) => {
    if (isSafeNumber(literal)) return Number(literal);
    keptNumbers = true;
    return new LosslessNumber(literal);
  });
}

/** JSON text for output, numbers kept as received; indented when `indent` is given. */
export function stringifyJson(value: unknown, indent?: number): string {
  if (!keptNumbers) return JSON.stringify(value, null, indent);
  return lossless().stringify(value, null, indent) ?? 'null';
}

/** A number kept as its source text (see above): printed as that text. */
export function isKeptNumber(value: unknown): value is LosslessJson.LosslessNumber {
  return keptNumbers && typeof value === 'object' && value !== null && (value as { isLosslessNumber?: unknown }).isLosslessNumber === true;
}
