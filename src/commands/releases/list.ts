import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { listReleases } from '../../api/releases.js';
import { withExamples, type Runtime } from '../../runtime.js';
import { PROJECT_ARGUMENT, projectRef } from '../shared/args.js';
import { addListOptions, outputList, perPageFor, type ListFlags } from '../shared/list.js';

export function register(parent: Command, runtime: Runtime): void {
  const command = parent
    .command('list')
    .description('List the releases of a project, newest first')
    .argument('<project>', PROJECT_ARGUMENT);
  addListOptions(command);
  withExamples(command, ['svc releases list acme/platform/api', 'svc releases list $CI_PROJECT_ID --limit 1 --fields tag_name -o tsv']);
  command.action(runtime.action<ListFlags>((ctx, [project], opts) => run(ctx, projectRef(project as string), opts)));
}

export async function run(ctx: Context, project: string, opts: ListFlags): Promise<void> {
  const http = await ctx.http();
  const pages = listReleases(http, project, { perPage: perPageFor(opts) });
  await outputList(ctx, pages, opts, ['tag_name', 'name', 'released_at', 'commit.short_id']);
}
