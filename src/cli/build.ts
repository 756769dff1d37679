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

/** Old spellings of options a command renamed: still accepted after the verb, with a deprecation line. */
const renamedOptions = new WeakMap<Command, Record<string, string>>();

export function renameOptions(command: Command, renamed: Record<string, string>): void {
  renamedOptions.set(command, { ...renamedOptions.get(command), ...renamed });
}

export function renamedOptionsOf(command: Command): Record<string, string> {
  return renamedOptions.get(command) ?? {};
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
    const argument = new Argument(arg.optional ? `[${arg.name}]` : `<${arg.name}>`, arg.help);
    if (arg.choices) argument.choices(arg.choices);
    if (arg.parse) argument.argParser(arg.parse);
    command.addArgument(argument);
  }
  for (const option of spec.options ?? []) command.addOption(toOption(option));
  if (spec.notes) addWrappedHelp(command, spec.notes);
  withExamples(command, spec.examples);
  if (spec.renamed) renameOptions(command, spec.renamed);
  command.action(runtime.action<O>((ctx, args, opts) => spec.run(ctx, args, opts)));
  return command;
}
