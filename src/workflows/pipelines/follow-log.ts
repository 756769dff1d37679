import type { Clock } from '../shared/clock.js';
import type { Deadline } from '../shared/deadline.js';
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
  /** Bounds the whole follow, a read that hangs included; none: until the job ends. */
  deadline?: Deadline;
  /** The first read, already printed (by --tail), if any. */
  shown?: Buffer;
  write(bytes: Buffer): Promise<void>;
  /** The log was rewritten on the server: whatever of the old one is pending should be finished off. */
  restart(): Promise<void>;
  warn(line: string): void;
}

export interface FollowResult {
  /** The job's last status seen. */
  status: string;
  timedOut: boolean;
}

/**
 * Reads the log until the job ends, writing only what each read adds, and returns the final
 * status. The status is asked before the log, so the read after the job ended holds all of it.
 * A log that no longer starts with what was printed (it shrank, or was rewritten in place) is
 * printed again from its start after one warning, rather than spliced onto the old one.
 */
export async function followLog(source: LogSource, settings: FollowSettings): Promise<FollowResult> {
  const { deadline } = settings;
  let seen = settings.shown ?? Buffer.alloc(0);
  let status = '';
  let waitMs = settings.intervalMs;
  for (;;) {
    const read = async () => [await source.status(), await source.log()] as const;
    const answer = deadline ? await deadline.race(read()) : { expired: false as const, value: await read() };
    if (answer.expired) return { status, timedOut: true };
    const [now, log] = answer.value;
    status = now;
    const changed = log.length < seen.length ? shrank(log, seen) : log.subarray(0, seen.length).equals(seen) ? '' : rewritten(seen);
    if (changed) {
      settings.warn(`the log on the server ${changed}; printing it again from its start`);
      await settings.restart();
      seen = Buffer.alloc(0);
    }
    const grew = log.length > seen.length;
    if (grew) await settings.write(log.subarray(seen.length));
    seen = log;
    if (isFinalStatus(status)) return { status, timedOut: false };
    waitMs = grew ? settings.intervalMs : Math.min(waitMs * 2, Math.max(MAX_LOG_INTERVAL_MS, settings.intervalMs));
    await settings.clock.sleep(Math.min(waitMs, deadline?.remainingMs() ?? waitMs), settings.signal);
    if (deadline?.expired()) return { status, timedOut: true };
  }
}

function shrank(log: Buffer, seen: Buffer): string {
  return `is now shorter than what was printed (${log.length} of ${seen.length} bytes)`;
}

function rewritten(seen: Buffer): string {
  return `was rewritten: its first ${seen.length} bytes are no longer what was printed`;
}
