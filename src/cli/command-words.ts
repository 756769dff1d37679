import { GLOBAL_FLAGS_WITH_VALUES } from '../config/global-options.js';

/** The command words of the line (noun, verb, …) with their positions, skipping global options and their values. */
export function commandWords(argv: string[]): Array<{ word: string; index: number }> {
  const words: Array<{ word: string; index: number }> = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') break;
    if (arg.startsWith('-')) {
      if (!arg.includes('=') && GLOBAL_FLAGS_WITH_VALUES.has(arg)) i++;
      continue;
    }
    if (!(arg === 'help' && words.length === 0)) words.push({ word: arg, index: i });
  }
  return words;
}

/** The noun the user asked for (`svc help NOUN` included). */
export function findNoun(argv: string[]): string | undefined {
  return commandWords(argv)[0]?.word;
}
