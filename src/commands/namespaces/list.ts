import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { listNamespaces } from '../../api/namespaces.js';
import { withExamples, type Runtime } from '../../runtime.js';
import { addListOptions, outputList, perPageFor, type ListFlags } from '../shared/list.js';

interface ListOptions extends ListFlags {
  search?: string;
}

export function register(parent: Command, runtime: Runtime): void {
  const command = parent
    .command('list')
    .description('List namespaces (all of them for an administrator, your own otherwise)')
    .option('--search <text>', 'only namespaces whose path contains the text');
  addListOptions(command);
  withExamples(command, ['svc namespaces list --search acme', 'svc namespaces list --all -o ndjson --fields id,full_path']);
  command.action(runtime.action<ListOptions>((ctx, _args, opts) => run(ctx, opts)));
}

export async function run(ctx: Context, opts: ListOptions): Promise<void> {
  const http = await ctx.http({ requireToken: true });
  const pages = listNamespaces(http, { search: opts.search, perPage: perPageFor(opts) });
  await outputList(ctx, pages, opts, ['id', 'full_path', 'kind', 'parent_id']);
}
