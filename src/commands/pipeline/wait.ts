import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { withExamples, type Runtime } from '../../runtime.js';
import { numericId, PROJECT_ARGUMENT, projectRef } from '../shared/args.js';
import { addWaitOptions, type WaitFlags } from '../shared/wait.js';
import { followPipeline } from './follow.js';

export function register(parent: Command, runtime: Runtime): void {
  const command = parent
    .command('wait')
    .description('Wait for a pipeline to end: exit 0 on success, 8 on failed/canceled/skipped/manual or --timeout')
    .argument('<project>', PROJECT_ARGUMENT)
    .argument('<pipeline-id>', 'pipeline id (as in the pipeline URL)');
  addWaitOptions(command);
  withExamples(command, ['svc pipeline wait acme/platform/api 1042 --interval 10 --timeout 3600']);
  command.action(
    runtime.action<WaitFlags>((ctx, [project, id], opts) => run(ctx, projectRef(project as string), numericId('pipeline id', id as string), opts)),
  );
}

export async function run(ctx: Context, project: string, pipelineId: number, flags: WaitFlags): Promise<void> {
  const http = await ctx.http();
  await followPipeline(ctx, http, project, flags, undefined, pipelineId);
}
