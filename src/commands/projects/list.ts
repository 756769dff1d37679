import { Option, type Command } from 'commander';
import type { Context } from '../../context.js';
import { listProjects } from '../../api/projects.js';
import type { Project } from '../../api/types.js';
import { ExitCode, SvcError } from '../../errors.js';
import type { Page } from '../../http/client.js';
import { withExamples, type Runtime } from '../../runtime.js';
import { addListOptions, listLimit, outputList, perPageFor, type ListFlags } from '../shared/list.js';

const PROJECT_ORDER = ['id', 'name', 'path', 'created_at', 'updated_at', 'last_activity_at', 'star_count'];

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
    .addOption(new Option('--order-by <field>', 'order by this field').choices(PROJECT_ORDER))
    .addOption(new Option('--sort <direction>', 'sort direction').choices(['asc', 'desc']));
  addListOptions(command);
  withExamples(command, [
    'svc projects list --all -o ndjson',
    'svc projects list --storage default --fields id,path_with_namespace',
    "svc projects list --search api --visibility private --order-by last_activity_at --sort desc",
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
  const first = await pages.next();
  const firstPage = first.done ? undefined : first.value;
  const sample = firstPage?.items[0];
  if (opts.storage !== undefined && sample && !('repository_storage' in sample)) {
    // The service ignores the filter for non-administrators and would list every project.
    throw new SvcError(`--storage ${opts.storage}: filtering by storage needs an administrator's token`, ExitCode.forbidden);
  }
  await outputList(ctx, resume(firstPage, pages), opts, columnsFor(sample, opts.storage));
}

/**
 * The service shows `repository_storage` to administrators only, so the column appears when the
 * records carry it (the first one decides) or when the listing filters by storage.
 */
export function columnsFor(firstRecord: Project | undefined, storage: string | undefined): string[] {
  const withStorage = storage !== undefined || (firstRecord !== undefined && 'repository_storage' in firstRecord);
  return ['id', 'path_with_namespace', 'visibility', ...(withStorage ? ['repository_storage'] : []), 'last_activity_at'];
}

async function* resume<T>(first: Page<T> | undefined, rest: AsyncGenerator<Page<T>>): AsyncGenerator<Page<T>> {
  if (!first) return;
  yield first;
  yield* rest;
}
