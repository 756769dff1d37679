import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ExitCode, SvcError } from '../../errors.js';
import { write } from '../../output/writer.js';
import { withExamples } from '../../cli/build.js';
import type { Runtime } from '../../runtime.js';
import { CONFIG_KEYS, configKey, profileInUse } from './keys.js';

export function register(parent: Command, runtime: Runtime): void {
  const command = parent
    .command('get')
    .description(`Print one setting of the profile in use (keys: ${CONFIG_KEYS.join(', ')}); exit 1 when unset`)
    .argument('<key>', 'setting name');
  withExamples(command, ['svc config get url', 'svc config get activeProfile', 'svc config get caFile --profile work']);
  command.action(runtime.action((ctx, [key]) => run(ctx, key as string)));
}

export async function run(ctx: Context, rawKey: string): Promise<void> {
  const key = configKey(rawKey);
  const { store, name } = await profileInUse(ctx);
  const value = key === 'activeProfile' ? store.activeProfile : store.profile(name)?.[key];
  if (value === undefined) {
    throw new SvcError(key === 'activeProfile' ? 'no active profile is set' : `${key} is not set in profile '${name}'`, ExitCode.failure);
  }
  await write(ctx.stdout, `${value}\n`);
}
