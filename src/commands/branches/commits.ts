import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { listBranchCommits } from '../../api/repository.js';
import { withExamples, type Runtime } from '../../runtime.js';
import { PROJECT_ARGUMENT, projectRef, requiredTextParser } from '../shared/args.js';
import { addListOptions, outputList, perPageFor, type ListFlags } from '../shared/list.js';

export function register(parent: Command, runtime: Runtime): void {
  const command = parent
    .command('commits')
    .description('List the commits of a branch, newest first')
    .argument('<project>', PROJECT_ARGUMENT)
    .argument('<branch>', 'branch name, e.g. feature/login (typed as is; svc encodes it)', requiredTextParser('branch'));
  addListOptions(command);
  withExamples(command, ['svc branches commits acme/platform/api feature/search-v2 --limit 10', 'svc branches commits 42 main --all -o ndjson']);
  command.action(runtime.action<ListFlags>((ctx, [project, branch], opts) => run(ctx, projectRef(project as string), branch as string, opts)));
}

export async function run(ctx: Context, project: string, branch: string, opts: ListFlags): Promise<void> {
  const http = await ctx.http();
  const pages = listBranchCommits(http, project, branch, { perPage: perPageFor(opts) });
  await outputList(ctx, pages, opts, ['short_id', 'created_at', 'author_name', 'title']);
}
