import type { Command } from 'commander';
import { findNoun } from '../../cli/command-words.js';
import { addWrappedHelp, withExamples } from '../../cli/build.js';
import { intOption, shardOption } from '../../cli/parsers.js';
import type { Context } from '../../context.js';
import { InterruptedError, IncompleteError, SvcError, UsageError } from '../../errors.js';
import { terminalSafe } from '../../output/terminal-safe.js';
import { write } from '../../output/writer.js';
import type { Runtime } from '../../runtime.js';
import { readItems, type BulkItem } from '../../workflows/bulk/items.js';
import { Journal } from '../../workflows/bulk/journal.js';
import { runBulk, type BulkTally } from '../../workflows/bulk/run.js';
import { templateProblem, type Template } from '../../workflows/bulk/template.js';
import { systemClock } from '../../workflows/shared/clock.js';
import { inShard, resolveShard, shardKey, type Shard, type ShardSpec } from '../../workflows/shared/shard.js';
import { shellQuote } from '../../workflows/shared/shell.js';
import { runInProcess } from './item-run.js';
import { templateOf } from './template-roles.js';

interface BulkOptions {
  maxInFlight: number;
  journal?: string;
  dryRun?: boolean;
  retryUnsure?: boolean;
  shard?: ShardSpec;
}

/** Commands that are not one request per item: a server, the runner itself, prompts for secrets, shell set-up. */
const REFUSED = new Map([
  ['sandbox', 'runs a server until Ctrl-C'],
  ['bulk', 'bulk runs cannot be nested'],
  ['auth', 'logs in and out with prompts'],
  ['completion', 'prints a shell script'],
]);

const DEFAULT_MAX_IN_FLIGHT = 4;

export function register(program: Command, runtime: Runtime, summary: string): void {
  const command = program
    .command('bulk')
    .description(summary)
    .argument('<command...>', 'the svc command to run per input line, after --, with {field} placeholders')
    .option(
      '--max-in-flight <n>',
      'items run at once (halved for a while when the service rate limits)',
      intOption('--max-in-flight', 1, 64),
      DEFAULT_MAX_IN_FLIGHT,
    )
    .option('--journal <file>', 'record each item as it starts and ends in this file; a rerun with it skips the ones that succeeded')
    .option('--retry-unsure', 'run again the items the journal says started but never ended (the run was killed)')
    .option('--dry-run', 'print each resolved command on stdout without running anything')
    .option(
      '--shard <K/N|ci>',
      'run only shard K of N of the input (ci: CI_NODE_INDEX of CI_NODE_TOTAL); each item is in exactly one shard',
      shardOption,
    );
  addWrappedHelp(
    command,
    'Input: one record per line as `-o ndjson` prints it, or a bare id (which fills {id}); placeholders take dot paths ({namespace.full_path}). ' +
      'Output: one line per item, {"input", "ok", "exit_code", "error", "result"}, result being what the item printed (parsed when JSON). ' +
      'Items run in this process with no terminal and an empty stdin, so nothing prompts. Exit 0 when every item succeeded, 8 otherwise, 130 when interrupted. ' +
      'Ctrl-C starts no new item and lets the running ones finish; a second Ctrl-C ends at once. The journal keeps the items that succeeded: a rerun with it runs the others. ' +
      'An item started but never ended (the run was killed) may have run: a rerun does not run it, lists it and exits 8, unless --retry-unsure. ' +
      'One run at a time per journal; a line repeated in the input runs once. ' +
      "With --shard K/N an item is shard K's when the FNV-1a hash of its id (of the line, for a record without one) modulo N is K-1, so N runs fed the same input split it without overlap.",
  );
  withExamples(command, [
    'svc projects list --all -o ndjson | svc bulk --max-in-flight 8 -- projects get {id} --fields id,archived',
    'printf "12\\n13\\n" | svc bulk --journal deleted.journal -- snippets delete --yes {id}',
    'svc snippets list -o ndjson | svc bulk --dry-run -- snippets delete --yes {id}',
    'svc projects list --all -o ndjson | svc bulk --shard ci -- projects archive {id}',
  ]);
  command.action(
    runtime.action<BulkOptions>(async (ctx, [words], opts) => {
      const template = templateOf(await runtime.loadAll(), words as string[]);
      await run(ctx, runtime, template, opts, globalWords(argvOf(program)));
    }),
  );
}

/** The words the program was parsed from (commander keeps them, untyped). */
function argvOf(program: Command): string[] {
  return (program as unknown as { rawArgs: string[] }).rawArgs;
}

/** The words before `bulk` (global options such as --url or --profile): every item gets them too. */
function globalWords(argv: string[]): string[] {
  const at = argv.findIndex((_word, i) => findNoun(argv.slice(0, i + 1)) === 'bulk');
  return argv.slice(0, Math.max(0, at));
}

