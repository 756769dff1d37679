import type { Command } from 'commander';
import type { Template, WordRole } from '../../workflows/bulk/template.js';

/**
 * Reads the template as commander will read each item's command: which words name the command,
 * which are options, which take the word after them as their value, which are operands.
 */
export function templateOf(program: Command, words: string[]): Template {
  const roles: WordRole[] = [];
  let command = program;
  let operandSeen = false;
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    if (word === '--') {
      roles.push('separator', ...words.slice(i + 1).map((): WordRole => 'operand'));
      break;
    }
    if (word.length > 1 && word.startsWith('-')) {
      roles.push('option');
      const next = words[i + 1];
      if (next !== undefined && takesNextWord(command, word, next)) {
        roles.push('value');
        i++;
      }
      continue;
    }
    const sub = operandSeen ? undefined : command.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (sub) {
      command = sub;
      roles.push('command');
      continue;
    }
    operandSeen = true;
    roles.push('operand');
  }
  return { words, roles };
}

/** `--name VALUE`, `-n VALUE`: an option of the command or of a parent, given without its value inline. */
function takesNextWord(command: Command, word: string, next: string): boolean {
  if (word.includes('=') || (!word.startsWith('--') && word.length > 2)) return false;
  for (let at: Command | null = command; at; at = at.parent) {
    const option = at.options.find((o) => o.long === word || o.short === word);
    if (option) return option.required || (option.optional && !next.startsWith('-'));
  }
  return false;
}
