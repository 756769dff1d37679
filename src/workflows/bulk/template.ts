import { stringifyJson } from '../../json.js';

/** `{id}`, `{path_with_namespace}`, `{namespace.full_path}`: other braces (JSON in an argument) stay as typed. */
const PLACEHOLDER = /\{([A-Za-z_][\w-]*(?:\.[\w-]+)*)\}/g;

/**
 * What a template word is to the command it runs, as commander reads it: a command's name, an
 * option (with its value inline or none), the value of the option before it, the `--` that ends
 * the options, or an operand.
 */
export type WordRole = 'command' | 'option' | 'value' | 'separator' | 'operand';

export interface Template {
  words: string[];
  /** One per word. */
  roles: WordRole[];
}

/**
 * Why the template cannot be used, or undefined: a placeholder in an option's name would let the
 * input choose which option it sets.
 */
export function templateProblem(template: Template): string | undefined {
  for (const [i, word] of template.words.entries()) {
    if (template.roles[i] !== 'option') continue;
    const name = word.startsWith('--') ? (word.split('=')[0] as string) : word.slice(0, 2);
    if (name.includes('{')) return `a placeholder cannot be part of an option's name: ${word}`;
  }
  return undefined;
}

/**
 * The command for one record, or the one-line reason it cannot be built (a field the record lacks).
 * A filled value never becomes an option: one starting with `-` is joined to its option
 * (`--title=-x`), and operands go after `--` when one of them would read as an option.
 */
export function fillTemplate(template: Template, record: unknown): { argv: string[] } | { error: string } {
  const words: string[] = [];
  const roles: WordRole[] = [];
  let dashedOperand = false;
  for (const [i, word] of template.words.entries()) {
    const role = template.roles[i] as WordRole;
    const filled = fillWord(word, record);
    if ('error' in filled) return filled;
    const dashed = word.search(PLACEHOLDER) !== -1 && filled.text.startsWith('-');
    if (role === 'value' && dashed) {
      const option = words.pop() as string;
      words.push(option.startsWith('--') ? `${option}=${filled.text}` : `${option}${filled.text}`);
      continue;
    }
    if (role === 'operand' && dashed) dashedOperand = true;
    words.push(filled.text);
    roles.push(role);
  }
  if (!dashedOperand) return { argv: words };
  const operands = words.filter((_word, i) => roles[i] === 'operand');
  const others = words.filter((_word, i) => roles[i] !== 'operand' && roles[i] !== 'separator');
  return { argv: [...others, '--', ...operands] };
}

function fillWord(word: string, record: unknown): { text: string } | { error: string } {
  let missing: string | undefined;
  const text = word.replace(PLACEHOLDER, (_all, path: string) => {
    const value = fieldAt(record, path);
    if (value === undefined || value === null) {
      missing ??= path;
      return '';
    }
    return typeof value === 'object' ? stringifyJson(value) : String(value);
  });
  if (missing !== undefined) return { error: `the input has no field '${missing}' for {${missing}}` };
  return { text };
}

function fieldAt(record: unknown, path: string): unknown {
  let value: unknown = record;
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}
