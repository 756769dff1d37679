import type { Context } from '../../context.js';
import { write } from '../../output/writer.js';
import { defineCommand } from '../../cli/spec.js';

export const PATH = defineCommand({
  name: 'path',
  description: 'Print where the config file is (SVC_CONFIG_DIR moves it)',
  examples: ['svc config path', 'chmod 600 "$(svc config path)"'],
  run: (ctx) => run(ctx),
});

async function run(ctx: Context): Promise<void> {
  await write(ctx.stdout, `${(await ctx.config()).path}\n`);
}
