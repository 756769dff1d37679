import { createInterface } from 'node:readline';
import type { Context } from '../../context.js';
import { InterruptedError, UsageError } from '../../errors.js';

/**
 * Secrets never need to be on the command line: piped stdin gives one per line (in the order
 * of `names`), a terminal gets a prompt that does not echo.
 */
export async function readSecrets(ctx: Context, names: string[]): Promise<string[]> {
  if (!ctx.io.isTTY.stdin) {
    const lines = (await ctx.readStdin())
      .toString('utf8')
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter(Boolean);
    if (lines.length < names.length) {
      throw new UsageError(`expected ${names.join(' and ')} on stdin, one per line (got ${lines.length} line${lines.length === 1 ? '' : 's'})`);
    }
    return lines.slice(0, names.length);
  }
  const values: string[] = [];
  for (const name of names) {
    const value = await promptHidden(ctx, `${name}: `);
    if (!value) throw new UsageError(`no ${name} entered`);
    values.push(value);
  }
  return values;
}

function promptHidden(ctx: Context, question: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const rl = createInterface({ input: ctx.io.stdin, output: ctx.io.stderr, terminal: true });
    ctx.io.stderr.write(question);
    // readline echoes what is typed through this method; silencing it hides the secret.
    (rl as unknown as { _writeToOutput: (text: string) => void })._writeToOutput = () => {};
    rl.question('', (answer) => {
      rl.close();
      ctx.io.stderr.write('\n');
      resolve(answer.trim());
    });
    rl.on('SIGINT', () => {
      rl.close();
      reject(new InterruptedError());
    });
  });
}
