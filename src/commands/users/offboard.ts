import { getUser, resolveUserId } from '../../api/users.js';
import { defineCommand } from '../../cli/spec.js';
import type { Context } from '../../context.js';
import { IncompleteError, InterruptedError } from '../../errors.js';
import { Journal } from '../../workflows/bulk/journal.js';
import { planOffboard, type OffboardPlan, type OffboardStep, type StepKind } from '../../workflows/offboard/plan.js';
import { runOffboard, type StepOutcome } from '../../workflows/offboard/run.js';
import { ADMINISTRATOR, withRole } from '../generic/role.js';
import { requiredTextParser } from '../shared/args.js';
import { confirmDestructive, YES_OPTION } from '../shared/confirm.js';

interface OffboardOptions {
  transferSchedulesTo?: string;
  dryRun?: boolean;
  journal?: string;
  yes?: boolean;
}

const DOING: Record<StepKind, string> = {
  'revoke-token': 'revoke',
  'take-schedule': 'take over',
  'remove-membership': 'remove from',
  block: 'block',
};

export const OFFBOARD = defineCommand<OffboardOptions>({
  name: 'offboard',
  description: 'Offboard a user: revoke their tokens, hand over their pipeline schedules, remove their memberships, then block them',
  args: [{ name: 'user', help: 'numeric id or username', parse: requiredTextParser('user') }],
  options: [
    {
      flags: '--transfer-schedules-to <user>',
      help: 'username that takes over the pipeline schedules the user owns (sent as Sudo: the token needs the sudo scope)',
      parse: requiredTextParser('--transfer-schedules-to'),
    },
    { flags: '--dry-run', help: 'print the plan and change nothing' },
    { flags: '--journal <file>', help: 'record each step as it starts and ends; a rerun with it skips what was done' },
    YES_OPTION,
  ],
  notes:
    'Only administrators may do this. The plan (read from the service) goes to stdout, one step a line: active personal and ' +
    'impersonation tokens, schedules the user owns in the projects their memberships reach (taken over before the ' +
    'memberships go, as the service makes the caller the owner), direct memberships except of their own projects, then the ' +
    'block. A step that fails is reported and the others still run; exit 8 then, listing what is left. A rerun reads the ' +
    'plan again, so it does only what is left; with the same --journal it also never repeats a step recorded as done. ' +
    'Without --transfer-schedules-to the schedules stay with the user and stop running once they are blocked.',
  examples: [
    'svc users offboard leaver --transfer-schedules-to ann --dry-run',
    'svc users offboard leaver --transfer-schedules-to ann --journal offboard-leaver.jsonl --yes',
  ],
  run: (ctx, [user], opts) => offboard(ctx, user as string, opts),
});

const PLAN_COLUMNS = ['step', 'target'];

const row = (step: OffboardStep) => ({ step: DOING[step.kind], target: step.target });

async function offboard(ctx: Context, name: string, opts: OffboardOptions): Promise<void> {
  const http = await ctx.http({ requireToken: true });
  const id = await resolveUserId(http, name);
  const found = await getUser(http, id);
  // Every step's path takes the id looked up, whatever the record carries; one without a username is named as typed.
  const user = { ...found, id, username: typeof found.username === 'string' ? found.username : name };
  const heir = opts.transferSchedulesTo?.replace(/^@/, '');
  if (heir !== undefined) await resolveUserId(http, heir);
  const plan = await withRole(ADMINISTRATOR, () => planOffboard(http, user, heir));
  const who = `${user.username} (${id})`;
  await ctx.printPages(onePage(plan.steps.map(row)), PLAN_COLUMNS);
  for (const kept of plan.keptSchedules) ctx.warn(`${kept} stays with ${user.username}: give --transfer-schedules-to to hand it over`);
  if (plan.steps.length === 0) {
    ctx.info(`offboarding ${who}: nothing left to do`);
    return;
  }
  if (opts.dryRun) {
    ctx.info(`dry run: offboarding ${who} takes ${summary(plan)}; nothing was changed`);
    return;
  }
  await confirmDestructive(ctx, opts.yes, `Offboard ${who}: ${summary(plan)}`);
  const journal = opts.journal === undefined ? undefined : await Journal.open(opts.journal);
  let outcomes: StepOutcome[];
  try {
    outcomes = await runOffboard(http, plan, { heir, journal, signal: ctx.signal }, (o) => {
      if (o.outcome === 'failed') ctx.info(`${DOING[o.step.kind]} ${o.step.target}: failed: ${errorText(o.error)}`);
    });
  } finally {
    await journal?.close();
  }
  report(ctx, who, outcomes);
}

async function* onePage<T>(rows: T[]): AsyncGenerator<T[]> {
  yield rows;
}

function summary(plan: OffboardPlan): string {
  const count = (kind: StepKind) => plan.steps.filter((s) => s.kind === kind).length;
  const parts = [
    `${count('revoke-token')} token(s) to revoke`,
    `${count('take-schedule')} schedule(s) to take over`,
    `${count('remove-membership')} membership(s) to remove`,
  ];
  return `${parts.join(', ')}${count('block') > 0 ? ', then the block' : ''}`;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

function report(ctx: Context, who: string, outcomes: StepOutcome[]): void {
  const done = outcomes.filter((o) => o.outcome === 'done' || o.outcome === 'done-earlier').length;
  const left = outcomes.filter((o) => o.outcome === 'failed' || o.outcome === 'not-run');
  const line = `offboarding ${who}: ${done} of ${outcomes.length} steps done`;
  if (left.length === 0) {
    ctx.info(line);
    return;
  }
  const what = left.map((o) => `${DOING[o.step.kind]} ${o.step.target}`).join('; ');
  if (left.some((o) => o.outcome === 'not-run')) throw new InterruptedError(`interrupted: ${line}; left: ${what}`);
  throw new IncompleteError(`${line}; left: ${what}`);
}
