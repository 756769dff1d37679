import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { readTextFile } from './local-file.js';

export interface TextSource {
  /** `--description`: the text given inline. */
  inline?: { flag: string; value: string | undefined };
  /** `--description-file`: a path, or `-` for stdin. */
  file?: { flag: string; value: string | undefined };
  /** Read stdin when neither flag is given and it is not a terminal. */
  stdin: boolean;
  /** The service refuses a blank text (a comment), so a blank one stops the command here. */
  required: boolean;
}

/**
 * A longer text (description, comment) from an inline flag, a file, or stdin; undefined when
 * none was given and none is required. Files are read before any request.
 */
export async function readText(ctx: Context, source: TextSource): Promise<string | undefined> {
  const { inline, file } = source;
  const flags = [inline?.flag, file?.flag].filter(Boolean).join(' or ');
  if (inline?.value !== undefined && file?.value !== undefined) throw new UsageError(`give either ${flags}, not both`);
  let text: string | undefined;
  let from = '';
  if (inline?.value !== undefined) [text, from] = [inline.value, inline.flag];
  else if (file?.value === '-') [text, from] = [await stdinText(ctx), `${file.flag} - (stdin)`];
  else if (file?.value !== undefined) [text, from] = [await readTextFile(file.flag, file.value), `${file.flag} ${file.value}`];
  else if (source.stdin && !ctx.io.isTTY.stdin) {
    text = await stdinText(ctx);
    from = 'stdin';
    if (!source.required && text === '') return undefined;
  }
  if (!source.required) return text;
  if (text === undefined) throw new UsageError(`no text: give ${flags}, or pipe it on stdin`);
  if (!text.trim())
    throw new UsageError(from === 'stdin' ? `stdin is empty: give ${flags}, or pipe the text on stdin` : `${from} is empty`);
  return text;
}

async function stdinText(ctx: Context): Promise<string> {
  return (await ctx.readStdin()).toString('utf8');
}

/** A note's text (`comment`, `notes edit`): --body, --body-file or stdin, never blank. */
export async function readNoteBody(ctx: Context, opts: { body?: string; bodyFile?: string }): Promise<string> {
  return (await readText(ctx, {
    inline: { flag: '--body', value: opts.body },
    file: { flag: '--body-file', value: opts.bodyFile },
    stdin: true,
    required: true,
  })) as string;
}
