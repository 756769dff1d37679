import { Command } from 'commander';
import type { Io } from './context.js';
import { packageVersion } from './version.js';
import { NOUNS, type CommandModule, type NounEntry } from './commands/index.js';
import { addCommand, addWrappedHelp, respelledOptionsOf, withExamples } from './cli/build.js';
import { commandWords, findNoun } from './cli/command-words.js';
import { ExitCode } from './errors.js';
import { outputFailure, watch } from './output/stream-errors.js';
import { redactSecrets } from './http/redact.js';
import { addGlobalOptions, createRuntime, reportError, type Runtime } from './runtime.js';

/**
 * Options a command renamed keep their old spelling after the command's name for a while: the
 * word is rewritten to the new name, with one line saying so. A verb's own spelling of a global
 * option (`pipeline trigger --token`) is rewritten without a word.
 */
function respellOptions(program: Command, argv: string[], io: Io): string[] {
  let command = program;
  let lastIndex = -1;
  for (const { word, index } of commandWords(argv)) {
    const next = command.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!next) break;
    command = next;
    lastIndex = index;
  }
  const renamed = respelledOptionsOf(command);
  if (Object.keys(renamed).length === 0) return argv;
  const end = argv.indexOf('--') === -1 ? argv.length : argv.indexOf('--');
  return argv.map((arg, i) => {
    if (i <= lastIndex || i >= end) return arg;
    const [name, value] = arg.split(/=(.*)/s, 2) as [string, string | undefined];
    const spelling = renamed[name];
    if (!spelling) return arg;
    const now = spelling.to;
    if (spelling.deprecated) {
      io.stderr.write(`svc: warning: ${name} after \`${command.name()}\` is now ${now}; the old spelling will be removed\n`);
    }
    return value === undefined ? now : `${now}=${value}`;
  });
}

/**
 * As gh does: `svc`, `svc help [COMMAND…]` and a noun without its verb all print the help asked
 * for on stdout and exit 0.
 */
function asHelpRequest(program: Command, argv: string[]): string[] {
  if (argv.length === 0) return ['--help'];
  if (argv[0] === 'help') return [...argv.slice(1), '--help'];
  const words = commandWords(argv);
  let command = program;
  for (const { word } of words) {
    const next = command.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!next) return argv;
    command = next;
  }
  return command !== program && command.commands.length > 0 ? [...argv, '--help'] : argv;
}

/** Help text of our own (notes after the options) wrapped to the width commander wraps to. */
function helpWidth(io: Io): number {
  const columns = (io.stdout as { columns?: number }).columns ?? Number(io.env.COLUMNS);
  return Number.isFinite(columns) && columns >= 40 ? columns : 80;
}

export function buildProgram(io: Io): Command {
  const program = new Command('svc');
  program
    .description("Command-line client for the service's REST API v4")
    .version(packageVersion(), '-V, --version', 'print the version')
    .configureHelp({ showGlobalOptions: false, sortSubcommands: false, helpWidth: helpWidth(io), minWidthToWrap: 24 })
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      outputError: (text, write) => write(`svc: ${text.trim().replace(/\s*\n\s*/g, ' ')}\n`),
    })
    .exitOverride();
  addGlobalOptions(program);
  addWrappedHelp(
    program,
    'Exit codes: 0 ok · 1 failure · 2 usage · 3 unauthenticated · 4 forbidden · 5 not found · 6 rejected · 7 rate limited · 8 incomplete · 9 CAPTCHA required · 130 interrupted',
  );
  return program;
}

function addModule(program: Command, entry: NounEntry, module: CommandModule, runtime: Runtime): void {
  if (entry.leaf) {
    if (module.command) addCommand(program, { ...module.command, description: entry.summary }, runtime);
    module.register?.(program, runtime, entry.summary);
    return;
  }
  const noun = program
    .command(entry.name)
    .aliases(entry.aliases ?? [])
    .description(entry.summary);
  if (module.examples) withExamples(noun, module.examples);
  for (const spec of module.commands ?? []) addCommand(noun, spec, runtime);
  module.register?.(noun, runtime, entry.summary);
}

/** The program with its nouns loaded on demand: one when a command runs, all for completion and tests. */
function createProgram(io: Io): { program: Command; runtime: Runtime; load: (names: string[]) => Promise<void> } {
  const program = buildProgram(io);
  const loaded = new Set<string>();
  const load = async (names: string[]) => {
    for (const noun of NOUNS) {
      if (loaded.has(noun.name) || !names.includes(noun.name)) continue;
      const stub = program.commands.find((c) => c.name() === noun.name);
      if (stub) (program.commands as Command[]).splice(program.commands.indexOf(stub), 1);
      addModule(program, noun, await noun.load(), runtime);
      loaded.add(noun.name);
    }
    // Keep the order of NOUNS, whatever was loaded first.
    (program.commands as Command[]).sort((a, b) => nounIndex(a.name()) - nounIndex(b.name()));
  };
  const runtime = createRuntime(
    io,
    async () => {
      await load(NOUNS.map((n) => n.name));
      return program;
    },
    main,
  );
  for (const noun of NOUNS) program.command(noun.name).description(noun.summary);
  return { program, runtime, load };
}

function nounIndex(name: string): number {
  return NOUNS.findIndex((n) => n.name === name);
}

/** Every command, loaded: for help snapshots and documentation. */
export async function commandTree(io: Io): Promise<Command> {
  return createProgram(io).runtime.loadAll();
}

export async function main(argv: string[], io: Io): Promise<number> {
  const { program, runtime, load } = createProgram(io);
  // Before a command's context exists (a usage error) only the flag and the environment name tokens.
  const given = [io.env.SVC_TOKEN, io.env.CI_JOB_TOKEN, io.env.SVC_TRIGGER_TOKEN, tokenFlag(argv)];
  const redact = (text: string) => {
    const hidden = redactSecrets(text, given);
    return runtime.redactor ? runtime.redactor(hidden) : hidden;
  };
  const debug = argv.includes('--debug') || io.env.SVC_DEBUG === '1';
  watch(io.stdout);
  try {
    const word = findNoun(argv);
    const wanted = NOUNS.find((n) => n.aliases?.includes(word ?? ''))?.name ?? word;
    if (wanted) await load([wanted]);
    // An unknown noun (also in `svc help NOUN`): commander words the error, with its suggestion, as for an unknown verb.
    if (wanted && !NOUNS.some((n) => n.name === wanted)) argv = [wanted];
    await program.parseAsync(respellOptions(program, asHelpRequest(program, argv), io), { from: 'user' });
  } catch (error) {
    const code = reportError(error, io, redact, debug);
    // Help and the version end the parse this way with exit 0: their output is checked as a command's is.
    if (code !== ExitCode.ok) return code;
  }
  // A write that failed is reported after it returned: give its event a turn to arrive.
  await new Promise((resolve) => setImmediate(resolve));
  const failure = outputFailure(io.stdout);
  return failure ? reportError(failure, io, redact, debug) : ExitCode.ok;
}

function tokenFlag(argv: string[]): string | undefined {
  const i = argv.indexOf('--token');
  if (i >= 0) return argv[i + 1];
  return argv.find((a) => a.startsWith('--token='))?.slice('--token='.length);
}
