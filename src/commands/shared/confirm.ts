import type { Context } from '../../context.js';
import { InterruptedError, SvcError, UsageError } from '../../errors.js';
import type { OptionSpec } from '../../cli/spec.js';
import { terminalSafe } from '../../output/terminal-safe.js';

export const YES_OPTION: OptionSpec = { flags: '-y, --yes', help: 'do it without asking (required when stdin is not a terminal)' };

/**
 * Asks before a destructive request. A script (stdin not a terminal) is never asked, so it cannot
 * hang: it must say `--yes`, or nothing is done (exit 2). Only `y` or `yes` goes on.
 */
export async function confirmDestructive(ctx: Context, yes: boolean | undefined, action: string): Promise<void> {
  if (yes) return;
  if (!ctx.io.isTTY.stdin) throw new UsageError(`${action}: pass --yes to confirm (stdin is not a terminal, so there is no one to ask)`);
  const answer = await ask(ctx, `${terminalSafe(action)}? [y/N] `);
  if (ctx.signal.aborted) throw new InterruptedError();
  if (!/^\s*y(es)?\s*$/i.test(answer)) throw new SvcError(`${action}: not confirmed, nothing was changed`);
}

async function ask(ctx: Context, question: string): Promise<string> {
  // Loaded only to ask: every command of a noun with a destructive verb loads this file, and the
  // line reader costs a few milliseconds of each run's start-up.
  const { createInterface } = await import('node:readline');
  const lines = createInterface({ input: ctx.io.stdin, output: ctx.io.stderr, terminal: false });
  try {
    ctx.io.stderr.write(question);
    const onAbort = new Promise<string>((resolve) => {
      lines.once('close', () => resolve(''));
      ctx.signal.addEventListener('abort', () => resolve(''), { once: true });
    });
    return await Promise.race([new Promise<string>((resolve) => lines.once('line', resolve)), onAbort]);
  } finally {
    lines.close();
    ctx.io.stdin.pause?.();
  }
}
