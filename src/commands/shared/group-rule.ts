import { intOption } from '../../cli/parsers.js';
import type { CommandSpec, OptionSpec } from '../../cli/spec.js';
import type { Context } from '../../context.js';
import { IncompleteError, InterruptedError, UsageError } from '../../errors.js';
import { systemClock } from '../../workflows/shared/clock.js';
import {
  applyGroupRule,
  describe,
  planGroupRule,
  type GroupRule,
  type PlannedProject,
  type RefKind,
} from '../../workflows/group-protect/group-rule.js';
import { serviceParams } from '../generic/resource.js';
import { projectRef, requiredText } from './args.js';

const DEFAULT_IN_FLIGHT = 8;
const PLAN_COLUMNS = ['project_id', 'project', 'action', 'reason'];

const GROUP_OPTIONS: OptionSpec[] = [
  {
    flags: '--group <group>',
    help: 'every project of this group (id or full path) instead of one project: NAME is then the only argument',
  },
  { flags: '--include-subgroups', help: "with --group: the subgroups' projects too" },
  { flags: '--dry-run', help: 'with --group: print the plan and change nothing' },
  {
    flags: '--max-in-flight <n>',
    help: 'with --group: requests at once; fewer for a while when the service rate limits',
    parse: intOption('--max-in-flight', 1, 64),
    default: DEFAULT_IN_FLIGHT,
  },
];

interface GroupFlags {
  group?: string;
  includeSubgroups?: boolean;
  dryRun?: boolean;
  maxInFlight: number;
}

/**
 * The single-project verb (`protect PROJECT NAME`), able also to apply the rule to every project of a
 * group (`protect NAME --group G`): the plan first (one read per project says where the rule is
 * missing or present), then exactly the plan's writes on the bounded pool; exit 8 when any failed.
 */
export function withGroupMode(single: CommandSpec, kind: RefKind, action: 'protect' | 'unprotect', body: OptionSpec[]): CommandSpec {
  const [project, name] = single.args ?? [];
  if (!project || !name) throw new Error(`${single.name}: expected PROJECT and NAME arguments`);
  return {
    ...single,
    args: [
      { name: project.name, help: `${project.help} (with --group: the ${name.name} instead)` },
      { ...name, optional: true, parse: undefined },
    ],
    options: [...(single.options ?? []), ...GROUP_OPTIONS],
    examples: [...single.examples, `svc ${kind.replace('_', '-')} ${action} main --group acme --include-subgroups --dry-run`],
    notes: [
      single.notes,
      `With --group the plan goes to stdout first (one row per project: ${action} or skip, and why), then only the planned writes are sent; ` +
        'projects that are archived are left out. Exit 8 when any write failed (the others are still done), naming each.',
    ]
      .filter(Boolean)
      .join('\n\n'),
    async run(ctx, args, opts) {
      const flags = opts as unknown as GroupFlags & Record<string, unknown>;
      const [first, second] = args as [string, string | undefined];
      if (flags.group === undefined) {
        if (flags.includeSubgroups || flags.dryRun) throw new UsageError('--include-subgroups and --dry-run go with --group');
        if (second === undefined) throw new UsageError(`give the project and the ${name.name}`);
        return single.run(ctx, [projectRef(first), name.parse ? name.parse(second) : second], opts);
      }
      if (second !== undefined) throw new UsageError(`with --group give only the ${name.name}: the group's projects are the projects`);
      const rule: GroupRule = { kind, name: requiredText(name.name, first), body: await serviceParams(ctx, body, opts) };
      await runOnGroup(ctx, flags, rule, action);
    },
  };
}

async function runOnGroup(ctx: Context, flags: GroupFlags, rule: GroupRule, action: 'protect' | 'unprotect'): Promise<void> {
  const http = await ctx.http({ requireToken: true });
  const run = { maxInFlight: flags.maxInFlight, clock: systemClock, signal: ctx.signal };
  const plan = await planGroupRule(http, flags.group!, flags.includeSubgroups === true, rule, action, run);
  if (ctx.signal.aborted) throw new InterruptedError('interrupted while planning; nothing was changed');
  await ctx.printPages(onePage(plan), PLAN_COLUMNS);
  const writes = plan.filter((p) => p.action !== 'skip').length;
  const unreadable = plan.filter((p) => p.reason.startsWith('cannot read'));
  const what = `${action} ${rule.name} in ${writes} of ${plan.length} projects`;
  if (flags.dryRun) {
    ctx.info(`dry run: would ${what}${unreadable.length > 0 ? `; ${unreadable.length} could not be read` : ''}`);
    return;
  }
  const tally = writes > 0 ? await applyGroupRule(http, plan, rule, run) : { done: 0, failed: [], notStarted: 0 };
  for (const p of unreadable) ctx.info(`${p.project}: not changed: ${p.reason}`);
  for (const { project, error } of tally.failed) ctx.info(`${project}: ${action} failed: ${describe(error)}`);
  const parts = [`${action === 'protect' ? 'protected' : 'unprotected'} ${rule.name} in ${tally.done} of ${writes} planned projects`];
  if (tally.failed.length > 0) parts.push(`${tally.failed.length} failed`);
  if (unreadable.length > 0) parts.push(`${unreadable.length} could not be read`);
  if (tally.notStarted > 0) parts.push(`${tally.notStarted} not attempted`);
  const summary = parts.join('; ');
  if (tally.notStarted > 0) throw new InterruptedError(`interrupted: ${summary}`);
  if (tally.failed.length > 0 || unreadable.length > 0) throw new IncompleteError(summary);
  ctx.info(summary);
}

async function* onePage(plan: PlannedProject[]): AsyncGenerator<PlannedProject[]> {
  yield plan;
}
