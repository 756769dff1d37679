import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { CONFIG_KEYS, configKey, profileInUse, validValue } from './shared/keys.js';
import { existingProfile } from '../shared/profiles.js';
import { defineCommand } from '../../cli/spec.js';

export const SET = defineCommand({
  name: 'set',
  description: `Change one setting of the profile in use (keys: ${CONFIG_KEYS.join(', ')}); tokens go through \`svc auth login\``,
  args: [
    { name: 'key', help: 'setting name' },
    { name: 'value', help: 'new value' },
  ],
  examples: [
    'svc config set url https://gitlab.example.com',
    'svc config set caFile ./corp-ca.pem --profile work',
    'svc config set activeProfile work',
    'svc config unset caFile --profile work',
  ],
  run: (ctx, [key, value]) => run(ctx, key as string, value as string),
});

async function run(ctx: Context, rawKey: string, value: string): Promise<void> {
  const key = configKey(rawKey);
  if (!value.trim())
    throw new UsageError(`${key} must not be empty${key === 'activeProfile' ? '' : ` (to clear it: svc config unset ${key})`}`);
  const { store, name } = await profileInUse(ctx);
  if (key === 'activeProfile') {
    existingProfile(store, value);
    await store.setActive(value);
    ctx.info(`active profile is now '${value}'`);
    return;
  }
  await store.updateProfile(name, { [key]: await validValue(key, value) });
  ctx.info(`set ${key} in profile '${name}'`);
}
