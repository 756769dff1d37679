import { isAscii } from 'node:buffer';
import { createRequire } from 'node:module';
import type * as LosslessJson from 'lossless-json';

/**
 * Deeper JSON than this is refused: the service's records nest a handful of levels, and every
 * printer and renderer after the parser recurses once per level.
 */
export const MAX_JSON_DEPTH = 512;

/** The text parsed, but its arrays and objects nest deeper than MAX_JSON_DEPTH. */
export class JsonTooDeepError extends Error {
  constructor() {
    super(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
    this.name = 'JsonTooDeepError';
  }
}

/**
 * JSON whose numbers come out as they came in. JSON.parse rounds an id past 2^53
 * (9007199254740993 → …992), turns 1e400 into Infinity (printed as null) and 1e-400 into 0, and
 * drops digits a double cannot hold (0.12345678901234567891); such numbers are kept as their
 * source text instead. The lossless parser is slower, so it reads only documents where JSON.parse
 * gave such a number (seen on the parsed values, which costs far less than searching the text for
 * long digit runs: digits are everywhere in a page) or the text holds a literal that could have
 * underflowed. It is loaded only then, so start-up and ordinary listings never pay for it.
 * Throws JsonTooDeepError past MAX_JSON_DEPTH, SyntaxError on malformed text.
 */
export function parseJson(text: string): unknown {
  const value: unknown = JSON.parse(text);
  const found = inspect(value, MAX_JSON_DEPTH);
  if (found === Found.tooDeep) throw new JsonTooDeepError();
  if (found === Found.nothing && !mayUnderflow(text)) return value;
  const { isSafeNumber, LosslessNumber, parse } = lossless();
  const kept = parse(text, null, (literal) => {
    if (isSafeNumber(literal)) return Number(literal);
    keptNumbers = true;
    return new LosslessNumber(literal);
  });
  // Kept numbers are leaves; the depth was checked on the same document above.
  return kept;
}

/**
 * Documents parsed from bytes that hold only ASCII, no DEL and no `\u` escape: none of their strings
 * can hold DEL or a C1 control, so their printed JSON needs no search for them. Checking the bytes
 * costs about a thirtieth of searching the printed text. Listings print the parsed page as it came;
 * code that adds text of its own to such a document must print a copy, which is searched.
 */
const plainDocuments = new WeakSet<object>();
const UNICODE_ESCAPE = Buffer.from('\\u');

/** `parseJson` of UTF-8 bytes, remembering whether the document is plain ASCII (see `isPlainAscii`). */
export function parseJsonBytes(bytes: Buffer): unknown {
  const value = parseJson(bytes.toString('utf8'));
  if (typeof value === 'object' && value !== null && isAscii(bytes) && bytes.indexOf(0x7f) < 0 && bytes.indexOf(UNICODE_ESCAPE) < 0) {
    plainDocuments.add(value);
  }
  return value;
}

/** Whether `value` is a document parsed by `parseJsonBytes` from bytes with no DEL, non-ASCII or `\u` escape. */
export function isPlainAscii(value: unknown): boolean {
  return typeof value === 'object' && value !== null && plainDocuments.has(value);
}

let library: typeof LosslessJson | undefined;
function lossless(): typeof LosslessJson {
  library ??= createRequire(import.meta.url)('lossless-json') as typeof LosslessJson;
  return library;
}

let keptNumbers = false;

const enum Found {
  nothing,
  changedNumber,
  tooDeep,
}

/**
 * One walk of a parsed value for both things parsing cannot tell: depth, and a number JSON.parse
 * changed. Indexes and `for…in` rather than `Object.values`, which built an array per record and
 * cost five times as much; parsed JSON holds plain objects, so `for…in` meets their own keys only.
 */
function inspect(value: unknown, levels: number): Found {
  if (typeof value === 'number') return isChangedNumber(value) ? Found.changedNumber : Found.nothing;
  if (value === null || typeof value !== 'object') return Found.nothing;
  if (levels === 0) return Found.tooDeep;
  let found = Found.nothing;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const child = inspect(value[i], levels - 1);
      if (child === Found.tooDeep) return child;
      if (child !== Found.nothing) found = child;
    }
    return found;
  }
  for (const key in value) {
    const child = inspect((value as Record<string, unknown>)[key], levels - 1);
    if (child === Found.tooDeep) return child;
    if (child !== Found.nothing) found = child;
  }
  return found;
}

/**
 * Whether JSON.parse may have changed the literal this number came from: past 2^53 or the double
 * range, or a fraction whose shortest form needs 16 or more digits (a literal of 15 or fewer
 * significant digits always comes back as written).
 */
function isChangedNumber(value: number): boolean {
  if (Number.isSafeInteger(value)) return false;
  if (!Number.isFinite(value) || Number.isInteger(value)) return true;
  return significantDigits(String(value)) >= 16;
}

function significantDigits(shortest: string): number {
  const mantissa = shortest.replace(/e.*$/, '').replace(/[-.]/g, '');
  return mantissa.replace(/^0+/, '').length;
}

/**
 * Whether a literal may have become 0 for being below the double range: a negative exponent of
 * three digits after a digit or a point (`1e-400`), or a long run of zeros (`0.000…0001`). Strings
 * hold such text too (`calm-forge-19901`); that only costs a needless lossless parse. The search
 * goes by the minus sign, which is rarer in a page than the letter e.
 */
function mayUnderflow(text: string): boolean {
  for (let at = text.indexOf('-'); at >= 0; at = text.indexOf('-', at + 1)) {
    const e = text.charCodeAt(at - 1);
    if (e !== 0x65 && e !== 0x45) continue;
    const before = text.charCodeAt(at - 2);
    if (!(isDigit(before) || before === 0x2e)) continue;
    if (isDigit(text.charCodeAt(at + 1)) && isDigit(text.charCodeAt(at + 2)) && isDigit(text.charCodeAt(at + 3))) return true;
  }
  return text.includes(ZEROS);
}

const ZEROS = '0'.repeat(16);

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
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
