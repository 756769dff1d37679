import { basename, resolve } from 'node:path';
import { downloadProjectExport, getProjectExport, scheduleProjectExport } from '../../api/project-export.js';
import { defineCommand } from '../../cli/spec.js';
import type { Context } from '../../context.js';
import { IncompleteError } from '../../errors.js';
import { withRole } from '../generic/role.js';
import { checkTarget, contentLength, PartialFile, transfer } from '../shared/download.js';
import { PROJECT_ARGUMENT, projectRef } from '../shared/args.js';
import { reportWriteOutcome } from '../shared/outcome.js';
import { formatBytes } from '../shared/progress.js';
import { WAIT_OPTIONS, watchUntilFinal, type WaitFlags } from '../shared/wait.js';

const FINAL_EXPORT_STATUSES = new Set(['finished', 'failed']);

interface ExportOptions extends WaitFlags {
  out: string;
  force?: boolean;
  description?: string;
}

export const EXPORT = defineCommand<ExportOptions>({
  name: 'export',
  description: 'Export a project to a .tar.gz: schedule it, follow it to the end, download it atomically',
  args: [{ name: 'project', help: PROJECT_ARGUMENT, parse: projectRef }],
  options: [
    { flags: '--out <file>', help: 'where to save the archive (never left half-written)', required: true },
    { flags: '--force', help: 'replace the file if it exists' },
    { flags: '--description <text>', help: "the description the exported project gets instead of the project's own" },
    ...WAIT_OPTIONS,
  ],
  notes:
    'The service builds the archive in the background (export_status queued, started, finished). A failed or unfinished ' +
    'export exits 8 and writes nothing; `svc projects import --file FILE` restores an archive.',
  examples: [
    'svc projects export acme/platform/api --out api.tar.gz',
    'svc projects export 42 --out backup.tar.gz --force --wait-timeout 600',
  ],
  run: (ctx, [project], opts) => run(ctx, project as string, opts),
});

async function run(ctx: Context, project: string, opts: ExportOptions): Promise<void> {
  const target = resolve(opts.out);
  await checkTarget(target, Boolean(opts.force), '--out ');
  // Created before scheduling: a directory that cannot take the file fails before any work on the server.
  const partial = await PartialFile.create(target, ctx.io, { force: Boolean(opts.force), flag: '--out ' });
  try {
    const http = await ctx.http({ requireToken: true });
    const subject = `export of project ${project}`;
    const scheduled = await withRole('maintainer', () => scheduleProjectExport(http, project, opts.description));
    reportWriteOutcome(ctx, scheduled.status, `${subject} started`, `${subject} scheduled`);
    const result = await watchUntilFinal(ctx, opts, {
      subject,
      fetch: () => getProjectExport(http, project),
      status: (record) => record.export_status,
      isFinal: (record) => FINAL_EXPORT_STATUSES.has(record.export_status),
      onInterrupt: `the ${subject} goes on on the server; check it with \`svc api projects/${encodeURIComponent(project)}/export\``,
    });
    if (result.timedOut)
      throw new IncompleteError(`${subject} still ${result.record.export_status} after ${result.elapsedS} s; nothing was written`);
    if (result.record.export_status !== 'finished') throw new IncompleteError(`${subject} failed on the server; nothing was written`);
    const res = await downloadProjectExport(http, project);
    const size = await transfer(ctx, res.data, contentLength(res.headers), basename(target), partial.stream(), true);
    await partial.commit();
    ctx.info(`saved ${target} (${formatBytes(size)})`);
    // The file is the data, as with `jobs artifacts`: stdout stays empty unless -o asks for a record of what was saved.
    if (ctx.globals.output) await ctx.printRecord({ file: target, size, project_id: result.record.id }, ['file', 'size']);
  } finally {
    await partial.discard();
  }
}
