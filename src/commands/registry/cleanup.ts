import { durationOption, intOption } from '../../cli/parsers.js';
import { defineCommand } from '../../cli/spec.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { HttpClient } from '../../http/client.js';
import { deleteTag, planTagCleanup, requestBulkCleanup, type TagPlan } from '../../workflows/registry-cleanup/plan.js';
import { fullMatch, type TagCriteria, type TagFacts } from '../../workflows/registry-cleanup/select.js';
import { applyPlanned } from '../../workflows/shared/apply-planned.js';
import { systemClock } from '../../workflows/shared/clock.js';
import { withRole } from '../generic/role.js';
import { idDigits, PROJECT_ARGUMENT, projectRef } from '../shared/args.js';
import { confirmDestructive, YES_OPTION } from '../shared/confirm.js';
import { onePage, reportApplied } from '../shared/plan-outcome.js';
import { ageText, MAX_IN_FLIGHT_OPTION, sizeText } from '../shared/plan-options.js';

interface CleanupOptions {
  keepN?: number;
  olderThan?: number;
  nameRegex?: string;
  keepRegex?: string;
  dryRun?: boolean;
  bulk?: boolean;
  maxInFlight: number;
  yes?: boolean;
}

const PLAN_COLUMNS = ['name', 'created_at', 'total_size', 'digest'];

export const CLEANUP = defineCommand<CleanupOptions>({
  name: 'cleanup',
  description: "Delete a registry repository's tags by name, number and age, as the service's clean-up would: the plan first",
  args: [
    { name: 'project', help: PROJECT_ARGUMENT, parse: projectRef },
    { name: 'repository', help: 'registry repository id (svc registry repos lists them)', parse: (v) => idDigits('repository id', v) },
  ],
  options: [
    {
      flags: '--name-regex <re>',
      help: "tags whose whole name matches are candidates (RE2 syntax; default '.*', every tag)",
    },
    { flags: '--keep-regex <re>', help: 'tags whose whole name matches are kept, whatever the other options say' },
    { flags: '--keep-n <n>', help: 'keep the newest N candidates (by creation time)', parse: intOption('--keep-n', 0) },
    {
      flags: '--older-than <age>',
      help: 'delete only candidates created longer ago than this (30d, 12h, 2w, 90m)',
      parse: durationOption('--older-than'),
    },
    { flags: '--dry-run', help: 'print the plan and delete nothing' },
    {
      flags: '--bulk',
      help: "hand the same criteria to the service's bulk delete (one request, run later by the service; once an hour per repository)",
    },
    MAX_IN_FLIGHT_OPTION,
    YES_OPTION,
  ],
  notes:
    'The tag `latest` is never deleted, as the service never deletes it. Every tag is listed, then each candidate read ' +
    'for its creation time and size (the list has neither); the tags to delete go to stdout (name, created_at, total_size, ' +
    'digest), the counts to stderr. Without --bulk each tag is deleted on its own (DELETE …/tags/:tag_name) on the ' +
    "client's throttle; with --bulk one DELETE …/tags hands the criteria to the service, which answers 202 and deletes " +
    'later (a second one within the hour is refused, exit 6). Reading needs the reporter role, deleting the developer ' +
    'role. Exit 8 when any deletion failed (the others are still done).',
  examples: [
    'svc registry cleanup acme/platform/api 7 --keep-n 5 --older-than 30d --dry-run',
    "svc registry cleanup acme/platform/api 7 --name-regex 'dev-.*' --keep-regex 'v.*' --yes",
    'svc registry cleanup 42 7 --older-than 90d --bulk --yes',
  ],
  run: (ctx, [project, repository], opts) => cleanup(ctx, project as string, repository as string, opts),
});

async function cleanup(ctx: Context, project: string, repository: string, opts: CleanupOptions): Promise<void> {
  if (opts.nameRegex === undefined && opts.keepN === undefined && opts.olderThan === undefined) {
    throw new UsageError(
      "say which tags to delete: --name-regex, --keep-n or --older-than (--name-regex '.*' alone deletes every tag but latest)",
    );
  }
  const criteria: TagCriteria = {
    deleteRegex: opts.nameRegex ?? '.*',
    keepRegex: opts.keepRegex,
    keepN: opts.keepN,
    olderThanMs: opts.olderThan,
  };
  fullMatch('--name-regex', criteria.deleteRegex);
  if (criteria.keepRegex !== undefined) fullMatch('--keep-regex', criteria.keepRegex);
  const http = await ctx.http({ requireToken: true });
  const run = { maxInFlight: opts.maxInFlight, clock: systemClock, signal: ctx.signal, now: systemClock.now() };
  const plan = await withRole('reporter', () => planTagCleanup(http, project, repository, criteria, run));
  const called = `registry repository ${repository} of project ${project}`;
  const what = `${count(plan.tags.length)} of ${plan.total} (${sizeText(plan.tags.reduce((sum, t) => sum + (t.total_size ?? 0), 0))})`;
  if (plan.tags.length === 0) {
    ctx.info(`no tag of ${called} matches: nothing to delete`);
    return;
  }
  await ctx.printPages(onePage(plan.tags), PLAN_COLUMNS);
  if (opts.dryRun) {
    ctx.info(`dry run: would delete ${what} from ${called}`);
    return;
  }
  await confirmDestructive(ctx, opts.yes, `Delete ${count(plan.tags.length)} of ${called}`);
  if (opts.bulk) return bulk(ctx, http, project, repository, criteria, opts.olderThan, plan);
  ctx.info(`deleting ${what} tag by tag, at most ${opts.maxInFlight} at once`);
  const tally = await applyPlanned(http, plan.tags, run, (tag) =>
    withRole('developer', () => deleteTag(http, project, repository, tag.name)),
  );
  reportApplied(ctx, plan.tags.length, tally, { name: (tag: TagFacts) => `tag ${tag.name}`, summary: (n) => `deleted ${count(n)}` });
}

async function bulk(
  ctx: Context,
  http: HttpClient,
  project: string,
  repository: string,
  criteria: TagCriteria,
  olderThanMs: number | undefined,
  plan: TagPlan,
): Promise<void> {
  ctx.info("deleting through the service's bulk endpoint: it runs later, and at most once an hour for a repository");
  const olderThan = olderThanMs === undefined ? undefined : ageText(olderThanMs);
  const res = await withRole('developer', () => requestBulkCleanup(http, project, repository, { ...criteria, olderThan }));
  ctx.info(
    `the service accepted the clean-up (${res.status}${res.status === 202 ? ' Accepted' : ''}): it deletes by itself, shortly, ` +
      `what it finds then; the ${count(plan.tags.length)} above is what it would delete now`,
  );
}

function count(n: number): string {
  return `${n} tag${n === 1 ? '' : 's'}`;
}
