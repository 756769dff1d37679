import { sendRequest } from '../../api/resource.js';
import { durationOption, intOption } from '../../cli/parsers.js';
import { defineCommand } from '../../cli/spec.js';
import type { Context } from '../../context.js';
import { ExitCode, IncompleteError, InterruptedError, SvcError, UsageError } from '../../errors.js';
import { apiPath } from '../../http/encode.js';
import { deletePipelines, type DeletionOutcome } from '../../workflows/pipeline-cleanup/delete.js';
import { selectPipelines, type PlannedPipeline } from '../../workflows/pipeline-cleanup/select.js';
import { systemClock } from '../../workflows/shared/clock.js';
import { withRole } from '../generic/role.js';
import { PROJECT_ARGUMENT, idDigits, projectRef, requiredTextParser } from '../shared/args.js';
import { confirmDestructive, YES_OPTION } from '../shared/confirm.js';
import { ageText } from '../shared/plan-options.js';
import { PIPELINE_STATUSES } from '../shared/service-enums.js';

interface DeleteOptions {
  olderThan?: number;
  status?: string;
  ref?: string;
  dryRun?: boolean;
  maxInFlight?: number;
  perPage?: number;
  yes?: boolean;
}

const DEFAULT_MAX_IN_FLIGHT = 4;
const OUTCOME_COLUMNS = ['id', 'ref', 'status', 'updated_at', 'outcome', 'error'];
const CLEANUP_ONLY: Array<[keyof DeleteOptions, string]> = [
  ['status', '--status'],
  ['ref', '--ref'],
  ['dryRun', '--dry-run'],
  ['maxInFlight', '--max-in-flight'],
  ['perPage', '--per-page'],
];

export const DELETE = defineCommand<DeleteOptions>({
  name: 'delete',
  description: 'Delete a pipeline with its jobs and logs, or with --older-than every pipeline last updated before that age',
  args: [
    { name: 'project', help: PROJECT_ARGUMENT, parse: projectRef },
    {
      name: 'pipeline-id',
      help: 'pipeline id (as in the pipeline URL); leave it out with --older-than',
      parse: (value) => idDigits('pipeline id', value),
      optional: true,
    },
  ],
  options: [
    {
      flags: '--older-than <age>',
      help: 'delete every pipeline not updated for this long: days, hours or minutes such as 30d, 12h, 90m',
      parse: durationOption('--older-than'),
    },
    { flags: '--status <status>', help: 'with --older-than: only pipelines in this status', choices: PIPELINE_STATUSES },
    { flags: '--ref <ref>', help: 'with --older-than: only pipelines of this branch or tag', parse: requiredTextParser('--ref') },
    { flags: '--dry-run', help: 'with --older-than: print the pipelines that would be deleted and delete nothing' },
    {
      flags: '--max-in-flight <n>',
      help: `with --older-than: deletions sent at once, halved for a while when the service rate limits (default ${DEFAULT_MAX_IN_FLIGHT})`,
      parse: intOption('--max-in-flight', 1, 64),
    },
    {
      flags: '--per-page <n>',
      help: 'with --older-than: pipelines per listing request, 1-100 (default 100)',
      parse: intOption('--per-page', 1, 100),
    },
    YES_OPTION,
  ],
  notes:
    'Deleting needs the owner role. With --older-than, every matching pipeline is listed first (all pages) and shown on stderr, ' +
    'one line each (id, ref, status, last update); one confirmation covers them all. Each deletion is then reported on stderr, ' +
    'then a summary; with -o, one outcome record per pipeline goes to stdout (outcome deleted, failed, interrupted, or planned ' +
    'under --dry-run). Exit 8 if any deletion failed; a refusal for want of the owner role starts no new deletion and exits 4; ' +
    'Ctrl-C starts no new deletion and exits 130.',
  examples: [
    'svc pipeline delete acme/platform/api 1042',
    'svc pipeline delete acme/platform/api --older-than 30d --status failed --dry-run',
    'svc pipeline delete acme/platform/api --older-than 90d --ref main --yes -o ndjson > deleted.ndjson',
  ],
  run: (ctx, [project, id], opts) => run(ctx, project as string, id as string | undefined, opts),
});

async function run(ctx: Context, project: string, id: string | undefined, opts: DeleteOptions): Promise<void> {
  if (id !== undefined && opts.olderThan !== undefined) throw new UsageError('give a pipeline ID or --older-than, not both');
  if (opts.olderThan === undefined) {
    const misplaced = CLEANUP_ONLY.find(([name]) => opts[name] !== undefined);
    if (misplaced) throw new UsageError(`${misplaced[1]} goes with --older-than`);
    if (id === undefined)
      throw new UsageError('give a pipeline ID, or --older-than AGE to delete every pipeline not updated for that long');
    return deleteOne(ctx, project, id, opts.yes);
  }
  return cleanUp(ctx, project, opts.olderThan, opts);
}

