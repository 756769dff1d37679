import { UsageError } from '../../errors.js';
import type { QueryValue } from '../../http/encode.js';

export type ParamValue = QueryValue;
export type Params = Record<string, ParamValue>;

/** `-F` values: true/false/null and numbers become JSON types; `@file` and `@-` are read by the caller. */
export function typedValue(raw: string): string | number | boolean | null {
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  if (raw === 'null') return null;
  if (/^-?(0|[1-9]\d*)(\.\d+)?$/.test(raw) && Number.isFinite(Number(raw))) return Number(raw);
  return raw;
}

export function splitField(flag: string, arg: string): { key: string; value: string } {
  const eq = arg.indexOf('=');
  if (eq <= 0) throw new UsageError(`${flag} '${arg}': expected key=value`);
  return { key: arg.slice(0, eq), value: arg.slice(eq + 1) };
}

/** `name`, `name[]`, `name[key]`, `name[][key]` (and deeper) → ['name', '', 'key'] path segments. */
export function keySegments(key: string): string[] {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!match) throw new UsageError(`invalid parameter name '${key}': use name, name[], name[key] or name[][key]`);
  const brackets = [...(match[2] ?? '').matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1] as string);
  return [match[1] as string, ...brackets];
}

/**
 * Adds one parameter to a nested structure the way `gh api` does: `name[]` appends, `name[key]`
 * sets a key, and `name[][key]` starts a new object whenever the last one already has that key.
 */
export function addParam(params: Params, key: string, value: ParamValue): void {
  setPath(params, keySegments(key), value, key);
}

function setPath(node: Params | ParamValue[], segments: string[], value: ParamValue, key: string): void {
  const [segment, ...rest] = segments as [string, ...string[]];
  if (Array.isArray(node)) {
    if (segment !== '') throw new UsageError(`parameter '${key}' mixes a list with named keys`);
    if (rest.length === 0) {
      node.push(value);
      return;
    }
    const last = node[node.length - 1];
    const reusable = isObject(last) && rest[0] !== '' && !((rest[0] as string) in last);
    const child = reusable ? last : rest[0] === '' ? [] : {};
    if (!reusable) node.push(child);
    setPath(child as Params | ParamValue[], rest, value, key);
    return;
  }
  if (segment === '') throw new UsageError(`parameter '${key}' mixes a list with named keys`);
  if (rest.length === 0) {
    if (segment in node) throw new UsageError(`parameter '${key}' is given twice`);
    node[segment] = value;
    return;
  }
  const wantList = rest[0] === '';
  const existing = node[segment];
  if (existing === undefined) node[segment] = wantList ? [] : {};
  else if (Array.isArray(existing) !== wantList || !(Array.isArray(existing) || isObject(existing))) {
    throw new UsageError(`parameter '${key}' conflicts with an earlier parameter of another shape`);
  }
  setPath(node[segment] as Params | ParamValue[], rest, value, key);
}

function isObject(value: unknown): value is Params {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** `-H 'Name: value'`; an empty value is allowed, a missing colon is not. */
export function parseHeader(arg: string): [string, string] {
  const colon = arg.indexOf(':');
  const name = colon > 0 ? arg.slice(0, colon).trim() : '';
  if (!name || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
    throw new UsageError(`-H '${arg}': expected 'Name: value'`);
  }
  return [name, arg.slice(colon + 1).trim()];
}
