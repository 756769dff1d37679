import { InvalidArgumentError } from 'commander';
import type { GlobalValues } from '../config/global-options.js';
import { parseFieldList } from '../output/formats.js';
import { parseShardSpec, type ShardSpec } from '../workflows/shared/shard.js';

/** Whole numbers within bounds; commander words the refusal (exit 2). */
export function intOption(name: string, min: number, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    if (!/^-?\d+$/.test(value.trim())) throw new InvalidArgumentError(`${name} must be a whole number`);
    const n = Number(value);
    if (n < min || n > max) {
      throw new InvalidArgumentError(
        `${name} must be ${max === Number.MAX_SAFE_INTEGER ? `at least ${min}` : `between ${min} and ${max}`}`,
      );
    }
    return n;
  };
}

/** A week: every duration svc waits for fits a timer with room to spare (Node's timers overflow past 24.8 days). */
export const MAX_SECONDS = 7 * 24 * 3600;

export function secondsOption(name: string, min = 0, max = MAX_SECONDS) {
  return (value: string): number => {
    if (!/^\d+(\.\d+)?$/.test(value.trim())) throw new InvalidArgumentError(`${name} must be a number of seconds`);
    const n = Number(value);
    if (n < min) throw new InvalidArgumentError(`${name} must be at least ${min}`);
    if (n > max) throw new InvalidArgumentError(`${name} must be at most ${max.toLocaleString('en-US')} seconds`);
    return n;
  };
}

/** Collects a repeatable option into an array. */
export function collect(value: string, previous: unknown): string[] {
  return [...((previous as string[] | undefined) ?? []), value];
}

/** `a,b,c` into a list, for options the service takes as an array or a comma list. */
export function listOption(name: string) {
  return (value: string): string[] => {
    const items = parseFieldList(value);
    if (items.length === 0) throw new InvalidArgumentError(`${name} needs at least one value`);
    return items;
  };
}

export function fieldsOption(value: string): string[] {
  const fields = parseFieldList(value);
  if (fields.length === 0 || fields.some((f) => f.split('.').includes(''))) {
    throw new InvalidArgumentError('expected field names separated by commas, such as id,namespace.full_path');
  }
  return fields;
}

const DURATION_UNITS_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/**
 * The longest span a duration may name: every one is measured back from now to a date, and far past
 * this the date is no date at all (999999999999999999999d ended in 'Invalid time value').
 */
const MAX_DURATION_DAYS = 36_500;

/** A span such as `30d`, `12w`, `12h` or `90m`, in milliseconds. */
export function durationOption(name: string) {
  return (value: string): number => {
    const match = /^(\d+)([mhdw])$/.exec(value.trim());
    if (!match || Number(match[1]) === 0) {
      throw new InvalidArgumentError(
        `${name} must be a whole number of weeks, days, hours or minutes above 0, such as 30d, 12w, 12h or 90m`,
      );
    }
    const ms = Number(match[1]) * (DURATION_UNITS_MS[match[2] as string] as number);
    if (ms > MAX_DURATION_DAYS * 86_400_000) throw new InvalidArgumentError(`${name} must be at most ${MAX_DURATION_DAYS}d (100 years)`);
    return ms;
  };
}

/** An ISO 8601 date or time (`2026-01-31`, `2026-01-31T12:00:00Z`), checked here rather than refused by the service. */
export function isoTimeOption(name: string) {
  return (value: string): string => {
    const text = value.trim();
    if (!/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(text) || Number.isNaN(Date.parse(text))) {
      throw new InvalidArgumentError(`${name} must be an ISO 8601 date or time, such as 2026-01-31 or 2026-01-31T12:00:00Z`);
    }
    return text;
  };
}

/** `--shard K/N` or `--shard ci`; commander words the refusal (exit 2). */
export function shardOption(value: string): ShardSpec {
  try {
    return parseShardSpec(value);
  } catch (error) {
    throw new InvalidArgumentError(error instanceof Error ? error.message : String(error));
  }
}

/** The global options' parsers by name: commander's part of the options table, which is plain data. */
export const GLOBAL_OPTION_PARSERS: Partial<Record<keyof GlobalValues, (value: string) => unknown>> = {
  timeout: secondsOption('--timeout', 0.001),
  retries: intOption('--retries', 0, 20),
  fields: fieldsOption,
};
