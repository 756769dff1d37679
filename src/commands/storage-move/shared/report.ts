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

/**
 * The summary goes to stdout either way (it honours -o and --fields; JSON is one document with
 * the run's figures around the kinds). Exit 0 only when everything moved; otherwise 8 with one
 * line saying what is left.
 */
export async function reportSummary(ctx: Context, summary: MoveSummary, named: boolean): Promise<void> {
  const { format, fields } = ctx.output;
  if (format === 'json') await write(ctx.stdout, formatSummaryDocument(summary, fields));
  else await writeList(ctx.stdout, ctx.output, toAsync(summaryRecords(summary, format)), [...SUMMARY_COLUMNS]);
  if (!summary.complete) throw new IncompleteError(describeOutcome(summary, named));
  ctx.info(describeOutcome(summary, named));
}
