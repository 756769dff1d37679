// Small self-contained helpers for the sandbox: seeded randomness, time
// formatting, query/form/multipart parsing, and a tiny zip writer.
// Node built-ins only; nothing here is shared with the client code.
import { createHash } from 'node:crypto';

/** Deterministic 32-bit hash of a list of integers (order-sensitive). */
export function hash32(...nums: number[]): number {
  let h = 0x811c9dc5;
  for (const n of nums) {
    h = Math.imul(h ^ (n | 0), 0x01000193);
    h ^= h >>> 15;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return h >>> 0;
}

/** mulberry32 sequence generator: returns floats in [0, 1). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** ISO 8601 with milliseconds and Z, as the real service renders timestamps. */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

export function sha1(s: string | Buffer): string {
  return createHash('sha1').update(s).digest('hex');
}

export function sha256(s: string | Buffer): string {
  return createHash('sha256').update(s).digest('hex');
}

// ---------------------------------------------------------------------------
// Query strings and form bodies

export type Params = Record<string, unknown>;

export class DecodeError extends Error {}

/** Decode one query component: a raw `+` is a space, `%2B` is a plus. */
export function decodeComponent(s: string): string {
  const withSpaces = s.indexOf('+') >= 0 ? s.replace(/\+/g, ' ') : s;
  if (withSpaces.indexOf('%') < 0) return withSpaces;
  try {
    return decodeURIComponent(withSpaces);
  } catch {
    throw new DecodeError(`invalid %-encoding (${s.slice(0, 60)})`);
  }
}

/** Split a raw query string into raw (still encoded) key/value pairs. */
function rawPairs(raw: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  if (!raw) return out;
  for (const part of raw.split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    if (eq < 0) out.push([part, '']);
    else out.push([part.slice(0, eq), part.slice(eq + 1)]);
  }
  return out;
}

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

function keyParts(k: string): string[] {
  const i = k.indexOf('[');
  if (i <= 0) return [k];
  const parts = [k.slice(0, i)];
  let pos = i;
  while (pos < k.length) {
    if (k[pos] !== '[') return [k];
    const close = k.indexOf(']', pos);
    if (close < 0) return [k];
    parts.push(k.slice(pos + 1, close));
    pos = close + 1;
  }
  return parts;
}

type Bag = Record<string, unknown>;

function setPath(parent: Bag, key: string, parts: string[], i: number, value: string): void {
  if (FORBIDDEN_KEYS.has(key)) return;
  if (i === parts.length) {
    parent[key] = value;
    return;
  }
  const sub = parts[i]!;
  if (sub === '') {
    let arr = parent[key];
    if (!Array.isArray(arr)) {
      arr = [];
      parent[key] = arr;
    }
    const list = arr as unknown[];
    if (i === parts.length - 1) {
      list.push(value);
      return;
    }
    const nextKey = parts[i + 1]!;
    let last = list[list.length - 1] as Bag | undefined;
    if (!last || typeof last !== 'object' || Array.isArray(last) || nextKey in last) {
      last = {};
      list.push(last);
    }
    setPath(last, nextKey, parts, i + 2, value);
    return;
  }
  let obj = parent[key];
  if (!obj || typeof obj !== 'object' || Array.isArray(obj)) {
    obj = {};
    parent[key] = obj;
  }
  setPath(obj as Bag, sub, parts, i + 1, value);
}

function numericObjectsToArrays(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(numericObjectsToArrays);
  if (v && typeof v === 'object') {
    const o = v as Bag;
    const keys = Object.keys(o);
    for (const k of keys) o[k] = numericObjectsToArrays(o[k]);
    if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) {
      return keys.sort((a, b) => Number(a) - Number(b)).map((k) => o[k]);
    }
    return o;
  }
  return v;
}

/**
 * Rack-style nesting of decoded pairs: `a=1`, `a[]=1&a[]=2`, `a[k]=v`,
 * `a[0][key]=k&a[0][value]=v` (numeric-keyed hashes become arrays).
 */
export function nestParams(pairs: Array<[string, string]>): Params {
  const root: Bag = {};
  for (const [k, v] of pairs) {
    const parts = keyParts(k);
    setPath(root, parts[0]!, parts, 1, v);
  }
  for (const k of Object.keys(root)) {
    const val = root[k];
    if (val && typeof val === 'object') root[k] = numericObjectsToArrays(val);
  }
  return root;
}

export function parseQuery(raw: string): { pairs: Array<[string, string]>; decoded: Array<[string, string]>; params: Params } {
  const pairs = rawPairs(raw);
  const decoded = pairs.map(([k, v]) => [decodeComponent(k), decodeComponent(v)] as [string, string]);
  return { pairs, decoded, params: nestParams(decoded) };
}

// ---------------------------------------------------------------------------
// multipart/form-data

export interface FilePart {
  filename: string;
  contentType: string;
  data: Buffer;
}

