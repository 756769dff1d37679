import type { Context } from '../../../context.js';
import { InterruptedError, UsageError } from '../../../errors.js';

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
      throw new UsageError(
        `expected ${names.join(' and ')} on stdin, one per line (got ${lines.length} line${lines.length === 1 ? '' : 's'})`,
      );
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

/**
 * Reads one line from the terminal without echoing it, keeping the prompt on screen: readline
 * redraws its line on every key, which erased the prompt along with the hidden text.
 */
function promptHidden(ctx: Context, question: string): Promise<string> {
  const stdin = ctx.io.stdin as NodeJS.ReadStream;
  return new Promise((resolve, reject) => {
    let typed = '';
    const wasRaw = stdin.isRaw;
    // Echo goes off before the prompt shows, so nothing typed after it can appear.
    stdin.setRawMode(true);
    ctx.io.stderr.write(question);
    stdin.resume();
    const finish = (error?: Error) => {
      stdin.off('data', onData);
      stdin.setRawMode(wasRaw);
      stdin.pause();
      ctx.io.stderr.write('\n');
      if (error) reject(error);
      else resolve(typed.trim());
    };
    const onData = (chunk: Buffer) => {
      for (const char of chunk.toString('utf8')) {
        if (char === '\r' || char === '\n') return finish();
        if (char === '\u0003') return finish(new InterruptedError());
        if (char === '\u0004' && typed === '') return finish();
        if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1);
        else if (char >= ' ') typed += char;
      }
    };
    stdin.on('data', onData);
  });
}
