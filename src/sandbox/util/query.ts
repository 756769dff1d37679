// Query strings and form bodies, decoded and nested as Rack does.

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
