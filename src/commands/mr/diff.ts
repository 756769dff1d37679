import {
  getMergeRequestVersion,
  type MergeRequestDiff,
  type MergeRequestVersion,
  mergeRequestVersions,
  newestMergeRequestVersion,
} from '../../api/merge-requests.js';
import { defineCommand } from '../../cli/spec.js';
import type { Context } from '../../context.js';
import { ExitCode, SvcError, UsageError } from '../../errors.js';
import type { HttpClient } from '../../http/client.js';
import { itemPath, withHints } from '../generic/resource.js';
import { write } from '../../output/writer.js';
import { terminalSafe } from '../../output/terminal-safe.js';
import { onePage } from '../shared/plan-outcome.js';
import { MERGE_REQUESTS, MR_ARGS } from './shared/resource.js';

/** Parsed here, not by the option's parser, so that a refusal names --version, as the user spells it. */
function versionNumber(value: string): number {
  const trimmed = value.trim();
  if (!/^\d+$/.test(trimmed) || Number(trimmed) < 1) throw new UsageError(`--version must be a whole number, at least 1 (got '${value}')`);
  return Number(trimmed);
}

/** The diff is text; only JSON and NDJSON have a form for it (the service's diffs), which --fields can then pick from. */
function checkOutput(ctx: Context): void {
  const { output, fields } = ctx.globals;
  const structured = output === 'json' || output === 'ndjson';
  if (output === 'tsv')
    throw new UsageError('mr diff prints a unified diff or, with -o json|ndjson, the diffs the service answers; -o tsv has no form for it');
  if (fields && !structured) throw new UsageError('--fields applies to mr diff only with -o json|ndjson');
}

export const DIFF = defineCommand<{ diffVersion?: number }>({
  name: 'diff',
  description: 'Print the changes of a merge request as a unified diff (coloured only on a terminal)',
  args: MR_ARGS,
  options: [
    {
      flags: '--diff-version <n>',
      help: 'the diff as it was at version N, numbered as the web UI does (1 = the first push), also written --version after the verb; default: the newest',
      parse: versionNumber,
    },
  ],
  ownSpellings: { '--version': '--diff-version' },
  notes:
    "Read as the service's own clients do: its list of versions (one per push to the source branch), then " +
    'the newest version, or the one --version names. Exit 5 when the merge request or that version does not exist. ' +
    "-o json|ndjson print the version's diffs as the service answers them (--fields picks keys).",
  examples: [
    'svc mr diff acme/platform/api 12',
    'svc mr diff acme/platform/api 12 > change.patch && git apply --check change.patch',
    'svc mr diff acme/platform/api 12 --version 1',
  ],
  run: async (ctx, args, opts) => {
    const [project, iid] = args as [string, string];
    checkOutput(ctx);
    const http = await ctx.http();
    const version = await withHints(MERGE_REQUESTS, itemPath(MERGE_REQUESTS), args, () =>
      chosenVersion(http, project, iid, opts.diffVersion),
    );
    const full = await getMergeRequestVersion(http, project, iid, version.id);
    if (ctx.globals.output === 'json' || ctx.globals.output === 'ndjson') {
      await ctx.printPages(onePage(full.diffs), []);
      return;
    }
    for (const file of full.diffs) await write(ctx.stdout, render(ctx, file));
  },
});

async function chosenVersion(http: HttpClient, project: string, iid: string, number: number | undefined): Promise<MergeRequestVersion> {
  if (number === undefined) {
    const newest = await newestMergeRequestVersion(http, project, iid);
    if (!newest) throw new SvcError(`!${iid} has no diff version yet; try again in a few seconds`, ExitCode.notFound);
    return newest;
  }
  const newestFirst: MergeRequestVersion[] = [];
  for await (const page of mergeRequestVersions(http, project, iid)) newestFirst.push(...page.items);
  const version = newestFirst[newestFirst.length - number];
  if (!version) {
    const count = `${newestFirst.length} version${newestFirst.length === 1 ? '' : 's'}`;
    throw new SvcError(`!${iid} has ${count}; there is no version ${number}`, ExitCode.notFound);
  }
  return version;
}

/** One file as git prints it: header, mode lines, then the hunks the service sent. */
function render(ctx: Context, file: MergeRequestDiff): string {
  const from = file.new_file ? '/dev/null' : `a/${file.old_path}`;
  const to = file.deleted_file ? '/dev/null' : `b/${file.new_path}`;
  const header = [`diff --git a/${file.old_path} b/${file.new_path}`];
  if (file.new_file) header.push(`new file mode ${file.b_mode}`);
  else if (file.deleted_file) header.push(`deleted file mode ${file.a_mode}`);
  else if (file.renamed_file) header.push(`rename from ${file.old_path}`, `rename to ${file.new_path}`);
  if (file.diff === '') header.push(`Binary files ${from} and ${to} differ`);
  else header.push(`--- ${from}`, `+++ ${to}`);
  const lines = [...header.map((line) => ({ line, kind: 'header' })), ...hunkLines(file.diff)];
  if (!ctx.io.isTTY.stdout) return lines.map((l) => `${l.line}\n`).join('');
  const c = ctx.chalk;
  const paint: Record<string, (text: string) => string> = { header: c.bold, hunk: c.cyan, '+': c.green, '-': c.red, ' ': (t) => t };
  return lines.map((l) => `${(paint[l.kind] ?? paint[' ']!)(terminalSafe(l.line))}\n`).join('');
}

function hunkLines(diff: string): Array<{ line: string; kind: string }> {
  if (diff === '') return [];
  const text = diff.endsWith('\n') ? diff.slice(0, -1) : diff;
  return text.split('\n').map((line) => ({ line, kind: line.startsWith('@@') ? 'hunk' : (line[0] ?? ' ') }));
}
