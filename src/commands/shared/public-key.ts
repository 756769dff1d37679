import type { OptionSpec } from '../../cli/spec.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { readText } from './text-source.js';

/** Where a public key comes from: the text itself, or a file (`-`: stdin). */
export const PUBLIC_KEY_OPTIONS: OptionSpec[] = [
  { flags: '--key <text>', help: 'the public key itself (quote it: it has spaces)' },
  { flags: '--key-file <file>', help: 'a file holding the public key, e.g. ~/.ssh/id_ed25519.pub (- reads stdin)' },
];

/** The public key given, read before any request; a private key is refused here so that it never leaves the machine. */
export async function readPublicKey(ctx: Context, opts: { key?: unknown; keyFile?: unknown }): Promise<string> {
  const text = (await readText(ctx, {
    inline: { flag: '--key', value: opts.key as string | undefined },
    file: { flag: '--key-file', value: opts.keyFile as string | undefined },
    stdin: false,
    required: true,
  })) as string;
  if (/PRIVATE KEY/.test(text)) throw new UsageError('that is a private key: give the public one (the .pub file, or the PUBLIC KEY BLOCK)');
  return text.trim();
}
