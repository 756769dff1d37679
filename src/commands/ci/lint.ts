import { type LintResult, lintContent, lintProjectConfig } from '../../api/ci-lint.js';
import { defineCommand } from '../../cli/spec.js';
import type { Context } from '../../context.js';
import { ExitCode, SvcError, UsageError } from '../../errors.js';
import { formatCell } from '../../output/format.js';
import { terminalSafe } from '../../output/terminal-safe.js';
import { withRole } from '../generic/role.js';
import { PROJECT_ARGUMENT, projectRef, requiredTextParser } from '../shared/args.js';
import { describeFsError, readLocalFile } from '../shared/local-file.js';

interface LintFlags {
  file?: string;
  ref?: string;
  dryRun?: boolean;
  includeJobs?: boolean;
}

const JOB_COLUMNS = ['name', 'stage', 'when', 'allow_failure'];

export const LINT = defineCommand<LintFlags>({
  name: 'lint',
  description: "Check a CI config in a project's context: exit 0 when valid, 6 when not, each error and warning on stderr",
  args: [
    { name: 'project', help: PROJECT_ARGUMENT, parse: projectRef },
    { name: 'stdin', help: '- reads the config from stdin (the same as --file -)', optional: true, parse: stdinMark },
  ],
  options: [
    { flags: '--file <path>', help: "the config to check (- reads stdin); without it, the project's own .gitlab-ci.yml at --ref" },
    {
      flags: '--ref <ref>',
      help: 'the branch or tag a --dry-run pipeline is created for; without --file, also where the .gitlab-ci.yml is read (default: the default branch)',
      parse: requiredTextParser('--ref'),
    },
    { flags: '--dry-run', help: 'simulate creating the pipeline (rules, variables and the ref apply), not only the static check' },
    { flags: '--include-jobs', help: 'list the jobs the config makes (a table on stdout; `jobs` in -o json)' },
  ],
  notes:
    "The project's local includes are read from its repository (the default branch's head, or --ref without --file). " +
    "Checking a file needs the developer role; checking the project's own .gitlab-ci.yml needs read access to its code. " +
    "-o json prints the service's answer as it came: valid, errors, warnings, merged_yaml, includes (and jobs).",
  examples: [
    'svc ci lint acme/platform/api --file .gitlab-ci.yml',
    'git show HEAD:.gitlab-ci.yml | svc ci lint acme/platform/api - --include-jobs',
    'svc ci lint acme/platform/api --ref feature/login --dry-run -o json',
  ],
  run: (ctx, [project, stdin], opts) => {
    if (stdin !== undefined && opts.file !== undefined) throw new UsageError('give either --file or -, not both');
    return run(ctx, project as string, stdin === undefined ? opts : { ...opts, file: '-' });
  },
});

function stdinMark(value: string): string {
  if (value !== '-') throw new UsageError(`unexpected argument '${value}': give the file as --file ${value}, or - for stdin`);
  return value;
}

async function run(ctx: Context, project: string, opts: LintFlags): Promise<void> {
  const content = opts.file === undefined ? undefined : await readConfig(ctx, opts.file);
  const http = await ctx.http({ requireToken: true });
  const options = { dryRun: Boolean(opts.dryRun), includeJobs: Boolean(opts.includeJobs), ref: opts.ref };
  const result =
    content === undefined
      ? await lintProjectConfig(http, project, options)
      : await withRole('developer', () => lintContent(http, project, content, options));
  await report(ctx, result, opts, describe(project, opts));
}

/** The file, or all of stdin for `-`; read before any request. */
async function readConfig(ctx: Context, file: string): Promise<string> {
  if (file !== '-') return utf8Text(`--file ${file}`, await readLocalFile('--file', file, ctx.signal));
  if (ctx.io.isTTY.stdin) throw new UsageError('--file -: stdin is a terminal; pipe the config in, or give --file PATH');
  let bytes: Buffer;
  try {
    bytes = await ctx.readStdin();
  } catch (error) {
    throw new UsageError(`--file -: cannot read stdin: ${describeFsError(error)}`);
  }
  // Nothing piped in (a closed stdin, or a directory, reads as empty) is a mistake, not a config to lint.
  if (bytes.length === 0) throw new UsageError('--file -: stdin is empty; pipe the config in, or give --file PATH');
  return utf8Text('--file -', bytes);
}

/** A config is UTF-8 text: other bytes would be replaced, and the service would lint another config than the file. */
function utf8Text(what: string, bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new UsageError(`${what}: not UTF-8 text (a CI config is YAML, which is)`);
  }
}

function describe(project: string, opts: LintFlags): string {
  if (opts.file === '-') return 'the config from stdin';
  if (opts.file !== undefined) return opts.file;
  return `.gitlab-ci.yml of ${project}${opts.ref ? ` at ${opts.ref}` : ''}`;
}

async function report(ctx: Context, result: LintResult, opts: LintFlags, what: string): Promise<void> {
  const errors = (result.errors ?? []).map(formatCell);
  const warnings = (result.warnings ?? []).map(formatCell);
  for (const error of errors) ctx.io.stderr.write(`${terminalSafe(`error: ${error}`)}\n`);
  for (const warning of warnings) ctx.warn(warning);
  if (ctx.globals.output === 'json' || ctx.globals.output === 'ndjson') await ctx.printRecord(result, []);
  else if (opts.includeJobs && result.jobs && result.jobs.length > 0) await ctx.printPages(once(result.jobs), JOB_COLUMNS);
  const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
  if (!result.valid) throw new SvcError(`${what} is invalid: ${count(errors.length, 'error')}`, ExitCode.rejected);
  ctx.info(`${what} is valid${warnings.length > 0 ? ` (${count(warnings.length, 'warning')})` : ''}`);
}

async function* once<T>(items: T[]): AsyncIterable<T[]> {
  yield items;
}