export function multipartBoundary(contentType: string): string | null {
  const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return m ? (m[1] ?? m[2] ?? null) : null;
}

/** Parse a multipart body; throws DecodeError on malformed input. */
export function parseMultipart(buf: Buffer, boundary: string): { fields: Array<[string, string]>; files: Record<string, FilePart> } {
  const fields: Array<[string, string]> = [];
  const files: Record<string, FilePart> = {};
  const delim = Buffer.from(`--${boundary}`);
  let pos = buf.indexOf(delim);
  if (pos < 0) throw new DecodeError('multipart body without its boundary');
  for (;;) {
    pos += delim.length;
    if (buf[pos] === 0x2d && buf[pos + 1] === 0x2d) break; // closing "--"
    if (buf[pos] === 0x0d && buf[pos + 1] === 0x0a) pos += 2;
    const headEnd = buf.indexOf('\r\n\r\n', pos);
    if (headEnd < 0) throw new DecodeError('multipart part without headers');
    const head = buf.subarray(pos, headEnd).toString('utf8');
    const next = buf.indexOf(Buffer.from(`\r\n--${boundary}`), headEnd + 4);
    if (next < 0) throw new DecodeError('multipart body is truncated');
    const data = buf.subarray(headEnd + 4, next);
    const disp = /content-disposition:([^\r\n]*)/i.exec(head)?.[1] ?? '';
    const name = /\bname="([^"]*)"/i.exec(disp)?.[1];
    const filename = /\bfilename="([^"]*)"/i.exec(disp)?.[1];
    const ctype = /content-type:\s*([^\r\n]*)/i.exec(head)?.[1]?.trim() ?? 'application/octet-stream';
    if (name !== undefined) {
      if (filename !== undefined) files[name] = { filename, contentType: ctype, data: Buffer.from(data) };
      else fields.push([name, data.toString('utf8')]);
    }
    pos = next + 2;
  }
  return { fields, files };
}

// ---------------------------------------------------------------------------
// A minimal zip (stored entries) for artifact archives.

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (let i = 0; i < buf.length; i++) c = CRC_TABLE[(c ^ buf[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export function buildZip(entries: Array<{ name: string; data: Buffer }>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  // Fixed DOS date/time (2024-01-01 00:00) keeps archives byte-identical.
  const dosTime = 0;
  const dosDate = ((2024 - 1980) << 9) | (1 << 5) | 1;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const crc = crc32(e.data);
    const lh = Buffer.alloc(30);
    lh.writeUInt32LE(0x04034b50, 0);
    lh.writeUInt16LE(10, 4);
    lh.writeUInt16LE(0x0800, 6);
    lh.writeUInt16LE(0, 8);
    lh.writeUInt16LE(dosTime, 10);
    lh.writeUInt16LE(dosDate, 12);
    lh.writeUInt32LE(crc, 14);
    lh.writeUInt32LE(e.data.length, 18);
    lh.writeUInt32LE(e.data.length, 22);
    lh.writeUInt16LE(name.length, 26);
    lh.writeUInt16LE(0, 28);
    locals.push(lh, name, e.data);
    const ch = Buffer.alloc(46);
    ch.writeUInt32LE(0x02014b50, 0);
    ch.writeUInt16LE(20, 4);
    ch.writeUInt16LE(10, 6);
    ch.writeUInt16LE(0x0800, 8);
    ch.writeUInt16LE(0, 10);
    ch.writeUInt16LE(dosTime, 12);
    ch.writeUInt16LE(dosDate, 14);
    ch.writeUInt32LE(crc, 16);
    ch.writeUInt32LE(e.data.length, 20);
    ch.writeUInt32LE(e.data.length, 24);
    ch.writeUInt16LE(name.length, 28);
    ch.writeUInt32LE(offset, 42);
    centrals.push(ch, name);
    offset += 30 + name.length + e.data.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** Deterministic pseudo-random bytes. */
export function seededBytes(seed: number, length: number): Buffer {
  const buf = Buffer.alloc(length);
  const r = rng(seed);
  for (let i = 0; i + 4 <= length; i += 4) buf.writeUInt32LE(Math.floor(r() * 4294967296), i);
  for (let i = length - (length % 4); i < length; i++) buf[i] = Math.floor(r() * 256);
  return buf;
}

/** Binary search: first index in sorted `arr` whose value is > x. */
export function upperBound(arr: readonly number[], x: number): number {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (arr[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Binary search: first index in sorted `arr` whose value is >= x. */
export function lowerBound(arr: readonly number[], x: number): number {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (arr[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function insertSorted(arr: number[], x: number): void {
  const i = lowerBound(arr, x);
  if (arr[i] !== x) arr.splice(i, 0, x);
}

export function removeSorted(arr: number[], x: number): void {
  const i = lowerBound(arr, x);
  if (arr[i] === x) arr.splice(i, 1);
}

export function slugify(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 255);
}
