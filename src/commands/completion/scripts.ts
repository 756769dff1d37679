import type { Command } from 'commander';

export interface OptionNode {
  /** Every spelling: `--limit`, `-o`, `--output`. */
  names: string[];
  description: string;
  takesValue: boolean;
  /** The values the option accepts, when it names them (`-o`: table json ndjson tsv). */
  choices?: string[];
}

export interface CommandNode {
  name: string;
  description: string;
  options: OptionNode[];
  children: CommandNode[];
  /** Values of a positional argument that names them (`completion <shell>`: bash zsh fish). */
  argumentChoices: string[];
}

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

export function commandTree(command: Command): CommandNode {
  return {
    name: command.name(),
    description: command.description(),
    options: command.options
      .filter((o) => !o.hidden)
      .map((o) => ({
        names: [o.short, o.long].filter((n): n is string => Boolean(n)),
        description: o.description,
        takesValue: o.required || o.optional,
        choices: o.argChoices,
      })),
    children: command.commands.filter((c) => c.name() !== 'help').map(commandTree),
    argumentChoices: command.registeredArguments.flatMap((a) => a.argChoices ?? []),
  };
}

interface Level {
  /** Words before the cursor that select this level: '' for the root, 'projects', 'projects list'. */
  path: string;
  node: CommandNode;
}

function levels(root: CommandNode): Level[] {
  const out: Level[] = [{ path: '', node: root }];
  for (const noun of root.children) {
    out.push({ path: noun.name, node: noun });
    for (const verb of noun.children) out.push({ path: `${noun.name} ${verb.name}`, node: verb });
  }
  return out;
}

function valueOptions(root: CommandNode): string[] {
  const names = new Set<string>();
  for (const { node } of levels(root)) for (const o of node.options) if (o.takesValue) for (const n of o.names) names.add(n);
  return [...names].sort();
}

/** The level's own options, then the global ones it does not redefine (`--timeout` of a waiting command). */
function levelOptions(level: Level, root: CommandNode): OptionNode[] {
  if (level.node === root) return root.options;
  const own = new Set(level.node.options.flatMap((o) => o.names));
  return [...level.node.options, ...root.options.filter((o) => !o.names.some((n) => own.has(n)))];
}

/** What can follow at a level: subcommands, the level's own options, and the global options. */
function candidates(level: Level, root: CommandNode): Array<{ word: string; description: string }> {
  const options = levelOptions(level, root);
  return [
    ...level.node.children.map((c) => ({ word: c.name, description: c.description })),
    ...level.node.argumentChoices.map((word) => ({ word, description: '' })),
    ...options.flatMap((o) => o.names.filter((n) => n.startsWith('--')).map((n) => ({ word: n, description: o.description }))),
  ];
}

export function completionScript(shell: Shell, root: CommandNode): string {
  if (shell === 'bash') return bashScript(root);
  if (shell === 'zsh') return zshScript(root);
  return fishScript(root);
}

/** Shell lines that collect the command path typed so far, skipping options and their values. */
function pathScanner(root: CommandNode, first: string, words: string, current: string): string[] {
  return [
    'local svc_path="" svc_skip=0 svc_i svc_word',
    `for ((svc_i = ${first}; svc_i < ${current}; svc_i++)); do`,
    `  svc_word=\${${words}[svc_i]}`,
    '  if ((svc_skip)); then svc_skip=0; continue; fi',
    '  case "$svc_word" in',
    `    ${valueOptions(root).join('|')}) svc_skip=1 ;;`,
    '    -*) ;;',
    '    *) svc_path="${svc_path:+$svc_path }$svc_word" ;;',
    '  esac',
    'done',
  ];
}

/** A command with subcommands matches only itself; a leaf also matches the arguments typed after it. */
function casePattern(level: Level): string {
  if (level.path === '') return '""';
  return level.node.children.length ? `"${level.path}"` : `"${level.path}"|"${level.path} "*`;
}

function orderedLevels(root: CommandNode): Level[] {
  // Verbs before nouns, so "projects list 42" is not taken for the noun level.
  return levels(root).sort((a, b) => b.path.split(' ').length - a.path.split(' ').length);
}

/**
 * Shell `case` arms on the word before the cursor: after an option with choices, its values
 * (as `item` says), else `fallback`.
 */
function choiceArms(options: OptionNode[], item: (values: string[]) => string, fallback: string): string {
  const arms = options.filter((o) => o.choices?.length).map((o) => `${o.names.join('|')}) ${item(o.choices as string[])} ;; `);
  return arms.length ? `case "$svc_prev" in ${arms.join('')}*) ${fallback} ;; esac` : fallback;
}

