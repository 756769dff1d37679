// Parameters as Grape coerces and validates them: a value of the wrong type
// is `{"error":"<name> is invalid"}`, an enum outside its values is
// `{"error":"<name> does not have a valid value"}` (reference §5).
import type { Ctx } from './context.js';
import { E } from './errors.js';

export function strParam(ctx: Ctx, name: string): string | undefined {
  const v = ctx.params[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw E.invalid(name);
}

/** Integer parameter; non-integers give `{"error":"<name> is invalid"}`. */
export function intParam(ctx: Ctx, name: string): number | undefined {
  const v = strParam(ctx, name);
  if (v === undefined || v === '') return undefined;
  if (!/^\s*[-+]?\d+\s*$/.test(v)) throw E.invalid(name);
  return Number(v);
}

export function boolParam(ctx: Ctx, name: string): boolean | undefined {
  const v = strParam(ctx, name);
  if (v === undefined || v === '') return undefined;
  const s = v.toLowerCase();
  if (s === 'true' || s === '1' || s === 't' || s === 'yes') return true;
  if (s === 'false' || s === '0' || s === 'f' || s === 'no') return false;
  throw E.invalid(name);
}

export function enumParam<T extends string>(ctx: Ctx, name: string, values: readonly T[], fallback: T): T;
export function enumParam<T extends string>(ctx: Ctx, name: string, values: readonly T[]): T | undefined;
export function enumParam<T extends string>(ctx: Ctx, name: string, values: readonly T[], fallback?: T): T | undefined {
  const v = strParam(ctx, name);
  if (v === undefined) return fallback;
  if (!(values as readonly string[]).includes(v)) throw E.notValid(name);
  return v as T;
}

/** ISO 8601 date-time parameter as epoch milliseconds. */
export function timeParam(ctx: Ctx, name: string): number | undefined {
  const v = strParam(ctx, name);
  if (v === undefined || v === '') return undefined;
  const t = Date.parse(v);
  if (Number.isNaN(t)) throw E.invalid(name);
  return t;
}

/** Array parameter given as `name[]=a&name[]=b`, `name=a,b` or a JSON array. */
export function listParam(ctx: Ctx, name: string): string[] | undefined {
  const v = ctx.params[name];
  if (v === undefined || v === null || v === '') return undefined;
  if (Array.isArray(v)) return v.map(String);
  if (typeof v === 'string') return v.split(',');
  if (typeof v === 'number') return [String(v)];
  throw E.invalid(name);
}

/** Route parameter that must be an integer. */
export function intSeg(ctx: Ctx, name: string): number {
  const v = ctx.p[name]!;
  if (!/^\d+$/.test(v)) throw E.invalid(name);
  return Number(v);
}

export const SORTS = ['asc', 'desc'] as const;
export type Sort = (typeof SORTS)[number];
