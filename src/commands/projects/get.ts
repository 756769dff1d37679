import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { getProject } from '../../api/projects.js';
import { writeRecord } from '../../output/writer.js';
import { withExamples, type Runtime } from '../../runtime.js';
import { PROJECT_ARGUMENT, projectRef } from '../shared/args.js';

export const PROJECT_FIELDS = [
  'id',
  'path_with_namespace',
  'name',
  'description',
  'visibility',
  'default_branch',
  'repository_storage',
  'web_url',
  'created_at',
  'last_activity_at',
];

export function register(parent: Command, runtime: Runtime): void {
  const command = parent
    .command('get')
    .description('Show one project')
    .argument('<project>', PROJECT_ARGUMENT);
  withExamples(command, ['svc projects get 42', 'svc projects get my-group/my-project -o json']);
  command.action(runtime.action((ctx, [project]) => run(ctx, projectRef(project as string))));
}

export async function run(ctx: Context, project: string): Promise<void> {
  const http = await ctx.http();
  await writeRecord(ctx.stdout, ctx.output, await getProject(http, project), PROJECT_FIELDS);
}
