import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { listGroups } from '../../api/groups.js';
import { withExamples, type Runtime } from '../../runtime.js';
import { addListOptions, listLimit, outputList, perPageFor, type ListFlags } from '../shared/list.js';

interface ListOptions extends ListFlags {
  search?: string;
}

export function register(parent: Command, runtime: Runtime): void {
  const command = parent
    .command('list')
    .description('List groups by name (keyset paging for long anonymous listings, as the service allows)')
    .option('--search <text>', 'only groups whose name or path contains the text');
  addListOptions(command);
  withExamples(command, ['svc groups list --search platform', 'svc groups list --all -o ndjson --fields id,full_path']);
  command.action(runtime.action<ListOptions>((ctx, _args, opts) => run(ctx, opts)));
}

export async function run(ctx: Context, opts: ListOptions): Promise<void> {
  const http = await ctx.http();
  // The service offers keyset paging on groups (by name) to anonymous requests only; with a
  // token the listing pages by offset, in the same order.
  const keyset = http.tokenType === undefined && listLimit(opts) > 100;
  const pages = listGroups(http, { search: opts.search, perPage: perPageFor(opts), keyset });
  await outputList(ctx, pages, opts, ['id', 'full_path', 'name', 'visibility']);
}
