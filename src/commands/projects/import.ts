import { basename } from 'node:path';
import type { Context } from '../../context.js';
import { getProjectImport, importProject } from '../../api/projects.js';
import type { ProjectImport } from '../../api/types.js';
import { IncompleteError } from '../../errors.js';
import { collect } from '../../cli/parsers.js';
import { defineCommand } from '../../cli/spec.js';
import { requiredTextParser } from '../shared/args.js';
import { parseAssignment } from '../shared/assignment.js';
import { readableFile } from '../shared/local-file.js';
import { byteProgress, formatBytes } from '../shared/progress.js';
import { checkWaitFlags, WAIT_OPTIONS, WAIT_RENAMES, watchUntilFinal, type WaitFlags } from '../shared/wait.js';

export const IMPORT_FIELDS = ['id', 'path_with_namespace', 'import_status', 'import_error'];
const FINAL_IMPORT_STATUSES = new Set(['finished', 'failed', 'canceled']);

interface ImportOptions extends WaitFlags {
  file: string;
  path: string;
  namespace?: string;
  name?: string;
  override?: string[];
  wait?: boolean;
}

export const IMPORT = defineCommand<ImportOptions>({
  name: 'import',
  description: 'Import a project from an export archive (streamed from disk); --wait follows the import to its end',
  options: [
    { flags: '--file <archive>', help: 'export archive (.tar.gz) to upload', required: true },
    { flags: '--path <path>', help: 'path of the new project', parse: requiredTextParser('--path'), required: true },
    {
      flags: '--namespace <namespace>',
      help: 'numeric id or full path of the target namespace (default: your own)',
      parse: requiredTextParser('--namespace'),
    },
    { flags: '--name <name>', help: 'name of the new project (default: the path)', parse: requiredTextParser('--name') },
    {
      flags: '--override <key=value>',
      help: 'override a project setting from the archive, e.g. visibility=private (repeatable)',
      parse: collect,
    },
    { flags: '--wait', help: 'poll the import until it is finished (exit 0) or failed (exit 8)' },
    ...WAIT_OPTIONS,
  ],
  renamed: WAIT_RENAMES,
  examples: [
    'svc projects import --file export.tar.gz --path restored --namespace acme --wait',
    'svc projects import --file export.tar.gz --path copy --override visibility=private --override description="restored copy"',
  ],
  run: (ctx, _args, opts) => run(ctx, opts),
});

async function run(ctx: Context, opts: ImportOptions): Promise<void> {
  checkWaitFlags(opts);
  const overrides = Object.fromEntries((opts.override ?? []).map((o) => parseAssignment('--override', o)));
  const archive = await readableFile('--file', opts.file);
  const http = await ctx.http({ requireToken: true });
  const progress = byteProgress(ctx, `uploading ${basename(archive.path)}`, archive.size);
  let started: ProjectImport;
  try {
    started = await importProject(http, {
      path: opts.path,
      namespace: opts.namespace,
      name: opts.name,
      overrides,
      archive: { path: archive.path, size: archive.size, filename: basename(archive.path), contentType: 'application/gzip' },
      onArchiveBytes: (bytes) => progress.add(bytes),
    });
  } finally {
    progress.done();
  }
  ctx.info(`uploaded ${formatBytes(archive.size)}; import of ${started.path_with_namespace} is ${started.import_status}`);
  if (!opts.wait) {
    await ctx.printRecord(started, IMPORT_FIELDS);
    return;
  }
  const subject = `import of ${started.path_with_namespace}`;
  const result = await watchUntilFinal(ctx, opts, {
    subject,
    initial: started,
    fetch: () => getProjectImport(http, started.id),
    status: (record) => record.import_status,
    isFinal: (record) => FINAL_IMPORT_STATUSES.has(record.import_status),
    onInterrupt: `the ${subject} (project ${started.id}) goes on on the server; check it with \`svc projects get ${started.id}\``,
  });
  await ctx.printRecord(result.record, IMPORT_FIELDS);
  if (result.timedOut) {
    throw new IncompleteError(`${subject} still ${result.record.import_status} after ${result.elapsedS} s`);
  }
  if (result.record.import_status !== 'finished') {
    throw new IncompleteError(`${subject} ${result.record.import_status}: ${result.record.import_error ?? 'no reason given'}`);
  }
  ctx.info(`${subject} finished in ${result.elapsedS} s`);
}
