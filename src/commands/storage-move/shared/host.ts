import type { Context, Spinner } from '../../../context.js';
import { systemClock } from '../../../workflows/shared/clock.js';
import type { WaitEvents } from '../../shared/events.js';
import type { StatusLines, WorkflowHost } from '../../../workflows/shared/host.js';

/** Tests shorten the plain-progress interval with SVC_PROGRESS_INTERVAL_MS; people get the verb's own (30 s for a watch). */
export function progressIntervalMs(env: NodeJS.ProcessEnv, fallbackMs = 30_000): number {
  const value = Number(env.SVC_PROGRESS_INTERVAL_MS);
  return Number.isFinite(value) && value >= 0 && env.SVC_PROGRESS_INTERVAL_MS !== '' ? value : fallbackMs;
}

/** A spinner on a terminal; elsewhere the lines on stderr at most every interval; nothing with --quiet. */
async function statusLines(ctx: Context, text: string, intervalMs: number): Promise<StatusLines> {
  const spinner: Spinner | undefined = ctx.animated ? await ctx.spinner(text) : undefined;
  let lastPlainAt = Number.NEGATIVE_INFINITY;
  return {
    update(lines) {
      if (spinner) return spinner.update(lines.join('\n'));
      const now = Date.now();
      if (ctx.globals.quiet || now - lastPlainAt < intervalMs) return;
      lastPlainAt = now;
      for (const line of lines) ctx.info(line);
    },
    stop() {
      spinner?.stop();
    },
  };
}

/** The command context as the storage-move workflows see it. */
export function hostFor(ctx: Context, intervalMs = progressIntervalMs(ctx.env), events?: WaitEvents): WorkflowHost {
  return {
    moveChanged: events?.enabled
      ? (kind, containerId, move) => void events.status('storage_move', move.id, move.state, { kind, container_id: containerId })
      : undefined,
    clock: systemClock,
    signal: ctx.signal,
    interactive: ctx.interactive,
    info: (line) => ctx.info(line),
    warn: (line) => ctx.warn(line),
    debug: (line) => ctx.debug(line),
    status: (text) => statusLines(ctx, text, intervalMs),
  };
}
