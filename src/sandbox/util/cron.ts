// The five standard cron fields (minute hour day-of-month month day-of-week) with `*`, lists,
// ranges and steps, and the next time they match. Names (JAN, MON) and the service's extensions
// are not read (src/sandbox/README.md, "Pipeline schedules").
const BOUNDS: ReadonlyArray<[number, number]> = [
  [0, 59],
  [0, 23],
  [1, 31],
  [1, 12],
  [0, 7],
];

export interface Cron {
  sets: ReadonlyArray<ReadonlySet<number>>;
  /** day-of-month and day-of-week both restricted: either one matching is enough */
  eitherDay: boolean;
}

function field(text: string, [min, max]: [number, number]): Set<number> | null {
  const out = new Set<number>();
  for (const part of text.split(',')) {
    const m = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(part);
    if (!m) return null;
    const from = m[1] === '*' ? min : Number(m[2]);
    const to = m[1] === '*' ? max : m[3] !== undefined ? Number(m[3]) : m[4] !== undefined ? max : from;
    const step = m[4] !== undefined ? Number(m[4]) : 1;
    if (from < min || to > max || from > to || step < 1) return null;
    for (let v = from; v <= to; v += step) out.add(v);
  }
  return out;
}

export function parseCron(text: string): Cron | null {
  const parts = text.trim().split(/\s+/);
  if (parts.length !== 5) return null;
  const sets = parts.map((p, i) => field(p, BOUNDS[i]!));
  if (sets.some((s) => s === null)) return null;
  const dow = sets[4]!;
  if (dow.has(7)) dow.add(0);
  return { sets: sets as Set<number>[], eitherDay: parts[2] !== '*' && parts[4] !== '*' };
}

/** The offset of a time zone from UTC at `at`, in ms; null for a zone that is none. */
export function zoneOffset(zone: string, at: number): number | null {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    }).formatToParts(at);
  } catch {
    return null;
  }
  const n = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  const local = Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'));
  return local - Math.floor(at / 60_000) * 60_000;
}

const MINUTE = 60_000;

/** The first matching minute after `after`, on the wall clock `offset` ms from UTC (fixed for the search). */
export function nextRun(cron: Cron, after: number, offset: number): number {
  const [minutes, hours, days, months, weekdays] = cron.sets as [Set<number>, Set<number>, Set<number>, Set<number>, Set<number>];
  let t = (Math.floor((after + offset) / MINUTE) + 1) * MINUTE;
  const limit = t + 5 * 366 * 24 * 60 * MINUTE;
  while (t < limit) {
    const d = new Date(t);
    if (!months.has(d.getUTCMonth() + 1)) {
      t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
      continue;
    }
    const dom = days.has(d.getUTCDate());
    const dow = weekdays.has(d.getUTCDay());
    if (!(cron.eitherDay ? dom || dow : dom && dow)) {
      t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
      continue;
    }
    if (!hours.has(d.getUTCHours())) {
      t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours() + 1);
      continue;
    }
    if (minutes.has(d.getUTCMinutes())) return t - offset;
    t += MINUTE;
  }
  return limit - offset;
}