async function run(ctx: Context, runtime: Runtime, template: Template, opts: BulkOptions, globals: string[]): Promise<void> {
  const noun = findNoun(template.words);
  if (noun === undefined) throw new UsageError('bulk needs a command to run per item after --, e.g. svc bulk -- projects get {id}');
  const refusal = REFUSED.get(noun);
  if (refusal) throw new UsageError(`bulk cannot run \`svc ${noun}\` per item: ${refusal}`);
  const problem = templateProblem(template);
  if (problem) throw new UsageError(`bulk: ${problem}`);
  const journal = opts.journal === undefined ? undefined : await Journal.open(opts.journal, opts.dryRun);
  if (journal?.repairedBytes) {
    ctx.info(`bulk: --journal ${journal.path}: removed its last line, cut short (${journal.repairedBytes} bytes) by a run that was killed`);
  }
  const shard = opts.shard === undefined ? undefined : resolveShard(opts.shard, ctx.env);
  const taken = { items: 0, of: 0 };
  let tally: BulkTally;
  try {
    const spinner = await ctx.spinner('bulk: starting');
    tally = await runBulk(shard ? shardOf(readItems(ctx.io.stdin), shard, taken) : readItems(ctx.io.stdin), {
      template,
      prefix: ['-o', 'json', ...globals],
      maxInFlight: opts.maxInFlight,
      dryRun: Boolean(opts.dryRun),
      journal,
      retryUnsure: Boolean(opts.retryUnsure),
      signal: ctx.signal,
      clock: systemClock,
      runItem: (argv) => runInProcess(runtime.runCommand, argv, ctx.env),
      output: (line) => write(ctx.stdout, opts.dryRun && ctx.io.isTTY.stdout ? terminalSafe(line, { multiline: true }) : line),
      report: (line) => ctx.io.stderr.write(`${line}\n`),
      progress: (t) => spinner.update(`bulk: ${describe(t, opts.dryRun)}, ${t.inFlight} running`),
    });
    spinner.stop();
  } finally {
    await journal?.close();
  }
  if (shard) ctx.info(`bulk: shard ${shard.index}/${shard.total} took ${taken.items} of ${taken.of} input lines`);
  ctx.info(`bulk: ${describe(tally, opts.dryRun)}${opts.dryRun ? ', nothing sent (dry run)' : ''}`);
  for (const key of tally.unrecorded) ctx.warn(`succeeded, but the journal could not record it (a resume calls it unsure): ${key}`);
  for (const key of tally.unsure) ctx.warn(`not run, it may have run already: ${key}`);
  const failure = journal?.writeFailure;
  if (failure) throw new SvcError(`${failure.message}; no new item was started, every item that ran is on stdout`);
  if (tally.stopped) throw new InterruptedError(interruptedMessage(template, opts, globals));
  const problems = [];
  const total = tally.ok + tally.failed + tally.unsure.length;
  if (tally.failed > 0) {
    problems.push(
      opts.dryRun ? `${tally.failed} of ${total} inputs could not fill the command` : `${tally.failed} of ${total} items failed`,
    );
  }
  if (tally.unsure.length > 0) {
    problems.push(
      `${tally.unsure.length} of ${total} items not run: an earlier run started them and was stopped before they ended; check them, then rerun with --retry-unsure to run them again`,
    );
  }
  if (problems.length > 0) throw new IncompleteError(problems.join('; '));
}

/** A dry run sends nothing, so nothing is ok or failed: it counts the commands printed and the inputs that filled none. */
function describe(t: BulkTally, dryRun: boolean | undefined): string {
  const repeated = t.repeated > 0 ? `, ${t.repeated} repeated ${t.repeated === 1 ? 'line' : 'lines'} run once` : '';
  const unsure = t.unsure.length > 0 ? `, ${t.unsure.length} unsure (not run)` : '';
  const skipped = `${t.skipped > 0 ? `, ${t.skipped} skipped (already in the journal)` : ''}${unsure}${repeated}`;
  if (!dryRun) return `${t.ok} ok, ${t.failed} failed${skipped}`;
  const unusable = t.failed > 0 ? `, ${t.failed} ${t.failed === 1 ? 'input' : 'inputs'} unusable` : '';
  return `${t.ok} ${t.ok === 1 ? 'command' : 'commands'} printed${unusable}${skipped}`;
}

function interruptedMessage(template: Template, opts: BulkOptions, globals: string[]): string {
  if (opts.journal === undefined) {
    return 'interrupted: the running items finished, no new one was started; without --journal nothing records which succeeded';
  }
  const words = [
    'svc',
    ...globals,
    'bulk',
    '--max-in-flight',
    String(opts.maxInFlight),
    '--journal',
    opts.journal,
    '--',
    ...template.words,
  ];
  return `interrupted: the running items finished, no new one was started; to resume, feed the same input to: ${words.map(shellQuote).join(' ')}`;
}

/** The items of one shard, counting what it took of what it read. */
async function* shardOf(items: AsyncIterable<BulkItem>, shard: Shard, taken: { items: number; of: number }): AsyncGenerator<BulkItem> {
  for await (const item of items) {
    taken.of++;
    if (!inShard(shardKey(item.record, item.key), shard)) continue;
    taken.items++;
    yield item;
  }
}
