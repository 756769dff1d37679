// Declared parameters of a plain resource, read and checked as Grape does before the endpoint
// runs: a missing required one is `{"error":"<name> is missing"}` (all of them in one line), a
// wrong type `<name> is invalid`, a value outside its choices `<name> does not have a valid value`.
import type { Ctx } from '../server/context.js';
import { E } from '../server/errors.js';
import { boolParam, enumParam, intParam, strParam } from '../server/params.js';

export interface Field {
  type: 'string' | 'integer' | 'boolean';
  required?: boolean;
  /** the only values accepted (strings) */
  values?: readonly string[];
}

/** Field declarations in the order the service checks them. */
export type Fields = Readonly<Record<string, Field>>;

/** The declared parameters a request gave, coerced; absent ones are not keys. */
export type Input = Record<string, string | number | boolean>;

function given(ctx: Ctx, name: string): boolean {
  return ctx.params[name] !== undefined && ctx.params[name] !== null;
}

function read(ctx: Ctx, name: string, field: Field): string | number | boolean | undefined {
  if (field.type === 'integer') return intParam(ctx, name);
  if (field.type === 'boolean') return boolParam(ctx, name);
  return field.values ? enumParam(ctx, name, field.values) : strParam(ctx, name);
}

/** Reads `fields` from the request; `atLeastOne` names the parameters of which one must be given. */
export function readFields(ctx: Ctx, fields: Fields, atLeastOne: readonly string[] = []): Input {
  const missing = Object.keys(fields).filter((name) => fields[name]!.required && !given(ctx, name));
  if (missing.length > 0) throw E.missing(...missing);
  if (atLeastOne.length > 0 && !atLeastOne.some((name) => given(ctx, name))) throw E.atLeastOne(...atLeastOne);
  const input: Input = {};
  for (const [name, field] of Object.entries(fields)) {
    const value = read(ctx, name, field);
    if (value !== undefined) input[name] = value;
  }
  return input;
}
