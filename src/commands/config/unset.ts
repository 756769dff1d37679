import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { SETTABLE_KEYS } from '../../config/store.js';
import { configKey, profileInUse } from './shared/keys.js';
import { existingProfile } from '../shared/profiles.js';
import { defineCommand } from '../../cli/spec.js';

export const UNSET = defineCommand({
  name: 'unset',
  description: `Clear one setting of the profile in use (keys: ${SETTABLE_KEYS.join(', ')}); the rest of the profile stays`,
  args: [{ name: 'key', help: 'setting name' }],
  examples: ['svc config unset caFile', 'svc config unset oauthClientId --profile work'],
  run: (ctx, [key]) => run(ctx, key as string),
});

async function run(ctx: Context, rawKey: string): Promise<void> {
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
