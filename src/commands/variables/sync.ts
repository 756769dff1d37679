import { listVariables, type Variable } from '../../api/variables.js';
import { defineCommand } from '../../cli/spec.js';
import type { Context } from '../../context.js';
import { IncompleteError } from '../../errors.js';
import { write } from '../../output/writer.js';
import { applySync } from '../../workflows/variables/apply.js';
import { parseVariablesFile } from '../../workflows/variables/file.js';
import { planLine, planSync } from '../../workflows/variables/plan.js';
import { readTextFile } from '../shared/local-file.js';
import { describeOwner, type OwnerFlags, PROJECT_OR_GROUP, variableOwner } from './shared/owner.js';

interface SyncOptions extends OwnerFlags {
  fromFile: string;
  prune?: boolean;
  dryRun?: boolean;
}

export const SYNC = defineCommand<SyncOptions>({
  name: 'sync',
  description: 'Make the CI/CD variables of a project or group match a dotenv or JSON file: print the plan, then apply it',
  options: [
    ...PROJECT_OR_GROUP,
    { flags: '--from-file <path>', help: 'dotenv file (KEY=VALUE lines) or JSON (what export -o json writes)', required: true },
    { flags: '--prune', help: 'also delete the variables the file does not declare' },
    { flags: '--dry-run', help: 'print the plan and change nothing' },
  ],
  notes:
    'The plan goes to stdout, one line per key and environment scope: ACTION<TAB>KEY<TAB>SCOPE, plus the ' +
    'attributes an update changes; values are never printed. dotenv variables have the scope *; JSON items may ' +
    'set environment_scope, variable_type, protected, masked, raw and description. Exit 8 if any step failed.',
  examples: [
    'svc variables sync --project acme/platform/api --from-file ci.env --dry-run',
    'svc variables sync --group acme --from-file group-vars.json --prune',
  ],
  run: (ctx, _args, opts) => run(ctx, opts),
});

async function run(ctx: Context, opts: SyncOptions): Promise<void> {
  const owner = variableOwner(opts, false);
  const desired = parseVariablesFile(opts.fromFile, await readTextFile('--from-file', opts.fromFile, ctx.signal));
  const http = await ctx.http({ requireToken: true });
  const current: Variable[] = [];
  for await (const page of listVariables(http, owner, 100)) current.push(...page.items);
  const steps = planSync(current, desired, Boolean(opts.prune));
  await write(ctx.stdout, steps.map((step) => `${planLine(step)}\n`).join(''));
  const count = (action: string) => steps.filter((s) => s.action === action).length;
  const planned = `${count('create')} to create, ${count('update')} to update, ${count('delete')} to delete, ${count('unchanged')} unchanged`;
  if (opts.dryRun) {
    ctx.info(`dry run: ${planned}; nothing changed in ${describeOwner(owner)}`);
    return;
  }
  const result = await applySync(http, owner, steps, ctx.signal);
  for (const failure of result.failures)
    ctx.warn(`${failure.step.action} ${failure.step.key} (${failure.step.environment_scope}) failed: ${failure.message}`);
  const { create, update, delete: deleted, unchanged } = result.done;
  const summary = `${create} created, ${update} updated, ${deleted} deleted, ${unchanged} unchanged, ${result.failures.length} failed`;
  if (result.failures.length > 0) throw new IncompleteError(`sync of ${describeOwner(owner)} incomplete: ${summary}`);
  ctx.info(`synced ${describeOwner(owner)}: ${summary}`);
}
