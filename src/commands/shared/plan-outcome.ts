import type { Context } from '../../context.js';
import { ExitCode, IncompleteError, InterruptedError, SvcError } from '../../errors.js';
import type { AppliedTally } from '../../workflows/shared/apply-planned.js';

interface Named<T> {
  /** What one write was, for the lines on stderr: `tag dev-1`. */
  name: (item: T) => string;
  /** The plan's writes as a count: `12 tags deleted`. */
  summary: (done: number) => string;
}

/**
 * Says how a plan's writes ended: each failure on stderr, then one summary. A refusal (403) exits 4,
 * an interruption 130, any other failure 8 (the rest were still carried out).
 */
export function reportApplied<T>(ctx: Context, planned: number, tally: AppliedTally<T>, named: Named<T>): void {
  for (const { item, error } of tally.failed)
    ctx.warn(`${named.name(item)} failed: ${error instanceof Error ? error.message : String(error)}`);
  const parts = [`${named.summary(tally.done)} of ${planned}`];
  if (tally.failed.length > 0) parts.push(`${tally.failed.length} failed`);
  if (tally.cutOff.length > 0)
    parts.push(`${tally.cutOff.length} cut off in flight (${tally.cutOff.map(named.name).join(', ')}): done or not`);
  if (tally.notStarted > 0) parts.push(`${tally.notStarted} not started`);
  const summary = parts.join('; ');
  if (ctx.signal.aborted) throw new InterruptedError(`interrupted: ${summary}`);
  if (tally.refusal) throw new SvcError(`${summary}: ${tally.refusal.message}`, ExitCode.forbidden);
  if (tally.failed.length > 0) throw new IncompleteError(summary);
  ctx.info(summary);
}

/** A plan, as one page for the output writers. */
export async function* onePage<T>(items: T[]): AsyncGenerator<T[]> {
  yield items;
}
