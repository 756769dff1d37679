import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { write } from '../../output/writer.js';
import { withExamples } from '../../cli/build.js';
import type { Runtime } from '../../runtime.js';

export function register(parent: Command, runtime: Runtime): void {
  const command = parent.command('path').description('Print where the config file is (SVC_CONFIG_DIR moves it)');
  withExamples(command, ['svc config path', 'chmod 600 "$(svc config path)"']);
  command.action(runtime.action((ctx) => run(ctx)));
}

export async function run(ctx: Context): Promise<void> {
  await write(ctx.stdout, `${(await ctx.config()).path}\n`);
}
