import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { SETTABLE_KEYS } from '../../config/store.js';
import { withExamples } from '../../cli/build.js';
import type { Runtime } from '../../runtime.js';
import { configKey, existingProfile, profileInUse } from './keys.js';

export function register(parent: Command, runtime: Runtime): void {
  const command = parent
    .command('unset')
    .description(`Clear one setting of the profile in use (keys: ${SETTABLE_KEYS.join(', ')}); the rest of the profile stays`)
    .argument('<key>', 'setting name');
  withExamples(command, ['svc config unset caFile', 'svc config unset oauthClientId --profile work']);
  command.action(runtime.action((ctx, [key]) => run(ctx, key as string)));
}

export async function run(ctx: Context, rawKey: string): Promise<void> {
  const key = configKey(rawKey);
  if (key === 'activeProfile') {
    throw new UsageError('activeProfile cannot be cleared: choose another with `svc config set activeProfile NAME`');
  }
  const { store, name } = await profileInUse(ctx);
  if (existingProfile(store, name)[key] === undefined) {
    ctx.info(`${key} was not set in profile '${name}'`);
    return;
  }
  await store.updateProfile(name, { [key]: undefined });
  ctx.info(`cleared ${key} in profile '${name}'`);
}
