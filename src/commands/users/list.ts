import { Option, type Command } from 'commander';
import type { Context } from '../../context.js';
import { listUsers } from '../../api/users.js';
import { withExamples, type Runtime } from '../../runtime.js';
import { addListOptions, outputList, perPageFor, type ListFlags } from '../shared/list.js';

interface ListOptions extends ListFlags {
  search?: string;
  username?: string;
  orderBy?: string;
  sort?: 'asc' | 'desc';
}

export function register(parent: Command, runtime: Runtime): void {
  const command = parent
    .command('list')
    .description('List users, by keyset paging (offset paging on users is deprecated and capped)')
    .option('--search <text>', 'only users whose name or username contains the text (offset paging: few results)')
    .option('--username <name>', 'only the user with this username (offset paging)')
    .addOption(new Option('--order-by <field>', 'keyset order').choices(['id', 'name', 'username', 'created_at', 'updated_at']).default('id'))
    .addOption(new Option('--sort <direction>', 'sort direction').choices(['asc', 'desc']).default('asc'));
  addListOptions(command);
  withExamples(command, ['svc users list --all -o ndjson', 'svc users list --search jdoe --fields id,username,state']);
  command.action(runtime.action<ListOptions>((ctx, _args, opts) => run(ctx, opts)));
}

export async function run(ctx: Context, opts: ListOptions): Promise<void> {
  const http = await ctx.http();
  const filtered = opts.search !== undefined || opts.username !== undefined;
  const pages = listUsers(http, {
    search: opts.search,
    username: opts.username,
    orderBy: opts.orderBy,
    sort: opts.sort,
    perPage: perPageFor(opts),
    keyset: !filtered,
  });
  await outputList(ctx, pages, opts, ['id', 'username', 'name', 'state']);
}