async function deleteOne(ctx: Context, project: string, id: string, yes: boolean | undefined): Promise<void> {
  const http = await ctx.http({ requireToken: true });
  await confirmDestructive(ctx, yes, `Delete pipeline ${id} of project ${project} with its jobs and logs`);
  await withRole('owner', () => sendRequest(http, 'DELETE', apiPath`/projects/${project}/pipelines/${id}`));
  ctx.info(`deleted pipeline ${id}`);
}

async function cleanUp(ctx: Context, project: string, ageMs: number, opts: DeleteOptions): Promise<void> {
  const http = await ctx.http({ requireToken: true });
  const scope = `of project ${project} not updated for ${ageText(ageMs)}${filterText(opts)}`;
  const updatedBefore = new Date(systemClock.now() - ageMs);
  const pipelines = await selectPipelines(http, project, { updatedBefore, status: opts.status, ref: opts.ref }, opts.perPage ?? 100);
  if (pipelines.length === 0) {
    ctx.info(`no pipelines ${scope}: nothing to delete`);
    return;
  }
  ctx.info(`found ${count(pipelines.length)} ${scope}:`);
  for (const pipeline of pipelines) ctx.info(`  ${pipeline.id}  ${pipeline.ref}  ${pipeline.status}  ${pipeline.updated_at}`);
  if (opts.dryRun) {
    if (ctx.globals.output) await ctx.printPages(once(pipelines.map((p) => outcomeRecord(p, 'planned'))), OUTCOME_COLUMNS);
    ctx.info(`would delete ${count(pipelines.length)}; nothing was deleted (--dry-run)`);
    return;
  }
  await confirmDestructive(ctx, opts.yes, `Delete these ${count(pipelines.length)}`);
  await deleteAll(ctx, project, pipelines, opts.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT);
}

async function deleteAll(ctx: Context, project: string, pipelines: PlannedPipeline[], maxInFlight: number): Promise<void> {
  const http = await ctx.http();
  const outcomes = deletePipelines(http, project, pipelines, { maxInFlight, clock: systemClock, signal: ctx.signal });
  const tally = { deleted: 0, failed: 0, interrupted: 0, refused: 0 };
  let missing = 'the owner role or administrator access';
  async function* records(): AsyncGenerator<unknown[]> {
    for await (const outcome of unclosable(outcomes)) {
      tally[outcome.result]++;
      if (outcome.refused) tally.refused++;
      if (outcome.refused?.scope !== undefined) missing = `a token with the scope '${outcome.refused.scope}'`;
      report(ctx, outcome);
      yield [outcomeRecord(outcome.pipeline, outcome.result, outcome.error)];
    }
  }
  if (ctx.globals.output) await ctx.printPages(records(), OUTCOME_COLUMNS);
  // Without -o, or once the reader of stdout went away, the deletions still run to their end.
  for await (const _drained of records());
  const summary = `deleted ${tally.deleted} of ${count(pipelines.length)} of project ${project}`;
  const unstarted = pipelines.length - tally.deleted - tally.failed - tally.interrupted;
  if (tally.refused > 0 && !ctx.signal.aborted) {
    const others = tally.failed - tally.refused;
    throw new SvcError(
      `deleting pipelines of project ${project} needs ${missing} (403 from the service): ` +
        `deleted ${tally.deleted} of ${count(pipelines.length)}; ${tally.refused} refused, ${others > 0 ? `${others} failed otherwise, ` : ''}${unstarted} not started`,
      ExitCode.forbidden,
    );
  }
  if (ctx.signal.aborted) {
    throw new InterruptedError(
      `interrupted: ${summary}; ${tally.failed} failed, ${tally.interrupted} cut off (deleted or not), ${unstarted} not started`,
    );
  }
  if (tally.failed > 0) throw new IncompleteError(`${summary}; ${tally.failed} failed`);
  ctx.info(summary);
}

function report(ctx: Context, outcome: DeletionOutcome): void {
  const id = outcome.pipeline.id;
  if (outcome.result === 'deleted') ctx.info(`deleted pipeline ${id}`);
  else if (outcome.result === 'failed') ctx.warn(`pipeline ${id} was not deleted: ${outcome.error ?? 'failed'}`);
  else ctx.warn(`pipeline ${id}: ${outcome.error ?? 'interrupted'}`);
}

function outcomeRecord(pipeline: PlannedPipeline, outcome: string, error?: string): Record<string, unknown> {
  return { ...pipeline, outcome, error: error ?? null };
}

/** Leaves the source open when the reader stops early, so that the rest can still be read. */
function unclosable<T>(source: AsyncGenerator<T>): AsyncIterable<T> {
  return { [Symbol.asyncIterator]: () => ({ next: () => source.next() }) };
}

async function* once<T>(page: T[]): AsyncGenerator<T[]> {
  yield page;
}

function count(n: number): string {
  return `${n} pipeline${n === 1 ? '' : 's'}`;
}

function filterText(opts: DeleteOptions): string {
  return [opts.status && `, status ${opts.status}`, opts.ref && `, ref ${opts.ref}`].filter(Boolean).join('');
}
