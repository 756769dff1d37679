import { createRequire } from 'node:module';
import type * as LosslessJson from 'lossless-json';

/**
 * JSON whose numbers come out exactly as they came in. JSON.parse rounds an id past 2^53
 * (9007199254740993 → …992) and turns 1e400 into Infinity (printed as null); such numbers are kept
 * as their source text instead. The lossless parser is slower, so it reads only bodies that hold a
 * literal it could matter for (a digit run of 16 or more, a three-digit exponent), and it is loaded
 * only then, so start-up and ordinary listings never pay for it.
 */
// In JSON an exponent follows a digit. The shared first digit is matched once: digits are common
// in every page (ids, dates, URLs), and trying two alternatives at each of them cost a quarter more.
const LONG_DIGITS_OR_EXPONENT = /[0-9](?:[0-9]{15}|[eE][+-]?[0-9]{3})/g;

let library: typeof LosslessJson | undefined;
function lossless(): typeof LosslessJson {
  library ??= createRequire(import.meta.url)('lossless-json') as typeof LosslessJson;
  return library;
}

let keptNumbers = false;

export function parseJson(text: string): unknown {
  if (!mayHoldUnsafeNumber(text)) return JSON.parse(text);
  const { isSafeNumber, LosslessNumber, parse } = lossless();
  return parse(text, null, (literal) => {
    if (isSafeNumber(literal)) return Number(literal);
    keptNumbers = true;
    return new LosslessNumber(literal);
  });
}

/**
 * Whether a run of digits or an exponent that JSON.parse could change stands where JSON lets a
 * number start (after `[`, `:` or `,`), not inside a string: a path such as `calm-forge-99999`
 * holds `e-999`, and took nearly every page of a large listing through the slow parser. A plain
 * search finds the candidates; only those are looked at, each run of number characters once.
 */
function mayHoldUnsafeNumber(text: string): boolean {
  LONG_DIGITS_OR_EXPONENT.lastIndex = 0;
  for (let hit = LONG_DIGITS_OR_EXPONENT.exec(text); hit; hit = LONG_DIGITS_OR_EXPONENT.exec(text)) {
    let start = hit.index;
    while (start > 0 && isNumberChar(text.charCodeAt(start - 1))) start--;
    let before = start - 1;
    while (before >= 0 && isJsonSpace(text.charCodeAt(before))) before--;
    if (before < 0 || text[before] === ':' || text[before] === ',' || text[before] === '[') return true;
    let end = hit.index + hit[0].length;
    while (end < text.length && isNumberChar(text.charCodeAt(end))) end++;
    LONG_DIGITS_OR_EXPONENT.lastIndex = end;
  }
  return false;
}

/** `0-9 . + - e E`: what a JSON number literal is made of. */
function isNumberChar(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || code === 0x2e || code === 0x2b || code === 0x2d || code === 0x65 || code === 0x45;
}

function isJsonSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
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
