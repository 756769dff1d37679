import { Argument, Option, type Command } from 'commander';
import type { Runtime } from '../runtime.js';
import type { CommandSpec, OptionSpec } from './spec.js';

export function withExamples(command: Command, examples: string[]): Command {
  return command.addHelpText('after', `\nExamples:\n${examples.map((e) => `  $ ${e}`).join('\n')}\n`);
}

export function toOption(spec: OptionSpec): Option {
  const option = new Option(spec.flags, spec.help);
  if (spec.choices) option.choices(spec.choices);
  if (spec.parse) option.argParser(spec.parse);
  if (spec.default !== undefined) option.default(spec.default, spec.defaultText);
  if (spec.required) option.makeOptionMandatory();
  if (spec.conflicts) option.conflicts(spec.conflicts);
  if (spec.hidden) option.hideHelp();
  return option;
}

/** A spelling after the verb read as another option: a renamed option (with a deprecation line) or a verb's own. */
export interface Respelling {
  to: string;
  deprecated: boolean;
}

const respelledOptions = new WeakMap<Command, Record<string, Respelling>>();

export function respellOptions(command: Command, spellings: Record<string, string>, deprecated: boolean): void {
  const added = Object.fromEntries(Object.entries(spellings).map(([from, to]) => [from, { to, deprecated }]));
  respelledOptions.set(command, { ...respelledOptions.get(command), ...added });
}

export function respelledOptionsOf(command: Command): Record<string, Respelling> {
  return respelledOptions.get(command) ?? {};
}

/** Help paragraphs after the options, wrapped to the width commander wraps its own text to. */
export function addWrappedHelp(command: Command, text: string): void {
  command.addHelpText('after', ({ command: shown }) => {
    const help = shown.createHelp();
    return `\n${help.boxWrap(text, help.helpWidth ?? 80)}`;
  });
}

/** Adds one leaf command, built from its spec, under a noun. */
export function addCommand<O>(parent: Command, spec: CommandSpec<O>, runtime: Runtime): Command {
  const command = parent.command(spec.name).description(spec.description);
  for (const arg of spec.args ?? []) {
    const name = arg.variadic ? `${arg.name}...` : arg.name;
    const argument = new Argument(arg.optional ? `[${name}]` : `<${name}>`, arg.help);
    if (arg.choices) argument.choices(arg.choices);
    if (arg.parse) argument.argParser(arg.parse);
    command.addArgument(argument);
  }
  for (const option of spec.options ?? []) command.addOption(toOption(option));
  if (spec.notes) addWrappedHelp(command, spec.notes);
  withExamples(command, spec.examples);
  if (spec.renamed) respellOptions(command, spec.renamed, true);
  if (spec.ownSpellings) respellOptions(command, spec.ownSpellings, false);
  command.action(runtime.action<O>((ctx, args, opts) => spec.run(ctx, args, opts)));
  return command;
}
