import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { profileNameFor } from '../../config/resolve.js';
import { withExamples, type Runtime } from '../../runtime.js';

export function register(parent: Command, runtime: Runtime): void {
  const command = parent.command('logout').description('Remove a profile and its token from the config file');
  withExamples(command, ['svc auth logout', 'svc auth logout --profile work']);
  command.action(runtime.action((ctx) => run(ctx)));
}

export async function run(ctx: Context): Promise<void> {
  const store = await ctx.config();
  const name = profileNameFor(ctx.globals, ctx.env, store);
  if (!store.removeProfile(name)) {
    const known = store.profileNames();
    throw new UsageError(`no profile named '${name}'${known.length ? ` (known: ${known.join(', ')})` : ''}`);
  }
  ctx.info(`removed profile '${name}' from ${store.path}`);
}
