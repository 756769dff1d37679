import type { Context } from '../../context.js';
import { getStorageMove, type MoveKind } from '../../api/storage-moves.js';
import { explainForbidden } from '../../workflows/storage-move/kinds.js';
import { idDigits } from '../shared/args.js';
import { kindOption } from './shared/options.js';
import { withContainer } from './shared/records.js';
import { defineCommand } from '../../cli/spec.js';

const MOVE_FIELDS = [
  'id',
  'state',
  'source_storage_name',
  'destination_storage_name',
  'container_id',
  'container',
  'created_at',
  'error_message',
];

export const GET = defineCommand<{ kind: MoveKind[] }>({
  name: 'get',
  description: 'Show one storage move',
  args: [{ name: 'move-id', help: 'the move id', parse: (value) => idDigits('move id', value) }],
  options: [kindOption('single')],
  examples: ['svc storage-move get 42', 'svc storage-move get 7 --kind snippets -o json'],
  run: (ctx, [id], opts) => run(ctx, id as string, opts.kind[0] as MoveKind),
});

async function run(ctx: Context, id: string, kind: MoveKind): Promise<void> {
  const http = await ctx.http({ requireToken: true });
  const move = await getStorageMove(http, kind, id).catch(explainForbidden);
  await ctx.printRecord(withContainer(move), MOVE_FIELDS);
}
