import { SvcError } from '../errors.js';
import type { Page } from '../http/client.js';
import { isKeptNumber } from '../json.js';

/** What a plan reads from each record: a key and the type its value must have. */
export type RecordShape = Record<string, 'number' | 'string'>;

/**
 * The pages of a listing that a plan is made from, each item checked to be a record whose `shape`
 * keys hold what the plan acts on: a `null` in the list would crash the plan, and a runner without a
 * numeric id would be sent as `DELETE /runners/undefined`. The first such item ends the listing with
 * one line naming it (exit 1), before anything is changed.
 */
export async function* checkedPages<T>(pages: AsyncIterable<Page<T>>, where: string, shape: RecordShape): AsyncGenerator<Page<T>> {
  for await (const page of pages) {
    checkRecords(page.items, where, shape);
    yield page;
  }
}

/** `items` as records of `shape`, or one line naming the first that is not (see `checkedPages`). */
export function checkRecords<T>(items: readonly T[], where: string, shape: RecordShape): T[] {
  for (const item of items) {
    const problem = recordProblem(item, shape);
    if (problem) throw new SvcError(`${where} listed ${problem}`);
  }
  return items as T[];
}

function recordProblem(item: unknown, shape: RecordShape): string | undefined {
  if (item === null) return 'null where a record belongs';
  if (typeof item !== 'object' || Array.isArray(item))
    return `${Array.isArray(item) ? 'a list' : `a ${typeof item}`} where a record belongs`;
  for (const [key, type] of Object.entries(shape)) {
    const value = (item as Record<string, unknown>)[key];
    const fits = type === 'number' ? typeof value === 'number' || isKeptNumber(value) : typeof value === 'string';
    if (!fits) return `a record without a ${type === 'number' ? 'numeric' : 'text'} '${key}'`;
  }
  return undefined;
}

/**
 * Orders ids as numbers, those past 2^53 included: the JSON parser keeps such a number as its text
 * (json.ts), and subtracting two of them throws. Whole ids are compared exactly.
 */
export function compareIds(a: number, b: number): number {
  const [x, y] = [String(a), String(b)];
  if (!/^-?\d+$/.test(x) || !/^-?\d+$/.test(y)) return Number(x) - Number(y);
  const difference = BigInt(x) - BigInt(y);
  return difference < 0n ? -1 : difference > 0n ? 1 : 0;
}

/**
 * An id a workflow keys its state by, as a number: one past 2^53 is parsed as its text (json.ts), an
 * object that Maps and Sets tell apart from the same id read again, so a move would never be matched
 * with its container. Such an id ends the run with one line naming it (exit 1); anything else passes.
 */
export function trackableId<T>(id: T, where: string): T {
  if (isKeptNumber(id) && /^-?\d+$/.test(String(id)))
    throw new SvcError(`${where} holds id ${String(id)}, past ${Number.MAX_SAFE_INTEGER}: svc cannot follow it exactly`);
  return id;
}
