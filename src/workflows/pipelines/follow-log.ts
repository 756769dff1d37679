import type { Clock } from '../shared/clock.js';
import { isFinalStatus } from './tree.js';

/** Between reads that bring nothing new the wait doubles, up to this. */
export const MAX_LOG_INTERVAL_MS = 30_000;

export interface LogSource {
  status(): Promise<string>;
  /** The whole log so far: the service has no ranges, so every read returns all of it. */
  log(): Promise<Buffer>;
}

export interface FollowSettings {
  clock: Clock;
  signal: AbortSignal;
  intervalMs: number;
  /** The first read, already printed (by --tail), if any. */
  shown?: number;
  write(bytes: Buffer): Promise<void>;
  warn(line: string): void;
}

/**
 * Reads the log until the job ends, writing only what each read adds, and returns the final
 * status. The status is asked before the log, so the read after the job ended holds all of it.
 */
export async function followLog(source: LogSource, settings: FollowSettings): Promise<string> {
  let shown = settings.shown ?? 0;
  let waitMs = settings.intervalMs;
  for (;;) {
    const status = await source.status();
    const log = await source.log();
    if (log.length < shown) {
      settings.warn(
        `the log on the server is now shorter than what was printed (${log.length} of ${shown} bytes); printing from its end on`,
      );
      shown = log.length;
    }
    const grew = log.length > shown;
    if (grew) await settings.write(log.subarray(shown));
    shown = log.length;
    if (isFinalStatus(status)) return status;
    waitMs = grew ? settings.intervalMs : Math.min(waitMs * 2, Math.max(MAX_LOG_INTERVAL_MS, settings.intervalMs));
    await settings.clock.sleep(waitMs, settings.signal);
  }
}
