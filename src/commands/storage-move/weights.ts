import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { writeList } from '../../output/writer.js';
import { getApplicationSettings, updateStorageWeights } from '../../api/settings.js';
import { collect } from '../../cli/parsers.js';
import { explainForbidden } from '../../workflows/storage-move/kinds.js';
import { defineCommand } from '../../cli/spec.js';

/** `NAME=WEIGHT` with a whole weight from 0 to 100, checked before anything is sent. */
export function parseWeights(values: string[]): Record<string, number> {
  const weights: Record<string, number> = {};
  for (const value of values) {
    const match = /^([^=\s]+)=(\d{1,3})$/.exec(value.trim());
    const weight = match ? Number(match[2]) : Number.NaN;
    if (!match || weight > 100) {
      throw new UsageError(`invalid --set '${value}': expected STORAGE=WEIGHT with a whole weight from 0 to 100`);
    }
    weights[match[1] as string] = weight;
  }
  return weights;
}

export const WEIGHTS = defineCommand<{ set?: string[] }>({
  name: 'weights',
  description: 'Show or change the storage weights that decide where new repositories land',
  options: [
    { flags: '--set <storage=weight>', help: 'set a weight from 0 to 100 (repeatable; storages not named keep theirs)', parse: collect },
  ],
  examples: ['svc storage-move weights', 'svc storage-move weights --set default=0 --set storage2=100'],
  run: (ctx, _args, opts) => run(ctx, opts.set ?? []),
});

async function run(ctx: Context, sets: string[]): Promise<void> {
  const weights = parseWeights(sets);
  const http = await ctx.http({ requireToken: true });
  const settings = await (sets.length ? updateStorageWeights(http, weights) : getApplicationSettings(http)).catch(explainForbidden);
  async function* rows() {
    for (const [storage, weight] of Object.entries(settings.repository_storages_weighted ?? {})) yield { storage, weight };
  }
  await writeList(ctx.stdout, ctx.output, rows(), ['storage', 'weight']);
  if (sets.length) ctx.info('weights changed; the service may take up to a minute to apply them to new repositories');
}
