import type { Context } from '../../context.js';
import type { ColumnSpec } from '../../output/columns.js';

/**
 * 202 means the service accepted the request and will carry it out later: say so instead of
 * reporting a plain success.
 */
export function reportWriteOutcome(ctx: Context, status: number, done: string, scheduled: string): void {
  if (status === 202) ctx.info(`${scheduled} (202 Accepted: scheduled for processing, not finished yet)`);
  else ctx.info(done);
}

/** The record a write produced, on stdout; `-q` leaves stdout empty (the exit code is the answer). */
export async function writeResult(ctx: Context, record: unknown, fields: ColumnSpec[]): Promise<void> {
  if (!ctx.globals.quiet) await ctx.printRecord(record, fields);
}