function bashScript(root: CommandNode): string {
  // One word per line, so a value with a space (`cleanup failed`) stays one value.
  const list = (values: string[]) => `$'${values.map((v) => v.replace(/'/g, "\\'")).join('\\n')}'`;
  const values = (choices: string[]) => `svc_words=${list(choices)}; svc_opts=''`;
  // Subcommands and argument values first; options once a '-' is typed, or when nothing else fits.
  const level = (words: string[], options: string[]) => `svc_words=${list(words)}; svc_opts=${list(options)}`;
  const optionWords = (l: Level) =>
    candidates(l, root)
      .filter((c) => c.word.startsWith('-'))
      .map((c) => c.word);
  const otherWords = (l: Level) =>
    candidates(l, root)
      .filter((c) => !c.word.startsWith('-'))
      .map((c) => c.word);
  const cases = orderedLevels(root).map(
    (l) => `    ${casePattern(l)}) ${choiceArms(levelOptions(l, root), values, level(otherWords(l), optionWords(l)))} ;;`,
  );
  const globals = candidates({ path: '', node: { ...root, children: [] } }, root).map((c) => c.word);
  return [
    '# bash completion for svc; load with: source <(svc completion bash)',
    '_svc_completion() {',
    '  local cur=${COMP_WORDS[COMP_CWORD]} svc_prev=${COMP_WORDS[COMP_CWORD-1]} svc_words svc_opts',
    ...pathScanner(root, '1', 'COMP_WORDS', 'COMP_CWORD').map((l) => `  ${l}`),
    '  case "$svc_path" in',
    ...cases,
    `    *) ${choiceArms(root.options, values, level([], globals))} ;;`,
    '  esac',
    '  if [[ "$cur" == -* || -z "$svc_words" ]]; then svc_words=$svc_opts; fi',
    "  local IFS=$'\\n'",
    '  COMPREPLY=($(compgen -W "$svc_words" -- "$cur"))',
    '  COMPREPLY=("${COMPREPLY[@]// /\\\\ }")',
    '}',
    'complete -o default -F _svc_completion svc',
    '',
  ].join('\n');
}

function zshQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function zshScript(root: CommandNode): string {
  const list = (items: string[]) => `svc_items=(${items.map(zshQuote).join(' ')})`;
  const cases = orderedLevels(root).map((level) => {
    const items = candidates(level, root).map((c) => `${c.word}:${c.description.replace(/:/g, '\\:')}`);
    return `    ${casePattern(level)}) ${choiceArms(levelOptions(level, root), list, list(items))} ;;`;
  });
  return [
    '#compdef svc',
    '# zsh completion for svc; load with: source <(svc completion zsh)',
    '_svc() {',
    '  local -a svc_items',
    '  local svc_prev=${words[CURRENT-1]}',
    ...pathScanner(root, '2', 'words', 'CURRENT').map((l) => `  ${l}`),
    '  case "$svc_path" in',
    ...cases,
    '    *) svc_items=() ;;',
    '  esac',
    "  _describe 'svc' svc_items",
    '}',
    'compdef _svc svc',
    '',
  ].join('\n');
}

function fishQuote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function fishOption(option: OptionNode, condition: string): string {
  const parts = ['complete -c svc'];
  if (condition) parts.push(`-n ${fishQuote(condition)}`);
  for (const name of option.names) parts.push(name.startsWith('--') ? `-l ${name.slice(2)}` : `-s ${name.slice(1)}`);
  if (option.choices?.length) parts.push('-x', `-a ${fishQuote(option.choices.join(' '))}`);
  else if (option.takesValue) parts.push('-r');
  parts.push(`-d ${fishQuote(option.description)}`);
  return parts.join(' ');
}

function fishScript(root: CommandNode): string {
  const lines = ['# fish completion for svc; load with: svc completion fish | source', 'complete -c svc -f'];
  for (const option of root.options) lines.push(fishOption(option, ''));
  const nouns = root.children.map((n) => n.name).join(' ');
  for (const noun of root.children) {
    lines.push(
      `complete -c svc -n ${fishQuote(`not __fish_seen_subcommand_from ${nouns}`)} -a ${noun.name} -d ${fishQuote(noun.description)}`,
    );
    const verbs = noun.children.map((v) => v.name).join(' ');
    const inNoun = `__fish_seen_subcommand_from ${noun.name}`;
    for (const option of noun.options) lines.push(fishOption(option, inNoun));
    for (const verb of noun.children) {
      const before = verbs ? `${inNoun}; and not __fish_seen_subcommand_from ${verbs}` : inNoun;
      lines.push(`complete -c svc -n ${fishQuote(before)} -a ${verb.name} -d ${fishQuote(verb.description)}`);
      for (const option of verb.options) lines.push(fishOption(option, `${inNoun}; and __fish_seen_subcommand_from ${verb.name}`));
    }
  }
  return `${lines.join('\n')}\n`;
}
