import type { Context } from '../../context.js';
import { listPipelinesPage } from '../../api/pipelines.js';
import { defineCommand } from '../../cli/spec.js';
import { ExitCode, IncompleteError, InterruptedError, UsageError } from '../../errors.js';
import type { HttpClient } from '../../http/client.js';
import { waitToAppear } from '../../workflows/pipelines/appear.js';
import { DEFAULT_INTERVAL_S, systemClock } from '../../workflows/shared/clock.js';
import type { Deadline } from '../../workflows/shared/deadline.js';
import { idDigits, PROJECT_ARGUMENT, projectRef, requiredTextParser } from '../shared/args.js';
import { WaitEvents } from '../shared/events.js';
import { WAIT_OPTIONS, WAIT_RENAMES } from '../shared/wait.js';
import { followPipeline, TREE_OPTIONS, waitDeadline, type PipelineWaitFlags } from './shared/follow.js';

interface WaitOptions extends PipelineWaitFlags {
  ref?: string;
  sha?: string;
}

export const WAIT = defineCommand<WaitOptions>({
  name: 'wait',
  description: 'Wait for a pipeline to end: exit 0 on success, 8 on failed/canceled/skipped/manual or --wait-timeout',
  args: [
    { name: 'project', help: PROJECT_ARGUMENT, parse: projectRef },
    {
      name: 'pipeline-id',
      help: 'pipeline id (as in the pipeline URL); or --ref/--sha',
      parse: (value) => idDigits('pipeline id', value),
      optional: true,
    },
  ],
  options: [
    {
      flags: '--ref <ref>',
      help: 'the newest pipeline of this branch or tag, waiting for one to appear if there is none yet',
      parse: requiredTextParser('--ref'),
    },
    {
      flags: '--sha <sha>',
      help: 'the newest pipeline of this commit, waiting for one to appear (a push may not have created it yet)',
      parse: requiredTextParser('--sha'),
    },
    ...TREE_OPTIONS,
    ...WAIT_OPTIONS,
  ],
  renamed: WAIT_RENAMES,
  examples: [
    'svc pipeline wait acme/platform/api 1042 --interval 10 --wait-timeout 3600',
    'svc pipeline wait $CI_PROJECT_PATH --sha $CI_COMMIT_SHA --follow-downstream --log-failed',
    'svc pipeline wait acme/platform/api --ref main --log-failed=100',
  ],
  run: (ctx, [project, id], opts) => run(ctx, project as string, id as string | undefined, opts),
});

async function run(ctx: Context, project: string, id: string | undefined, opts: WaitOptions): Promise<void> {
  const byCommit = opts.ref !== undefined || opts.sha !== undefined;
  if (id !== undefined && byCommit) throw new UsageError('give a pipeline id or --ref/--sha, not both');
  if (id === undefined && !byCommit)
    throw new UsageError('give a pipeline id, or --ref/--sha for the newest pipeline of a branch, tag or commit');
  const http = await ctx.http();
  const deadline = waitDeadline(opts);
  const pipelineId = id ?? (await newestPipeline(ctx, http, project, opts, deadline));
  await followPipeline(ctx, http, project, opts, undefined, pipelineId, deadline);
}

async function newestPipeline(ctx: Context, http: HttpClient, project: string, opts: WaitOptions, deadline: Deadline): Promise<number> {
  const what = [opts.ref !== undefined && `ref ${opts.ref}`, opts.sha !== undefined && `commit ${opts.sha}`].filter(Boolean).join(' and ');
  const query = { ref: opts.ref, sha: opts.sha, order_by: 'id', sort: 'desc', per_page: 1 };
  let said = false;
  const find = async () => {
    const [newest] = await listPipelinesPage(http, project, query);
    if (!newest && !said) {
      ctx.info(`waiting for a pipeline of ${what} to appear`);
      said = true;
    }
    return newest;
  };
  const started = Date.now();
  let found;
  try {
    found = await waitToAppear(find, {
      clock: systemClock,
      signal: ctx.signal,
      deadline,
      intervalMs: (opts.interval ?? DEFAULT_INTERVAL_S) * 1000,
    });
  } catch (error) {
    if (error instanceof InterruptedError || ctx.signal.aborted)
      throw new InterruptedError(`interrupted; no pipeline of ${what} had appeared`);
    throw error;
  }
  if (!found) {
    const message = `no pipeline of ${what} appeared within ${Math.round((Date.now() - started) / 100) / 10} s`;
    await new WaitEvents(ctx, Boolean(opts.events)).endWithout(ExitCode.incomplete, message);
    throw new IncompleteError(message);
  }
  return found.id;
}
