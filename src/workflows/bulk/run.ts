import { ExitCode } from '../../errors.js';
import { Throttle } from '../../http/throttle.js';
import { parseJson, stringifyJson } from '../../json.js';
import type { Clock } from '../shared/clock.js';
import { shellQuote } from '../shared/shell.js';
import type { BulkItem } from './items.js';
import type { Journal } from './journal.js';
import { fillTemplate, type Template } from './template.js';

/** What one in-process run of `svc ARGV` gave. */
export interface ItemRun {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export interface BulkPlan {
  template: Template;
  /** Words before the item's own (global options of the bulk run, the output format). */
  prefix: string[];
  maxInFlight: number;
  dryRun: boolean;
  journal?: Journal;
  /** Run the items the journal says may have run (started by a run that never ended them). */
  retryUnsure: boolean;
  /** Aborted: take no new item; the ones running finish. */
  signal: AbortSignal;
  clock: Clock;
  runItem(argv: string[]): Promise<ItemRun>;
  /** One line of data on stdout (an outcome, or a resolved command under --dry-run). */
  output(line: string): Promise<void>;
  /** One human line on stderr (a dry run's unusable input). */
  report(line: string): void;
  progress(tally: BulkTally): void;
}

export interface BulkTally {
  ok: number;
  failed: number;
  skipped: number;
  /** Lines seen before in this run: each line runs once. */
  repeated: number;
  /** The inputs not run because an earlier run may have run them. */
  unsure: string[];
  /** The inputs that succeeded after the journal could not be written any more: it does not say so. */
  unrecorded: string[];
  inFlight: number;
  /** The input was not read to its end (interrupted, or the journal could not be written). */
  stopped: boolean;
}

export async function runBulk(items: AsyncIterable<BulkItem>, plan: BulkPlan): Promise<BulkTally> {
  const tally: BulkTally = { ok: 0, failed: 0, skipped: 0, repeated: 0, unsure: [], unrecorded: [], inFlight: 0, stopped: false };
  // Each item builds its own client: this throttle hears the requests of all of them.
  const limit = new Throttle(plan.maxInFlight, plan.clock);
  const running = new Set<Promise<void>>();
  const seen = new Set<string>();
  // Aborted by Ctrl-C, or by a journal write that failed: either way no new item starts.
  const halt = new AbortController();
  const stopped = new Promise<'stopped'>((resolve) => halt.signal.addEventListener('abort', () => resolve('stopped'), { once: true }));
  if (plan.signal.aborted) halt.abort();
  plan.signal.addEventListener('abort', () => halt.abort(), { once: true });
  const steps = { plan, limit, tally, halt };
  const iterator = items[Symbol.asyncIterator]();
  for (;;) {
    // Reading waits on stdin, which may never end (a terminal): Ctrl-C must not wait for it.
    const next = await Promise.race([iterator.next(), stopped]);
    if (next === 'stopped') {
      tally.stopped = true;
      break;
    }
    if (next.done) break;
    const item = next.value;
    const state = plan.journal?.state(item.key);
    if (seen.has(item.key) || state === 'done') {
      if (seen.has(item.key)) tally.repeated++;
      else tally.skipped++;
      plan.progress(tally);
      continue;
    }
    seen.add(item.key);
    if (state === 'unsure' && !plan.retryUnsure) {
      tally.unsure.push(item.key);
      // A dry run's stdout is commands: the summary lists this one.
      if (!plan.dryRun) await plan.output(outcomeLine(item, { ok: false, exitCode: null, error: UNSURE, result: null }));
      continue;
    }
    while (running.size >= limit.current) await Promise.race(running);
    if (halt.signal.aborted) {
      tally.stopped = true;
      break;
    }
    const job = runOne(item, steps).finally(() => {
      running.delete(job);
      tally.inFlight = running.size;
      plan.progress(tally);
    });
    running.add(job);
    tally.inFlight = running.size;
  }
  await Promise.all(running);
  if (tally.stopped) void iterator.return?.();
  return tally;
}

const UNSURE = 'not run: an earlier run started it and ended before it did, so it may have run; check it, then rerun with --retry-unsure';

interface Steps {
  plan: BulkPlan;
  limit: Throttle;
  tally: BulkTally;
  halt: AbortController;
}

async function runOne(item: BulkItem, { plan, limit, tally, halt }: Steps): Promise<void> {
  const filled = item.error === undefined ? fillTemplate(plan.template, item.record) : { error: item.error };
  if ('error' in filled) {
    tally.failed++;
    if (plan.dryRun) return plan.report(`svc: ${item.key}: ${filled.error}`);
    return plan.output(outcomeLine(item, { ok: false, exitCode: null, error: filled.error, result: null }));
  }
  if (plan.dryRun) {
    tally.ok++;
    return plan.output(`${['svc', ...filled.argv].map(shellQuote).join(' ')}\n`);
  }
  const journal = plan.journal;
  if (journal) {
    try {
      await journal.started(item.key);
    } catch {
      // Not run: the journal could not say it started. The run stops; the summary says why.
      halt.abort();
      return;
    }
  }
  const run = await limit.watch(() => plan.runItem([...plan.prefix, ...filled.argv]));
  const ok = run.exitCode === ExitCode.ok;
  if (ok) limit.succeeded();
  if (ok) tally.ok++;
  else tally.failed++;
  if (journal) {
    try {
      await journal.ended(item.key, ok);
    } catch {
      halt.abort();
      if (ok) tally.unrecorded.push(item.key);
    }
  }
  const error = ok ? null : lastLine(run.stderr).replace(/^svc: /, '');
  await plan.output(outcomeLine(item, { ok, exitCode: run.exitCode, error, result: resultOf(run.stdout) }));
}

interface Outcome {
  ok: boolean;
  exitCode: number | null;
  error: string | null;
  result: unknown;
}

function outcomeLine(item: BulkItem, outcome: Outcome): string {
  const { ok, exitCode, error, result } = outcome;
  return `${stringifyJson({ input: item.input, ok, exit_code: exitCode, error, result })}\n`;
}

/** The item's stdout as JSON when it is JSON, as text otherwise, null when it printed nothing. */
function resultOf(stdout: string): unknown {
  if (stdout.trim() === '') return null;
  try {
    return parseJson(stdout);
  } catch {
    return stdout;
  }
}

function lastLine(text: string): string {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  return lines[lines.length - 1] ?? 'failed without a message';
}
