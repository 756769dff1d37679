import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { getStorageMove, type MoveKind } from '../../api/storage-moves.js';
import { writeRecord } from '../../output/writer.js';
import { withExamples } from '../../cli/build.js';
import type { Runtime } from '../../runtime.js';
import { explainForbidden } from '../../workflows/storage-move/kinds.js';
import { idDigits } from '../shared/args.js';
import { kindOption } from './shared/options.js';
import { withContainer } from './shared/records.js';

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

export function register(parent: Command, runtime: Runtime): void {
  const command = parent
    .command('get')
    .description('Show one storage move')
    .argument('<move-id>', 'the move id')
    .addOption(kindOption('single'));
  withExamples(command, ['svc storage-move get 42', 'svc storage-move get 7 --kind snippets -o json']);
  command.action(
    runtime.action<{ kind: MoveKind[] }>((ctx, [id], opts) => run(ctx, idDigits('move id', id as string), opts.kind[0] as MoveKind)),
  );
}

export async function run(ctx: Context, id: string, kind: MoveKind): Promise<void> {
  const http = await ctx.http({ requireToken: true });
  const move = await getStorageMove(http, kind, id).catch(explainForbidden);
  await writeRecord(ctx.stdout, ctx.output, withContainer(move), MOVE_FIELDS);
}
