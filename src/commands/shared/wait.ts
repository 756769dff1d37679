import type { OptionSpec } from '../../cli/spec.js';
import { secondsOption } from '../../cli/parsers.js';
import type { Context } from '../../context.js';
import { InterruptedError, UsageError } from '../../errors.js';
import { DEFAULT_INTERVAL_S, sleep, systemClock } from '../../workflows/shared/clock.js';
import { Deadline } from '../../workflows/shared/deadline.js';
import type { EventType, WaitEvents } from './events.js';

export interface WaitFlags {
  interval?: number;
  /** Seconds; undefined waits as long as it takes. */
  waitTimeout?: number;
}

const MAX_INTERVAL_S = 3600;

/** The settings of a wait; `--timeout` stays the per-request timeout everywhere. */
export const WAIT_OPTIONS: OptionSpec[] = [
  {
    flags: '--interval <seconds>',
    help: `seconds between status checks (default ${DEFAULT_INTERVAL_S})`,
    parse: secondsOption('--interval', 0.05, MAX_INTERVAL_S),
  },
  {
    flags: '--wait-timeout <seconds>',
    help: 'give up waiting after this many seconds (exit 8); default: no limit',
    parse: secondsOption('--wait-timeout', 0.05),
  },
];

/** The spelling the wait's deadline had after the verb before it got a name of its own. */
export const WAIT_RENAMES = { '--timeout': '--wait-timeout' };

/** On a command where waiting is optional (it has `--wait`), the wait's settings make sense only with it. */
export function checkWaitFlags(flags: WaitFlags & { wait?: boolean; events?: boolean }): void {
  if (flags.wait) return;
  const given = [
    flags.interval !== undefined && '--interval',
    flags.waitTimeout !== undefined && '--wait-timeout',
    flags.events && '--events',
  ].filter((name): name is string => Boolean(name));
  if (given.length === 0) return;
  throw new UsageError(`${given.join(' and ')} only ${given.length > 1 ? 'apply' : 'applies'} with --wait`);
}

export interface Watch<T> {
  /** What is watched, for progress lines: `pipeline 12`. */
  subject: string;
  fetch: () => Promise<T>;
  status: (record: T) => string;
  isFinal: (record: T) => boolean;
  /** Said when the user interrupts: the work goes on on the server. */
  onInterrupt: string;
  /** A record already in hand (from the create request), checked before the first fetch. */
  initial?: T;
  /** With --events: where status changes go, and what the record is as an event. */
  events?: WaitEvents;
  event?: (record: T) => { type: EventType; id: number | string; extra?: Record<string, unknown> };
}

export interface WatchResult<T> {
  record: T;
  timedOut: boolean;
  elapsedS: number;
}

/**
 * Polls until the record reaches a final status or the time runs out. Progress goes to stderr:
 * a spinner on a terminal, otherwise one line per status change.
 */
export async function watchUntilFinal<T>(ctx: Context, flags: WaitFlags, watch: Watch<T>): Promise<WatchResult<T>> {
  const started = Date.now();
  const elapsedS = () => Math.round((Date.now() - started) / 100) / 10;
  const intervalMs = (flags.interval ?? DEFAULT_INTERVAL_S) * 1000;
  const spinner = await ctx.spinner(`${watch.subject}: waiting`);
  let lastStatus: string | undefined;
  const show = async (record: T) => {
    const status = watch.status(record);
    spinner.update(`${watch.subject}: ${status} (${Math.round(elapsedS())} s)`);
    if (status !== lastStatus && !ctx.animated) ctx.info(`${watch.subject}: ${status}`);
    lastStatus = status;
    if (watch.events && watch.event) {
      const { type, id, extra } = watch.event(record);
      await watch.events.status(type, id, status, extra);
    }
  };
  try {
    // The deadline bounds the whole wait, a poll that hangs included.
    const deadline = Deadline.after(systemClock, flags.waitTimeout === undefined ? undefined : flags.waitTimeout * 1000);
    let record: T = watch.initial ?? (await watch.fetch());
    await show(record);
    while (!watch.isFinal(record)) {
      if (deadline.expired()) return { record, timedOut: true, elapsedS: elapsedS() };
      await sleep(Math.min(intervalMs, deadline.remainingMs()), ctx.signal);
      const next = await deadline.race(watch.fetch());
      if (next.expired) return { record, timedOut: true, elapsedS: elapsedS() };
      record = next.value;
      await show(record);
    }
    return { record, timedOut: false, elapsedS: elapsedS() };
  } catch (error) {
    if (error instanceof InterruptedError || ctx.signal.aborted) throw new InterruptedError(`interrupted; ${watch.onInterrupt}`);
    throw error;
  } finally {
    spinner.stop();
  }
}
