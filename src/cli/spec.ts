import type { Context } from '../context.js';
import type { HttpClient } from '../http/client.js';

/** A positional argument, parsed (and refused with exit 2) before the command runs. */
export interface ArgSpec {
  name: string;
  help: string;
  parse?: (value: string) => unknown;
  choices?: readonly string[];
  optional?: boolean;
  /** Takes every remaining word (the last argument only): the command gets an array. */
  variadic?: boolean;
}

/**
 * An option. `key` is the service's own parameter name (snake_case, sent as is); options
 * without a key only steer the command.
 */
export interface OptionSpec {
  flags: string;
  help: string;
  key?: string;
  parse?: (value: string, previous: unknown) => unknown;
  /** Shown in the help and completed by the shell; checked by commander unless `parse` checks the value. */
  choices?: readonly string[];
  default?: unknown;
  /** How the default is shown in the help, when the value itself does not read well. */
  defaultText?: string;
  required?: boolean;
  conflicts?: string[];
  hidden?: boolean;
  /** Turns the value into what the service takes, with a request if need be (a namespace path into its id). */
  resolve?: (http: HttpClient, value: unknown) => Promise<unknown>;
}

/** One leaf command: its interface (arguments, options, help) and what it does. */
export interface CommandSpec<O = Record<string, unknown>> {
  name: string;
  description: string;
  args?: ArgSpec[];
  options?: OptionSpec[];
  examples: string[];
  /** Extra help shown before the examples: paragraphs, wrapped to the terminal. */
  notes?: string;
  /** Old spellings of renamed options, still accepted after the verb: `{ '--timeout': '--wait-timeout' }`. */
  renamed?: Record<string, string>;
  /**
   * Global options this verb gives a meaning of its own after its name: `{ '--token': '--trigger-token' }`
   * reads `svc pipeline trigger P --token T` as the verb's option, while `svc --token T pipeline …` stays global.
   */
  ownSpellings?: Record<string, string>;
  run(ctx: Context, args: unknown[], opts: O): Promise<void>;
}

/** A hand-written verb: the options' type reaches `run` without casts. */
export function defineCommand<O>(spec: CommandSpec<O>): CommandSpec<O> {
  return spec;
}

/** A command without verbs (`svc api PATH`): the registry gives its description. */
export type LeafSpec<O = Record<string, unknown>> = Omit<CommandSpec<O>, 'description'>;
