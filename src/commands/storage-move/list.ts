import { Option, type Command } from 'commander';
import type { Context } from '../../context.js';
import type { Page } from '../../http/client.js';
import { listStorageMoves, moveContainer, type MoveKind, type StorageMove } from '../../api/storage-moves.js';
import { withExamples, type Runtime } from '../../runtime.js';
import { addListOptions, outputList, perPageFor, type ListFlags } from '../shared/list.js';
import { explainForbidden, KIND_NAMES, kindOption, probeKinds } from './options.js';

export const MOVE_STATES = ['initial', 'scheduled', 'started', 'replicated', 'finished', 'failed', 'cleanup failed'];
export const MOVE_COLUMNS = ['id', 'state', 'source_storage_name', 'destination_storage_name', 'container_id', 'container', 'created_at'];

interface ListOptions extends ListFlags {
  kind: MoveKind[];
  from?: string;
  to?: string;
  state?: string;
}

/** A move record plus `container_id`/`container` (the project path, snippet title or group name) for tables. */
export function withContainer(move: StorageMove): StorageMove & { container_id?: number; container?: string } {
  const ref = moveContainer(move);
  return { ...move, container_id: ref?.id, container: ref?.label };
}

export function register(parent: Command, runtime: Runtime): void {
  const command = parent
    .command('list')
    .description('List storage moves, newest first (the service has no filters: --from/--to/--state filter here)')
    .addOption(kindOption('projects'))
    .option('--from <storage>', 'only moves from this storage')
    .option('--to <storage>', 'only moves to this storage')
    .addOption(new Option('--state <state>', 'only moves in this state').choices(MOVE_STATES));
  addListOptions(command);
  withExamples(command, [
    'svc storage-move list --state failed --limit 20',
    'svc storage-move list --kind snippets --from default --to storage2 --all -o ndjson',
    'svc storage-move list --kind all --state failed',
  ]);
  command.action(runtime.action<ListOptions>((ctx, _args, opts) => run(ctx, opts)));
}

/** Each kind in turn (projects, snippets, groups), each newest first, with a `kind` column. */
export async function run(ctx: Context, opts: ListOptions): Promise<void> {
  const http = await ctx.http({ requireToken: true });
  const kinds = (await probeKinds(ctx, http, opts.kind)).map((p) => p.kind);
  const matches = (m: StorageMove) =>
    (!opts.from || m.source_storage_name === opts.from) &&
    (!opts.to || m.destination_storage_name === opts.to) &&
    (!opts.state || m.state === opts.state);
  const filtering = Boolean(opts.from || opts.to || opts.state);
  async function* pages(): AsyncGenerator<Page<StorageMove & { kind: string }>> {
    for (const [index, kind] of kinds.entries()) {
      const laterKinds = index < kinds.length - 1;
      for await (const page of listStorageMoves(http, kind, { perPage: filtering ? 100 : perPageFor(opts) })) {
        const items = page.items.filter(matches).map((m) => ({ kind: KIND_NAMES[kind], ...withContainer(m) }));
        yield { ...page, items, hasNext: page.hasNext || laterKinds };
      }
    }
  }
  await outputList(ctx, pages(), opts, ['kind', ...MOVE_COLUMNS]).catch(explainForbidden);
}
