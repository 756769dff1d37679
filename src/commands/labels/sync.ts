import { defineCommand } from '../../cli/spec.js';
import type { Context } from '../../context.js';
import { applyStep, groupProjects, planGroupSync, type LabelStep } from '../../workflows/labels-sync/plan.js';
import { applyPlanned } from '../../workflows/shared/apply-planned.js';
import { systemClock } from '../../workflows/shared/clock.js';
import { withRole } from '../generic/role.js';
import { confirmDestructive, YES_OPTION } from '../shared/confirm.js';
import { readTextFile } from '../shared/local-file.js';
import { onePage, reportApplied } from '../shared/plan-outcome.js';
import { MAX_IN_FLIGHT_OPTION } from '../shared/plan-options.js';

interface SyncOptions {
  group: string;
  fromFile: string;
  includeSubgroups?: boolean;
  prune?: boolean;
  dryRun?: boolean;
  yes?: boolean;
  maxInFlight: number;
}

const PLAN_COLUMNS = ['action', 'project', 'label', 'changes'];

export const SYNC = defineCommand<SyncOptions>({
  name: 'sync',
  description: 'Give every project of a group the labels of a YAML or JSON file: print the plan, then apply it',
  options: [
    { flags: '--group <group>', help: 'the group whose projects get the labels (id or full path)', required: true },
    {
      flags: '--from-file <path>',
      help: 'YAML or JSON: a list of labels with name, color (#RRGGBB) and optionally description and priority',
      required: true,
    },
    { flags: '--include-subgroups', help: 'also the projects of its subgroups' },
    { flags: '--prune', help: "also delete each project's own labels the file does not name" },
    { flags: '--dry-run', help: 'print the plan and change nothing' },
    YES_OPTION,
    MAX_IN_FLIGHT_OPTION,
  ],
  notes:
    'The plan goes to stdout, one row per change: action (create, update, delete), project, label and the attributes an ' +
    'update changes. A file leaving out description or priority leaves them as they are. A label a project has from a ' +
    "group is left alone and never deleted. Every project is read first, then the writes run on the client's throttle, " +
    'a refusal in one project not stopping the others. A plan that deletes asks first (--yes when stdin is not a terminal). ' +
    'A file with no label is refused; a YAML or JSON mistake names its line. Writes need the planner role in each project. Exit 8 if any failed.',
  examples: [
    'svc labels sync --group acme --from-file labels.yml --include-subgroups --dry-run',
    'svc labels sync --group acme --from-file labels.json --prune --yes',
  ],
  run: (ctx, _args, opts) => sync(ctx, opts),
});

async function sync(ctx: Context, opts: SyncOptions): Promise<void> {
  // Loaded here, not with the noun: the YAML parser is most of the load time of every other labels verb.
  const { parseLabelsFile } = await import('../../workflows/labels-sync/file.js');
  const desired = parseLabelsFile(opts.fromFile, await readTextFile('--from-file', opts.fromFile, ctx.signal));
  const http = await ctx.http({ requireToken: true });
  const run = { maxInFlight: opts.maxInFlight, clock: systemClock, signal: ctx.signal };
  const projects = await groupProjects(http, opts.group, Boolean(opts.includeSubgroups));
  const steps = await planGroupSync(http, projects, desired, Boolean(opts.prune), run);
  const where = `${projects.length} project${projects.length === 1 ? '' : 's'} of group ${opts.group}`;
  const count = (action: string) => steps.filter((s) => s.action === action).length;
  const planned = `${count('create')} to create, ${count('update')} to update, ${count('delete')} to delete`;
  if (steps.length === 0) {
    ctx.info(`the labels of ${where} already match ${opts.fromFile}: nothing to change`);
    return;
  }
  await ctx.printPages(onePage(steps.map(planRow)), PLAN_COLUMNS);
  if (opts.dryRun) {
    ctx.info(`dry run: ${planned} in ${where}; nothing changed`);
    return;
  }
  if (count('delete') > 0)
    await confirmDestructive(ctx, opts.yes, `Delete ${count('delete')} label${count('delete') === 1 ? '' : 's'} in ${where}`);
  ctx.info(`${planned} in ${where}`);
  const tally = await applyPlanned(http, steps, { ...run, refusals: 'go-on' }, (step) => withRole('planner', () => applyStep(http, step)));
  reportApplied(ctx, steps.length, tally, {
    name: (step: LabelStep) => `${step.action} ${step.label} in ${step.project}`,
    summary: (n) => `applied ${n} change${n === 1 ? '' : 's'}`,
  });
}

function planRow(step: LabelStep): Record<string, string> {
  return { action: step.action, project: step.project, label: step.label, changes: step.changes.join(',') };
}
