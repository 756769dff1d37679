import { intOption } from '../../cli/parsers.js';
import type { OptionSpec } from '../../cli/spec.js';

/** How many writes of a plan run at once; the client's throttle halves it for a while when the service rate limits. */
export const MAX_IN_FLIGHT_OPTION: OptionSpec = {
  flags: '--max-in-flight <n>',
  help: 'writes sent at once, fewer for a while when the service rate limits',
  parse: intOption('--max-in-flight', 1, 64),
  default: 4,
};

/** An age as typed and as the service's durations read it: the largest unit that divides it (30d, 12h, 90m). */
export function ageText(ms: number): string {
  for (const [unit, size] of [
    ['d', 86_400_000],
    ['h', 3_600_000],
  ] as const) {
    if (ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms / 60_000}m`;
}

/** Bytes for a person: 1.5 GB, 20.3 MB, 512 B. */
export function sizeText(bytes: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`;
}
