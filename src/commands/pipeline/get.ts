import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { getPipeline } from '../../api/pipelines.js';
import { writeRecord } from '../../output/writer.js';
import { withExamples, type Runtime } from '../../runtime.js';
import { numericId, PROJECT_ARGUMENT, projectRef } from '../shared/args.js';
import { PIPELINE_FIELDS } from './follow.js';

export function register(parent: Command, runtime: Runtime): void {
  const command = parent
    .command('get')
    .description('Show one pipeline')
    .argument('<project>', PROJECT_ARGUMENT)
    .argument('<pipeline-id>', 'pipeline id (as in the pipeline URL)');
  withExamples(command, ['svc pipeline get acme/platform/api 1042', 'svc pipeline get 42 1042 --fields status,web_url']);
  command.action(runtime.action((ctx, [project, id]) => run(ctx, projectRef(project as string), numericId('pipeline id', id as string))));
}

export async function run(ctx: Context, project: string, pipelineId: number): Promise<void> {
  const http = await ctx.http();
  await writeRecord(ctx.stdout, ctx.output, await getPipeline(http, project, pipelineId), PIPELINE_FIELDS);
}
