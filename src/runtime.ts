import { type Command, CommanderError, Option } from 'commander';
import type { Context, GlobalOptions, Io } from './context.js';
import { ExitCode, SvcError } from './errors.js';
import { GLOBAL_OPTION_PARSERS } from './cli/parsers.js';
import { GLOBAL_OPTIONS, globalOptionHelp } from './config/global-options.js';
import { terminalSafe } from './output/terminal-safe.js';
import { displayUrl } from './http/urls.js';

/** A command's behaviour: it ends normally, or throws the error that says what went wrong. */
export type CommandRun<O> = (ctx: Context, args: unknown[], opts: O) => Promise<void>;

/** What command modules get to wire themselves: the IO and a wrapper that builds their context. */
export interface Runtime {
  io: Io;
  action<O = Record<string, unknown>>(run: CommandRun<O>): (...args: unknown[]) => Promise<void>;
  /** The whole tree with every noun loaded (for completion scripts). */
  loadAll(): Promise<Command>;
  /** `svc ARGV` run in this process with streams of its own (one bulk item). */
  runCommand(argv: string[], io: Io): Promise<number>;
  /**
   * The redaction of the command's context once one is built: it knows the tokens resolved from a
   * profile or refreshed during the run, which the error printer must hide as the debug lines do.
   */
  redactor?: (text: string) => string;
}

export function addGlobalOptions(program: Command): void {
  for (const spec of GLOBAL_OPTIONS) {
    const option = new Option(spec.flags, globalOptionHelp(spec));
    if (spec.choices) option.choices(spec.choices);
    const parse = GLOBAL_OPTION_PARSERS[spec.name];
    if (parse) option.argParser(parse);
    program.addOption(option);
  }
}

/** The global values of a run: flags as given, then the table's defaults (environment and profile come later, in the target). */
export function globalValues(command: Command): GlobalOptions {
  const given = command.optsWithGlobals() as GlobalOptions;
  const values: Record<string, unknown> = { ...given };
  for (const spec of GLOBAL_OPTIONS) if (values[spec.name] === undefined && spec.default !== undefined) values[spec.name] = spec.default;
  return values as GlobalOptions;
}

export function createRuntime(io: Io, loadAll: () => Promise<Command>, runCommand: (argv: string[], io: Io) => Promise<number>): Runtime {
  const runtime: Runtime = {
    io,
    loadAll,
    runCommand,
    action<O>(run: CommandRun<O>) {
      return async (...all: unknown[]) => {
        const command = all[all.length - 1] as Command;
        const args = all.slice(0, -2);
        const opts = command.opts() as O;
        // Loaded here, not at the top, so `--help` and `--version` load no chalk.
        const { Context } = await import('./context.js');
        const ctx = new Context(io, globalValues(command));
        runtime.redactor = (text) => ctx.redact(text);
        await run(ctx, args, opts);
      };
    },
  };
  return runtime;
}

/** Maps anything thrown to one line on stderr and an exit code; stacks only under --debug. */
export function reportError(error: unknown, io: Io, hideSecrets: (text: string) => string, debug: boolean): number {
  // Tokens are redacted, and what came from a server cannot drive the terminal nor break the one line.
  const redact = (text: string, multiline = false) => terminalSafe(displayUrl(hideSecrets(text)), { multiline });
  if (error instanceof CommanderError) {
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return ExitCode.ok;
    // commander has already printed its one-line message.
    return ExitCode.usage;
  }
  if (error instanceof SvcError) {
    io.stderr.write(`svc: ${redact(error.message)}\n`);
    if (debug && error.details) io.stderr.write(`${redact(error.details, true)}\n`);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
  io.stderr.write(`svc: unexpected error: ${redact(message ?? '')} (rerun with --debug for details)\n`);
  if (debug && error instanceof Error && error.stack) io.stderr.write(`${redact(error.stack, true)}\n`);
  return ExitCode.failure;
}
