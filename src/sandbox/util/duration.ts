// Durations as the service's time tracking reads and prints them (Gitlab::TimeTrackingFormatter):
// a day is 8 hours, a week 5 days, a month 4 weeks.
const UNITS: ReadonlyArray<readonly [string, number]> = [
  ['mo', 4 * 5 * 8 * 3600],
  ['w', 5 * 8 * 3600],
  ['d', 8 * 3600],
  ['h', 3600],
  ['m', 60],
  ['s', 1],
];

/** Seconds from `1h 30m`, `-2h`, `90m` or a bare number of hours; undefined when it does not parse. */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim();
  const sign = trimmed.startsWith('-') ? -1 : 1;
  const body = trimmed.replace(/^-/, '').trim();
  if (/^\d+(\.\d+)?$/.test(body)) return sign * Math.round(Number(body) * 3600);
  const parts = [...body.matchAll(/(\d+(?:\.\d+)?)\s*(mo|w|d|h|m|s)(?![a-z])/g)];
  if (
    parts.length === 0 ||
    parts
      .map((m) => m[0])
      .join('')
      .replace(/\s/g, '') !== body.replace(/\s/g, '')
  )
    return undefined;
  return sign * Math.round(parts.reduce((n, m) => n + Number(m[1]) * UNITS.find(([u]) => u === m[2])![1], 0));
}

/** `1w 2d 3h 30m`, as the service prints a duration; null for none. */
export function humanDuration(seconds: number): string | null {
  if (seconds === 0) return null;
  let rest = Math.abs(seconds);
  const out: string[] = [];
  for (const [unit, size] of UNITS) {
    const n = Math.floor(rest / size);
    if (n > 0) out.push(`${n}${unit}`);
    rest -= n * size;
  }
  return `${seconds < 0 ? '-' : ''}${out.join(' ')}`;
}

export function timeStatsJson(t: { estimate: number; spent: number }): Record<string, unknown> {
  return {
    time_estimate: t.estimate,
    total_time_spent: t.spent,
    human_time_estimate: humanDuration(t.estimate),
    human_total_time_spent: humanDuration(t.spent),
  };
}
