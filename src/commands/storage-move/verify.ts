import type { Context } from '../../context.js';
import { IncompleteError } from '../../errors.js';
import { writeList } from '../../output/writer.js';
import type { MoveKind } from '../../api/storage-moves.js';
import { findRemaining } from '../../workflows/storage-move/verify.js';
import { hostFor } from './shared/host.js';
import { checkStorages, kindOption, parseSince } from './shared/options.js';
import { toAsync } from './shared/records.js';
import { defineCommand } from '../../cli/spec.js';

interface VerifyOptions {
  from: string;
  kind: MoveKind[];
  since?: string;
}

export const VERIFY = defineCommand<VerifyOptions>({
  name: 'verify',
  description: 'Check that nothing remains on a storage: exit 0 if so, else 8 and list what remains',
  options: [
    { flags: '--from <storage>', help: 'the storage that should be empty', required: true },
    kindOption('all'),
    { flags: '--since <time>', help: 'where a kind cannot be listed by storage, read its moves back to this time only', parse: parseSince },
  ],
  examples: ['svc storage-move verify --from default', 'svc storage-move verify --from default --kind projects -o json'],
  run: (ctx, _args, opts) => run(ctx, opts),
});

async function run(ctx: Context, opts: VerifyOptions): Promise<void> {
  checkStorages(opts.from, undefined, false);
  const http = await ctx.http({ requireToken: true });
  const remaining = await findRemaining(hostFor(ctx), http, opts.from, opts.kind, opts.since);
  // A table or TSV of nothing would be a lone header; JSON still says `[]`.
  if (remaining.length || ctx.output.format === 'json') {
    await writeList(ctx.stdout, ctx.output, toAsync(remaining), ['kind', 'id', 'name', 'reason']);
  }
  if (remaining.length) throw new IncompleteError(`${remaining.length} repositories remain on ${opts.from}`);
  ctx.info(`nothing remains on ${opts.from}`);
}
