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
 * long digit runs: digits are everywhere in a page) or the text holds a literal that may have
 * lost digits while giving a number that looks untouched (see `mayHaveLostDigits`). It is loaded
 * only then, so start-up and ordinary listings never pay for it.
 * Throws JsonTooDeepError past MAX_JSON_DEPTH, SyntaxError on malformed text.
 */
export function parseJson(text: string): unknown {
  return parseJsonText(text, undefined);
}

/** `bytes`: the UTF-8 the text was decoded from, when the caller has it (digit runs are found faster in bytes). */
function parseJsonText(text: string, bytes: Uint8Array | undefined): unknown {
  const value: unknown = JSON.parse(text);
  const found = inspect(value, MAX_JSON_DEPTH);
  if (found === Found.tooDeep) throw new JsonTooDeepError();
  if (found === Found.nothing && !mayHaveLostDigits(text, bytes)) return value;
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
  const value = parseJsonText(bytes.toString('utf8'), bytes);
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
 * Leaves are judged in the loop rather than by a call each (V8 inlines no recursive call), which
 * takes 40% off the walk of a page.
 */
function inspect(value: unknown, levels: number): Found {
  if (typeof value === 'number') return isChangedNumber(value) ? Found.changedNumber : Found.nothing;
  if (value === null || typeof value !== 'object') return Found.nothing;
  return inspectContainer(value, levels);
}

function inspectContainer(container: object, levels: number): Found {
  if (levels === 0) return Found.tooDeep;
  let found = Found.nothing;
  if (Array.isArray(container)) {
    for (let i = 0; i < container.length; i++) {
      const child: unknown = container[i];
      if (typeof child === 'object') {
        if (child === null) continue;
        const inside = inspectContainer(child, levels - 1);
        if (inside === Found.tooDeep) return inside;
        if (inside !== Found.nothing) found = inside;
      } else if (typeof child === 'number' && !Number.isSafeInteger(child) && isChangedNumber(child)) found = Found.changedNumber;
    }
    return found;
  }
  for (const key in container) {
    const child = (container as Record<string, unknown>)[key];
    if (typeof child === 'object') {
      if (child === null) continue;
      const inside = inspectContainer(child, levels - 1);
      if (inside === Found.tooDeep) return inside;
      if (inside !== Found.nothing) found = inside;
    } else if (typeof child === 'number' && !Number.isSafeInteger(child) && isChangedNumber(child)) found = Found.changedNumber;
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
 * Whether the text holds a literal JSON.parse may have changed while giving a number that looks
 * untouched: one below the double range (`1e-400` becomes 0), or one with more digits than a
 * double holds whose nearest double prints short (`0.1000000000000000055511`, `1.00000000000000000001`
 * both print as the number they round to).
 */
function mayHaveLostDigits(text: string, bytes: Uint8Array = Buffer.from(text)): boolean {
  return hasTinyExponent(text) || hasLongNumberLiteral(bytes);
}

/**
 * A negative exponent of three digits after a digit or a point (`1e-400`). Strings hold such text
 * too (`calm-forge-19901`); that only costs a needless lossless parse. The search goes by the minus
 * sign, which is rarer in a page than the letter e.
 */
function hasTinyExponent(text: string): boolean {
  for (let at = text.indexOf('-'); at >= 0; at = text.indexOf('-', at + 1)) {
    const e = text.charCodeAt(at - 1);
    if (e !== 0x65 && e !== 0x45) continue;
    const before = text.charCodeAt(at - 2);
    if (!(isDigit(before) || before === 0x2e)) continue;
    if (isDigit(text.charCodeAt(at + 1)) && isDigit(text.charCodeAt(at + 2)) && isDigit(text.charCodeAt(at + 3))) return true;
  }
  return false;
}

/** Digits a double always gives back as written; a literal with more may not come back. */
const DIGITS_KEPT = 15;

/**
 * A run of digits and points with more than DIGITS_KEPT digits where a number may begin (after `:`,
 * `,`, `[`, white space or a minus sign), in the UTF-8 bytes (every byte of a multi-byte character
 * is past ASCII, so none reads as a digit). Any such run covers one of every 16th byte, so only
 * those are looked at, and a run is measured only when one is a digit or a point: a page is passed
 * over in less time than one search of its text for a fixed string. Runs inside strings
 * (`"ref-12345678901234567"`) are not preceded so; where one is, it only costs a needless lossless
 * parse.
 */
function hasLongNumberLiteral(bytes: Uint8Array): boolean {
  const stride = DIGITS_KEPT + 1;
  const length = bytes.length;
  for (let at = DIGITS_KEPT; at < length; at += stride) {
    if (DIGIT_OR_POINT[bytes[at]] === 0) continue;
    let start = at;
    while (start > 0 && DIGIT_OR_POINT[bytes[start - 1]] === 1) start--;
    let end = at + 1;
    while (end < length && DIGIT_OR_POINT[bytes[end]] === 1) end++;
    if (end - start > DIGITS_KEPT && mayBeginNumber(bytes, start) && digitsBetween(bytes, start, end) > DIGITS_KEPT) return true;
    // The next byte looked at lies past this run.
    at += stride * Math.floor((end - 1 - at) / stride);
  }
  return false;
}

/** 1 for the bytes of a digit and a point: one load per byte looked at rather than three comparisons. */
const DIGIT_OR_POINT = new Uint8Array(256);
for (const char of '0123456789.') DIGIT_OR_POINT[char.charCodeAt(0)] = 1;

function mayBeginNumber(bytes: Uint8Array, start: number): boolean {
  let before = start - 1;
  if (bytes[before] === 0x2d) before--;
  if (before < 0) return true;
  const code = bytes[before];
  return code === 0x3a || code === 0x2c || code === 0x5b || code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

function digitsBetween(bytes: Uint8Array, start: number, end: number): number {
  let digits = 0;
  for (let i = start; i < end; i++) if (isDigit(bytes[i])) digits++;
  return digits;
}

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
