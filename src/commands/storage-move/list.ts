import type { Context } from '../../context.js';
import type { Page } from '../../http/client.js';
import { moveHistory, type MoveKind, type StorageMove } from '../../api/storage-moves.js';
import type { StatusLines } from '../../workflows/shared/host.js';
import { explainForbidden, KIND_NAMES, probeKinds } from '../../workflows/storage-move/kinds.js';
import { LIST_OPTIONS, outputList, perPageFor, type ListFlags } from '../shared/list.js';
import { hostFor, progressIntervalMs } from './shared/host.js';
import { kindOption } from './shared/options.js';
import { MOVE_COLUMNS, MOVE_STATES, withContainer } from './shared/records.js';
import { defineCommand } from '../../cli/spec.js';

/** A filtered scan says how far it got after this long, and again as often, when it is not on a terminal. */
const SCAN_PROGRESS_MS = 5_000;
const number = new Intl.NumberFormat('en-US');

interface ListOptions extends ListFlags {
  kind: MoveKind[];
  from?: string;
  to?: string;
  state?: string;
}

export const LIST = defineCommand<ListOptions>({
  name: 'list',
  description: 'List storage moves, newest first (the service has no filters: --from/--to/--state filter here)',
  options: [
    kindOption('projects'),
    { flags: '--from <storage>', help: 'only moves from this storage' },
    { flags: '--to <storage>', help: 'only moves to this storage' },
    { flags: '--state <state>', help: 'only moves in this state', choices: MOVE_STATES },
    ...LIST_OPTIONS,
  ],
  examples: [
    'svc storage-move list --state failed --limit 20',
    'svc storage-move list --kind snippets --from default --to storage2 --all -o ndjson',
    'svc storage-move list --kind all --state failed',
  ],
  run: (ctx, _args, opts) => run(ctx, opts),
});

/** Each kind in turn (projects, snippets, groups), each newest first, with a `kind` column. */
async function run(ctx: Context, opts: ListOptions): Promise<void> {
  const intervalMs = progressIntervalMs(ctx.env, SCAN_PROGRESS_MS);
  const host = hostFor(ctx, intervalMs);
  const http = await ctx.http({ requireToken: true });
  const kinds = (await probeKinds(host, http, opts.kind)).map((p) => p.kind);
  const matches = (m: StorageMove) =>
    (!opts.from || m.source_storage_name === opts.from) &&
    (!opts.to || m.destination_storage_name === opts.to) &&
    (!opts.state || m.state === opts.state);
  const filtering = Boolean(opts.from || opts.to || opts.state);
  const startedAt = host.clock.now();
  // The filters are applied here, so a long history is read page by page: say how far the scan is.
  let status: StatusLines | undefined;
  let read = 0;
  let matched = 0;
  async function showScan(kind: MoveKind, found: number): Promise<void> {
    if (!filtering || host.clock.now() - startedAt < intervalMs) return;
    // On a terminal the rows and the spinner share the screen: the spinner goes while rows are written.
    if (found && host.interactive) {
      status?.stop();
      status = undefined;
      return;
    }
    const line = `scanning ${kind} moves: ${number.format(read)} read, ${number.format(matched)} matched`;
    status ??= await host.status(line);
    status.update([line]);
  }
  async function* pages(): AsyncGenerator<Page<StorageMove & { kind: string }>> {
    try {
      for (const [index, kind] of kinds.entries()) {
        const laterKinds = index < kinds.length - 1;
        // Read by page number and id, not as fixed pages: a bulk job running meanwhile adds moves at the front.
        for await (const page of moveHistory(http, kind, filtering ? 100 : perPageFor(opts), false)) {
          const items = page.items.filter(matches).map((m) => ({ kind: KIND_NAMES[kind], ...withContainer(m) }));
          read += page.items.length;
          matched += items.length;
          await showScan(kind, items.length);
          yield { ...page, items, hasNext: page.hasNext || laterKinds };
        }
      }
    } finally {
      status?.stop();
    }
  }
  await outputList(ctx, pages(), opts, ['kind', ...MOVE_COLUMNS]).catch(explainForbidden);
}
