import { sendRequest } from '../../api/resource.js';
import { durationOption } from '../../cli/parsers.js';
import { defineCommand } from '../../cli/spec.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { apiPath } from '../../http/encode.js';
import { planStaleEnvironments, type PlannedEnvironment } from '../../workflows/environment-cleanup/stale.js';
import { systemClock } from '../../workflows/shared/clock.js';
import { withRole } from '../generic/role.js';
import { PROJECT_ARGUMENT, projectRef } from '../shared/args.js';
import { confirmDestructive, YES_OPTION } from '../shared/confirm.js';
import { onePage } from '../shared/plan-outcome.js';

interface StopStaleOptions {
  olderThan?: number;
  dryRun?: boolean;
  yes?: boolean;
}

const DAY_MS = 86_400_000;
/** The service refuses a `before` less than a week ago or more than ten years ago (`Invalid Date`). */
const MIN_AGE_MS = 7 * DAY_MS;
const MAX_AGE_MS = 3650 * DAY_MS;
const OUTCOME_COLUMNS = ['id', 'name', 'state', 'updated_at', 'outcome'];

export const STOP_STALE = defineCommand<StopStaleOptions>({
  name: 'stop-stale',
  description: "Stop every environment not updated or deployed to for a given age (the service's clean-up), printing the plan first",
  args: [{ name: 'project', help: PROJECT_ARGUMENT, parse: projectRef }],
  options: [
    {
      flags: '--older-than <age>',
      help: 'stop environments not updated or deployed to for this long: 7d at least, such as 30d or 12w',
      parse: durationOption('--older-than'),
    },
    { flags: '--dry-run', help: 'print the environments that would be stopped and send nothing' },
    YES_OPTION,
  ],
  notes:
    'The service (POST /projects/:id/environments/stop_stale) stops every available environment last updated before the ' +
    'date with no deployment since, review apps or not, and keeps protected ones. svc lists the environments, the recent ' +
    'deployments and the protected environments first and shows that plan on stderr, one line each; one confirmation covers ' +
    'it (--yes where stdin is not a terminal), and an empty plan exits 0 unasked. With -o, one outcome record per environment goes to stdout (planned under ' +
    '--dry-run, scheduled otherwise). Needs the developer role; reading the protected environments needs the maintainer role.',
  examples: [
    'svc environments stop-stale acme/platform/api --older-than 30d --dry-run',
    'svc environments stop-stale acme/platform/api --older-than 30d --yes -o ndjson',
  ],
  run: (ctx, [project], opts) => run(ctx, project as string, opts),
});

async function run(ctx: Context, project: string, opts: StopStaleOptions): Promise<void> {
  const age = opts.olderThan;
  if (age === undefined) throw new UsageError('give --older-than AGE, such as 30d');
  if (age < MIN_AGE_MS || age > MAX_AGE_MS) {
    throw new UsageError('--older-than must be between 7d and 3650d: the service stops nothing updated within the last week');
  }
  const http = await ctx.http({ requireToken: true });
  const before = new Date(systemClock.now() - age);
  const scope = `of project ${project} not updated or deployed to since ${before.toISOString()}`;
  const plan = await planStaleEnvironments(http, project, before);
  if (plan.protectedUnknown) {
    ctx.warn('cannot read the protected environments (maintainer role): the service keeps any of these that is protected');
  }
  const envs = plan.environments;
  if (envs.length === 0) {
    ctx.info(`no available environments ${scope}: nothing to stop`);
    return;
  }
  ctx.info(`found ${count(envs.length)} ${scope}:`);
  for (const e of envs) ctx.info(`  ${e.id}  ${e.name}  ${e.updated_at}`);
  if (opts.dryRun) {
    await outcomes(ctx, envs, 'planned');
    ctx.info(`would stop ${count(envs.length)}; nothing was stopped (--dry-run)`);
    return;
  }
  await confirmDestructive(ctx, opts.yes, `Stop these ${count(envs.length)}`);
  await withRole('developer', () =>
    sendRequest(http, 'POST', apiPath`/projects/${project}/environments/stop_stale`, { before: before.toISOString() }),
  );
  await outcomes(ctx, envs, 'scheduled');
  ctx.info(`the service scheduled ${count(envs.length)} of project ${project} to stop`);
}

async function outcomes(ctx: Context, envs: PlannedEnvironment[], outcome: string): Promise<void> {
  if (!ctx.globals.output) return;
  await ctx.printPages(onePage(envs.map((e) => ({ ...e, outcome }))), OUTCOME_COLUMNS);
}

function count(n: number): string {
  return `${n} environment${n === 1 ? '' : 's'}`;
}
