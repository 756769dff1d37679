import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import type { Context, GlobalOptions, Io } from './context.js';
import { ExitCode, SvcError } from './errors.js';
import { OUTPUT_FORMATS, parseFieldList } from './output/format.js';

export type CommandRun<O> = (ctx: Context, args: string[], opts: O) => Promise<number | void> | number | void;

/** What command modules get to wire themselves: the IO and a wrapper that builds their context. */
export interface Runtime {
  io: Io;
  action<O = Record<string, unknown>>(run: CommandRun<O>): (...args: unknown[]) => Promise<void>;
  /** The whole tree with every noun loaded (for completion scripts). */
  loadAll(): Promise<Command>;
  /** Set by a command that finished with a non-zero but explained outcome. */
  exitCode: number;
}

export function intOption(name: string, min: number, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    if (!/^-?\d+$/.test(value.trim())) throw new InvalidArgumentError(`${name} must be a whole number`);
    const n = Number(value);
    if (n < min || n > max) {
      throw new InvalidArgumentError(`${name} must be ${max === Number.MAX_SAFE_INTEGER ? `at least ${min}` : `between ${min} and ${max}`}`);
    }
    return n;
  };
}

export function secondsOption(name: string, min = 0) {
  return (value: string): number => {
    if (!/^\d+(\.\d+)?$/.test(value.trim())) throw new InvalidArgumentError(`${name} must be a number of seconds`);
    const n = Number(value);
    if (n < min) throw new InvalidArgumentError(`${name} must be at least ${min}`);
    return n;
  };
}

/** Collects a repeatable option into an array. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

function fieldsOption(value: string): string[] {
  const fields = parseFieldList(value);
  if (fields.length === 0 || fields.some((f) => f.split('.').includes(''))) {
    throw new InvalidArgumentError('expected field names separated by commas, such as id,namespace.full_path');
  }
  return fields;
}

export function withExamples(command: Command, examples: string[]): Command {
  return command.addHelpText('after', `\nExamples:\n${examples.map((e) => `  $ ${e}`).join('\n')}\n`);
}

export function addGlobalOptions(program: Command): void {
  program
    .option('--url <url>', 'service URL (env SVC_URL)')
    .option('--token <token>', 'access token (env SVC_TOKEN; prefer `svc auth login`)')
    .addOption(new Option('--token-type <type>', 'how the token is sent (env SVC_TOKEN_TYPE)').choices(['private', 'oauth', 'job']))
    .option('--profile <name>', 'config profile to use (env SVC_PROFILE)')
    .option('--sudo <user>', 'run the request as another user (id or username; admin token with sudo scope)')
    .option('--timeout <seconds>', 'per-attempt timeout in seconds (default 30)', secondsOption('--timeout', 0.001))
    .option('--retries <n>', 'retries for transient failures (default 4)', intOption('--retries', 0, 20))
    .option('--ca-file <path>', 'extra CA bundle in PEM (env SVC_CA_FILE)')
    .addOption(new Option('-o, --output <format>', 'output format').choices(OUTPUT_FORMATS))
    .option('--fields <list>', 'comma-separated fields to show, dot paths allowed (e.g. id,namespace.full_path)', fieldsOption)
    .option('--debug', 'print each request and response to stderr (tokens redacted; env SVC_DEBUG=1)')
    .option('-q, --quiet', 'no progress, hints or colour');
}

export function createRuntime(io: Io, loadAll: () => Promise<Command>): Runtime {
  const runtime: Runtime = {
    io,
    exitCode: ExitCode.ok,
    loadAll,
    action<O>(run: CommandRun<O>) {
      return async (...all: unknown[]) => {
        const command = all[all.length - 1] as Command;
        const args = all.slice(0, -2).flat().filter((a): a is string => typeof a === 'string');
        const opts = command.opts() as O;
        // Per-request --timeout/--retries are the root's; a waiting command's own are in `opts` (see cli.ts).
        let root = command;
        while (root.parent) root = root.parent;
        const rootOpts = root.opts() as GlobalOptions;
        const globals = { ...command.optsWithGlobals(), timeout: rootOpts.timeout, retries: rootOpts.retries } as GlobalOptions;
        // Loaded here, not at the top, so `--help` and `--version` load no chalk.
        const { Context } = await import('./context.js');
        const ctx = new Context(io, globals);
        const code = await run(ctx, args, opts);
        if (typeof code === 'number') runtime.exitCode = code;
      };
    },
  };
  return runtime;
}

/** Maps anything thrown to one line on stderr and an exit code; stacks only under --debug. */
export function reportError(error: unknown, io: Io, secrets: string[], debug: boolean): number {
  const redact = (text: string) =>
    secrets.filter((s) => s && s.length >= 4).reduce((acc, s) => acc.split(s).join('[redacted]'), text);
  if (error instanceof CommanderError) {
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return ExitCode.ok;
    // commander has already printed its one-line message.
    return ExitCode.usage;
  }
  if (error instanceof SvcError) {
    io.stderr.write(`svc: ${redact(error.message)}\n`);
    if (debug && error.details) io.stderr.write(`${redact(error.details)}\n`);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
  io.stderr.write(`svc: unexpected error: ${redact(message ?? '')} (rerun with --debug for details)\n`);
  if (debug && error instanceof Error && error.stack) io.stderr.write(`${redact(error.stack)}\n`);
  return ExitCode.failure;
}
