import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { InterruptedError, UsageError } from '../../errors.js';
import { secondsOption } from '../../runtime.js';

export interface WaitFlags {
  interval: number;
  /** Seconds; undefined waits as long as it takes. */
  timeout?: number;
}

export const DEFAULT_INTERVAL_S = 5;

/**
 * `--timeout` here bounds the wait; the root yields its per-request `--timeout` to such commands (cli.ts).
 * On a command where waiting is optional (it has `--wait`), the two make sense only with it.
 */
export function addWaitOptions(command: Command): Command {
  return command
    .option('--interval <seconds>', 'seconds between status checks', secondsOption('--interval', 0.05), DEFAULT_INTERVAL_S)
    .option('--timeout <seconds>', 'give up waiting after this many seconds (exit 8); default: no limit', secondsOption('--timeout', 0.05))
    .hook('preAction', refuseWaitOptionsWithoutWait);
}

function refuseWaitOptionsWithoutWait(command: Command): void {
  if (!command.options.some((o) => o.long === '--wait') || command.getOptionValue('wait')) return;
  const given = ['interval', 'timeout'].filter((name) => command.getOptionValueSource(name) === 'cli');
  if (given.length === 0) return;
  const hint = given.includes('timeout') ? ' (for a per-request timeout, put --timeout before the command name)' : '';
  throw new UsageError(`${given.map((name) => `--${name}`).join(' and ')} only ${given.length > 1 ? 'apply' : 'applies'} with --wait${hint}`);
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
  const spinner = await ctx.spinner(`${watch.subject}: waiting`);
  let lastStatus: string | undefined;
  const show = (record: T) => {
    const status = watch.status(record);
    spinner.update(`${watch.subject}: ${status} (${Math.round(elapsedS())} s)`);
    if (status !== lastStatus && !ctx.animated) ctx.info(`${watch.subject}: ${status}`);
    lastStatus = status;
  };
  try {
    let record = watch.initial ?? (await watch.fetch());
    show(record);
    while (!watch.isFinal(record)) {
      const leftMs = flags.timeout === undefined ? Number.POSITIVE_INFINITY : flags.timeout * 1000 - (Date.now() - started);
      if (leftMs <= 0) return { record, timedOut: true, elapsedS: elapsedS() };
      await sleep(Math.min(flags.interval * 1000, leftMs), ctx.signal);
      record = await watch.fetch();
      show(record);
    }
    return { record, timedOut: false, elapsedS: elapsedS() };
  } catch (error) {
    if (error instanceof InterruptedError || ctx.signal.aborted) throw new InterruptedError(`interrupted; ${watch.onInterrupt}`);
    throw error;
  } finally {
    spinner.stop();
  }
}

export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new InterruptedError());
    const onAbort = () => {
      clearTimeout(timer);
      reject(new InterruptedError());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
