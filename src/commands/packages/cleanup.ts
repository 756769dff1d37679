import { durationOption, intOption } from '../../cli/parsers.js';
import { defineCommand } from '../../cli/spec.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { deletePackage, planPackageCleanup, type PlannedPackage } from '../../workflows/packages-cleanup/plan.js';
import { applyPlanned } from '../../workflows/shared/apply-planned.js';
import { systemClock } from '../../workflows/shared/clock.js';
import { withRole } from '../generic/role.js';
import { PROJECT_ARGUMENT, projectRef, requiredTextParser } from '../shared/args.js';
import { confirmDestructive, YES_OPTION } from '../shared/confirm.js';
import { onePage, reportApplied } from '../shared/plan-outcome.js';
import { MAX_IN_FLIGHT_OPTION } from '../shared/plan-options.js';

/** `Packages::Package.package_types`. */
export const PACKAGE_TYPES = [
  'maven',
  'npm',
  'conan',
  'nuget',
  'pypi',
  'composer',
  'generic',
  'golang',
  'debian',
  'rubygems',
  'helm',
  'terraform_module',
  'rpm',
  'ml_model',
  'cargo',
];

interface CleanupOptions {
  keepN?: number;
  olderThan?: number;
  name?: string;
  type?: string;
  dryRun?: boolean;
  maxInFlight: number;
  yes?: boolean;
}

const PLAN_COLUMNS = ['id', 'name', 'version', 'package_type', 'created_at'];

export const CLEANUP = defineCommand<CleanupOptions>({
  name: 'cleanup',
  description: "Delete a project's old package versions, keeping the newest of each package: the plan first",
  args: [{ name: 'project', help: PROJECT_ARGUMENT, parse: projectRef }],
  options: [
    { flags: '--keep-n <n>', help: 'keep the newest N versions of each package (name and type)', parse: intOption('--keep-n', 0) },
    {
      flags: '--older-than <age>',
      help: 'delete only versions created longer ago than this (30d, 12h, 2w, 90m)',
      parse: durationOption('--older-than'),
    },
    { flags: '--name <text>', help: 'only packages whose name contains the text', parse: requiredTextParser('--name') },
    { flags: '--type <type>', help: 'only packages of this type', choices: PACKAGE_TYPES },
    { flags: '--dry-run', help: 'print the plan and delete nothing' },
    MAX_IN_FLIGHT_OPTION,
    YES_OPTION,
  ],
  notes:
    'Every package version the filters select is listed first (all pages); the versions to delete go to stdout (id, name, ' +
    'version, package_type, created_at), the counts to stderr. Each is then deleted on its own (with its files) on the ' +
    "client's throttle. Reading needs the reporter role on a private project, deleting the maintainer role. Exit 8 when " +
    'any deletion failed (the others are still done).',
  examples: [
    'svc packages cleanup acme/platform/api --keep-n 3 --dry-run',
    'svc packages cleanup acme/platform/api --type npm --keep-n 5 --older-than 90d --yes',
  ],
  run: (ctx, [project], opts) => cleanup(ctx, project as string, opts),
});

async function cleanup(ctx: Context, project: string, opts: CleanupOptions): Promise<void> {
  if (opts.keepN === undefined && opts.olderThan === undefined) {
    throw new UsageError('say which versions to delete: --keep-n N (per package), --older-than AGE, or both');
  }
  const http = await ctx.http({ requireToken: true });
  const criteria = { keepN: opts.keepN, olderThanMs: opts.olderThan, name: opts.name, type: opts.type };
  const plan = await withRole('reporter', () => planPackageCleanup(http, project, criteria, systemClock.now()));
  if (plan.length === 0) {
    ctx.info(`no package version of project ${project} matches: nothing to delete`);
    return;
  }
  await ctx.printPages(onePage(plan), PLAN_COLUMNS);
  if (opts.dryRun) {
    ctx.info(`dry run: would delete ${count(plan.length)} of project ${project}`);
    return;
  }
  await confirmDestructive(ctx, opts.yes, `Delete ${count(plan.length)} of project ${project}`);
  const run = { maxInFlight: opts.maxInFlight, clock: systemClock, signal: ctx.signal };
  const tally = await applyPlanned(http, plan, run, (pkg) => withRole('maintainer', () => deletePackage(http, project, pkg.id)));
  reportApplied(ctx, plan.length, tally, {
    name: (pkg: PlannedPackage) => `package ${pkg.id} (${pkg.name} ${pkg.version})`,
    summary: (n) => `deleted ${count(n)}`,
  });
}

function count(n: number): string {
  return `${n} package version${n === 1 ? '' : 's'}`;
}
