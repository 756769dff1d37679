import { compareIds } from '../../api/records.js';
import { durationOption, intOption } from '../../cli/parsers.js';
import { defineCommand } from '../../cli/spec.js';
import type { Context } from '../../context.js';
import { IncompleteError, InterruptedError, UsageError } from '../../errors.js';
import { systemClock } from '../../workflows/shared/clock.js';
import { deleteRunners, type PruneTally } from '../../workflows/runners-prune/delete.js';
import { planPrune, type PlannedRunner } from '../../workflows/runners-prune/plan.js';
import { adminOnlyError } from './resource.js';
import { confirmDestructive, YES_OPTION } from '../shared/confirm.js';

interface PruneOptions {
  stale?: boolean;
  olderThan?: number;
  dryRun?: boolean;
  maxInFlight: number;
  yes?: boolean;
}

const DEFAULT_IN_FLIGHT = 8;

export const PRUNE = defineCommand<PruneOptions>({
  name: 'prune',
  description: 'Delete every stale runner of the instance: the plan first (one line per runner), a summary last',
  options: [
    { flags: '--stale', help: 'select the runners the service reports stale (no contact for a week or more); required' },
    {
      flags: '--older-than <age>',
      help: 'only runners whose last contact is older than this (90d, 12h, 2w)',
      parse: durationOption('--older-than'),
    },
    { flags: '--dry-run', help: 'print the plan and delete nothing' },
    {
      flags: '--max-in-flight <n>',
      help: 'deletions (and detail reads) at once; fewer for a while when the service rate limits',
      parse: intOption('--max-in-flight', 1, 64),
      default: DEFAULT_IN_FLIGHT,
    },
    YES_OPTION,
  ],
  notes:
    'Administrators only (it reads /runners/all). The plan goes to stdout in the output format; a spinner (on a terminal) and the summary to stderr. ' +
    'With --older-than each runner is read once more for its last contact, and runners that never made contact are kept. ' +
    'Exit 8 when any deletion failed (the others are still done).',
  examples: ['svc runners prune --stale --dry-run', 'svc runners prune --stale --older-than 90d --yes -o ndjson'],
  run: (ctx, _args, opts) => prune(ctx, opts),
});

const PLAN_COLUMNS = ['id', 'runner_type', 'status', 'contacted_at', 'description'];

async function prune(ctx: Context, opts: PruneOptions): Promise<void> {
  if (!opts.stale) throw new UsageError('say which runners to prune: --stale (the only selection there is)');
  const http = await ctx.http({ requireToken: true });
  const run = { maxInFlight: opts.maxInFlight, clock: systemClock, signal: ctx.signal };
  const plan = await planPrune(http, { ...run, olderThanMs: opts.olderThan, now: Date.now() }).catch((error: unknown) => {
    throw adminOnlyError(error, 'pruning reads every runner of the instance');
  });
  if (ctx.signal.aborted) throw new InterruptedError('interrupted while reading the runners; nothing was deleted');
  const what = `${plan.length} stale runner${plan.length === 1 ? '' : 's'}${opts.olderThan === undefined ? '' : ' past the age given'}`;
  if (plan.length === 0) {
    ctx.info('no stale runner matches: nothing to delete');
    return;
  }
  await ctx.printPages(onePage(plan), PLAN_COLUMNS);
  if (opts.dryRun) {
    ctx.info(`dry run: ${what} would be deleted`);
    return;
  }
  await confirmDestructive(ctx, opts.yes, `Delete ${what}`);
  const spinner = await ctx.spinner(`deleting ${what}`);
  const tally = await deleteRunners(http, plan, run, (progress) =>
    spinner.update(`deleting runners: ${progress.deleted + progress.failed.length} of ${plan.length} done`),
  ).finally(() => spinner.stop());
  report(ctx, plan.length, tally);
}

async function* onePage(plan: PlannedRunner[]): AsyncGenerator<PlannedRunner[]> {
  yield plan;
}

function report(ctx: Context, planned: number, tally: PruneTally): void {
  // Ctrl-C also cuts off the deletions in flight: the service may or may not have done them.
  const cutOff = tally.failed.filter(({ error }) => error instanceof InterruptedError).map(({ id }) => id);
  const failed = tally.failed.filter(({ error }) => !(error instanceof InterruptedError)).sort((a, b) => compareIds(a.id, b.id));
  for (const { id, error } of failed) ctx.info(`runner ${id} not deleted: ${error instanceof Error ? error.message : String(error)}`);
  const parts = [`deleted ${tally.deleted} of ${planned} runners`];
  if (failed.length > 0) parts.push(`${failed.length} failed`);
  if (cutOff.length > 0) parts.push(`${cutOff.length} cut off in flight, maybe deleted (${cutOff.sort(compareIds).join(', ')})`);
  if (tally.notStarted > 0) parts.push(`${tally.notStarted} not attempted`);
  const summary = parts.join('; ');
  if (tally.notStarted > 0 || cutOff.length > 0) throw new InterruptedError(`interrupted: ${summary}`);
  if (failed.length > 0) throw new IncompleteError(summary);
  ctx.info(summary);
}
