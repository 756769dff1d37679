import { Option, type Command } from 'commander';
import type { Context } from '../../context.js';
import { listProjects } from '../../api/projects.js';
import { withExamples, type Runtime } from '../../runtime.js';
import { addListOptions, listLimit, outputList, perPageFor, type ListFlags } from '../shared/list.js';

interface ListOptions extends ListFlags {
  storage?: string;
  search?: string;
  visibility?: string;
  orderBy?: string;
  sort?: 'asc' | 'desc';
}

export function register(parent: Command, runtime: Runtime): void {
  const command = parent
    .command('list')
    .description('List projects (every page with --all)')
    .option('--storage <name>', 'only projects whose repository is on this storage (admin)')
    .option('--search <text>', 'only projects matching the text')
    .addOption(new Option('--visibility <level>', 'only projects of this visibility').choices(['public', 'internal', 'private']))
    .option('--order-by <field>', 'order by this field (id, name, path, created_at, updated_at, last_activity_at)')
    .addOption(new Option('--sort <direction>', 'sort direction').choices(['asc', 'desc']));
  addListOptions(command);
  withExamples(command, [
    'svc projects list --all -o ndjson',
    'svc projects list --storage default --fields id,path_with_namespace',
  ]);
  command.action(runtime.action<ListOptions>((ctx, _args, opts) => run(ctx, opts)));
}

export async function run(ctx: Context, opts: ListOptions): Promise<void> {
  const http = await ctx.http();
  const everything = listLimit(opts) > 100;
  // Deep listings go by keyset on id: constant cost per page and no maximum offset.
  const keyset = everything && (opts.orderBy === undefined || opts.orderBy === 'id');
  const pages = listProjects(http, {
    repositoryStorage: opts.storage,
    search: opts.search,
    visibility: opts.visibility,
    orderBy: opts.orderBy,
    sort: opts.sort,
    perPage: perPageFor(opts),
    keyset,
  });
  const columns = ['id', 'path_with_namespace', 'visibility'];
  if (ctx.output.fields === undefined) {
    // repository_storage is shown to administrators only; include it when filtering by it.
    if (opts.storage) columns.push('repository_storage');
  }
  columns.push('last_activity_at');
  await outputList(ctx, pages, opts, columns);
}
