import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { unshareProject } from '../../api/projects.js';
import { withExamples, type Runtime } from '../../runtime.js';
import { numericId, PROJECT_ARGUMENT, projectRef } from '../shared/args.js';
import { reportWriteOutcome } from '../shared/outcome.js';

export function register(parent: Command, runtime: Runtime): void {
  const command = parent
    .command('unshare')
    .description('Stop sharing a project with a group (prints nothing on stdout; the exit code is the result)')
    .argument('<project>', PROJECT_ARGUMENT)
    .argument('<group-id>', 'numeric id of the group the project is shared with');
  withExamples(command, ['svc projects unshare acme/platform/api 5']);
  command.action(runtime.action((ctx, [project, groupId]) => run(ctx, projectRef(project as string), numericId('group id', groupId as string))));
}

export async function run(ctx: Context, project: string, groupId: number): Promise<void> {
  const http = await ctx.http({ requireToken: true });
  const res = await unshareProject(http, project, groupId);
  reportWriteOutcome(
    ctx,
    res.status,
    `project ${project} is no longer shared with group ${groupId}`,
    `removing the share of project ${project} with group ${groupId} was accepted`,
  );
}
