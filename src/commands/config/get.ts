import type { Context } from '../../context.js';
import { ExitCode, SvcError } from '../../errors.js';
import { displayUrl } from '../../http/urls.js';
import { write } from '../../output/writer.js';
import { CONFIG_KEYS, configKey, profileInUse } from './shared/keys.js';
import { defineCommand } from '../../cli/spec.js';

export const GET = defineCommand({
  name: 'get',
  description: `Print one setting of the profile in use (keys: ${CONFIG_KEYS.join(', ')}); exit 1 when unset`,
  args: [{ name: 'key', help: 'setting name' }],
  examples: ['svc config get url', 'svc config get activeProfile', 'svc config get caFile --profile work'],
  run: (ctx, [key]) => run(ctx, key as string),
});

async function run(ctx: Context, rawKey: string): Promise<void> {
  const key = configKey(rawKey);
  const { store, name } = await profileInUse(ctx);
  const value = key === 'activeProfile' ? store.activeProfile : store.profile(name)?.[key];
  if (value === undefined) {
    throw new SvcError(key === 'activeProfile' ? 'no active profile is set' : `${key} is not set in profile '${name}'`, ExitCode.failure);
  }
  await write(ctx.stdout, `${key === 'url' ? displayUrl(value) : value}\n`);
}
