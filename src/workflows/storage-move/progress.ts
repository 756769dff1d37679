import type { Context, Spinner } from '../../context.js';
import type { ProgressCounts } from './tracker.js';

const number = new Intl.NumberFormat('en-US');

/** `projects 8,412/10,000 finished · 37 started · 2 failed, retrying` */
export function formatProgressLine(name: string, counts: ProgressCounts): string {
  const parts = [`${name} ${number.format(counts.finished)}/${number.format(counts.total)} finished`];
  if (counts.running) parts.push(`${number.format(counts.running)} started`);
  if (counts.waiting) parts.push(`${number.format(counts.waiting)} waiting`);
  if (counts.retrying) parts.push(`${number.format(counts.retrying)} failed, retrying`);
  if (counts.failed) parts.push(`${number.format(counts.failed)} failed`);
  return parts.join(' · ');
}

/** Tests shorten the plain-progress interval with SVC_PROGRESS_INTERVAL_MS; people get 30 s. */
export function progressIntervalMs(env: NodeJS.ProcessEnv): number {
  const value = Number(env.SVC_PROGRESS_INTERVAL_MS);
  return Number.isFinite(value) && value >= 0 && env.SVC_PROGRESS_INTERVAL_MS !== '' ? value : 30_000;
}

/** A spinner on a terminal; elsewhere a plain line on stderr at most every interval; nothing with --quiet. */
export class Progress {
  private spinner?: Spinner;
  private lastPlainAt = Number.NEGATIVE_INFINITY;
  private readonly intervalMs: number;

  private constructor(
    private readonly ctx: Context,
    spinner: Spinner | undefined,
  ) {
    this.spinner = spinner;
    this.intervalMs = progressIntervalMs(ctx.env);
  }

  static async start(ctx: Context, text: string): Promise<Progress> {
    return new Progress(ctx, ctx.animated ? await ctx.spinner(text) : undefined);
  }

  update(lines: string[], now = Date.now()): void {
    if (this.spinner) return this.spinner.update(lines.join('\n'));
    if (this.ctx.globals.quiet || now - this.lastPlainAt < this.intervalMs) return;
    this.lastPlainAt = now;
    for (const line of lines) this.ctx.info(line);
  }

  stop(): void {
    this.spinner?.stop();
    this.spinner = undefined;
  }
}
