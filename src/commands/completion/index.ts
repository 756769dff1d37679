import { Argument, type Command } from 'commander';
import type { Context } from '../../context.js';
import { write } from '../../output/writer.js';
import { withExamples } from '../../cli/build.js';
import type { Runtime } from '../../runtime.js';
import { SHELLS, commandTree, completionScript, type Shell } from './scripts.js';

export function register(program: Command, runtime: Runtime, summary: string): void {
  const command = program
    .command('completion')
    .description(summary)
    .addArgument(new Argument('<shell>', 'shell to complete in').choices(SHELLS));
  withExamples(command, [
    'source <(svc completion bash)',
    'svc completion zsh > "${fpath[1]}/_svc"',
    'svc completion fish > ~/.config/fish/completions/svc.fish',
  ]);
  command.action(runtime.action((ctx, [shell]) => run(ctx, runtime, shell as Shell)));
}

export async function run(ctx: Context, runtime: Runtime, shell: Shell): Promise<void> {
  const program = await runtime.loadAll();
  await write(ctx.stdout, completionScript(shell, commandTree(program)));
}
