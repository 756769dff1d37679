import { type MergeRequestDiff, mergeRequestDiffs } from '../../api/merge-requests.js';
import { defineCommand } from '../../cli/spec.js';
import type { Context } from '../../context.js';
import { write } from '../../output/writer.js';
import { terminalSafe } from '../../output/terminal-safe.js';
import { MR_ARGS } from './shared/resource.js';

export const DIFF = defineCommand({
  name: 'diff',
  description: 'Print the changes of a merge request as a unified diff (coloured only on a terminal)',
  args: MR_ARGS,
  examples: ['svc mr diff acme/platform/api 12', 'svc mr diff acme/platform/api 12 > change.patch && git apply --check change.patch'],
  run: async (ctx, [project, iid]) => {
    const http = await ctx.http();
    for await (const page of mergeRequestDiffs(http, project as string, iid as string)) {
      for (const file of page.items) await write(ctx.stdout, render(ctx, file));
    }
  },
});

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
