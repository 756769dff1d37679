import type { Context } from '../../../context.js';
import { IncompleteError } from '../../../errors.js';
import { write, writeList } from '../../../output/writer.js';
import {
  describeOutcome,
  formatSummaryDocument,
  SUMMARY_COLUMNS,
  summaryRecords,
  type MoveSummary,
} from '../../../workflows/storage-move/summary.js';
import { toAsync } from './records.js';
import type { WaitEvents } from '../../shared/events.js';
import { ExitCode } from '../../../errors.js';

/**
 * The summary goes to stdout either way (it honours -o and --fields; JSON is one document with
 * the run's figures around the kinds). Exit 0 only when everything moved; otherwise 8 with one
 * line saying what is left.
 */
export async function reportSummary(ctx: Context, summary: MoveSummary, named: boolean, events?: WaitEvents): Promise<void> {
  const { format, fields } = ctx.output;
  if (events?.enabled) {
    const outcome = describeOutcome(summary, named);
    const document: unknown = JSON.parse(formatSummaryDocument(summary, undefined));
    await events.end(document, [], summary.complete ? 0 : ExitCode.incomplete, summary.complete ? undefined : outcome);
    if (!summary.complete) throw new IncompleteError(outcome);
    return ctx.info(outcome);
  }
  if (format === 'json') await write(ctx.stdout, formatSummaryDocument(summary, fields));
  else await writeList(ctx.stdout, ctx.output, toAsync(summaryRecords(summary, format)), [...SUMMARY_COLUMNS]);
  if (!summary.complete) throw new IncompleteError(describeOutcome(summary, named));
  ctx.info(describeOutcome(summary, named));
}
