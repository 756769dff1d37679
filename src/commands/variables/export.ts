import { listVariables, type Variable } from '../../api/variables.js';
import { defineCommand } from '../../cli/spec.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { jsonText } from '../../output/format.js';
import { write } from '../../output/writer.js';
import { terminalSafe } from '../../output/terminal-safe.js';
import { DEFAULT_SCOPE, dotenvLine, SHELL_NAME } from '../../workflows/variables/file.js';
import { type OwnerFlags, PROJECT_OR_GROUP, variableOwner } from './shared/owner.js';
import { SHOW_VALUES } from './shared/values.js';

interface ExportOptions extends OwnerFlags {
  showValues?: boolean;
}

export const EXPORT = defineCommand<ExportOptions>({
  name: 'export',
  description: 'Write the CI/CD variables of a project or group as dotenv (default) or, with -o json, as JSON that sync reads back',
  options: [...PROJECT_OR_GROUP, SHOW_VALUES],
  notes:
    'Masked variables are left out unless --show-values, hidden ones always (their values cannot be read); ' +
    'each one left out is named on stderr. dotenv has no environment scopes: variables of a scope other than * ' +
    'are left out of it too (use -o json), and so are keys a shell cannot take and values holding a NUL byte. ' +
    'The dotenv can be sourced (set -a; . ./ci.env): values are single-quoted, so sh, bash and dash read them back byte for byte. ' +
    'On a terminal, control characters are shown as escapes instead.',
  examples: [
    'svc variables export --project acme/platform/api > ci.env',
    'svc variables export --group acme -o json --show-values > group-vars.json',
  ],
  run: (ctx, _args, opts) => run(ctx, opts),
});

async function run(ctx: Context, opts: ExportOptions): Promise<void> {
  const format = ctx.globals.output ?? 'dotenv';
  if (format !== 'dotenv' && format !== 'json') throw new UsageError('export writes dotenv (the default) or JSON (-o json)');
  const owner = variableOwner(opts, false);
  const http = await ctx.http({ requireToken: true });
  const kept: Variable[] = [];
  for await (const page of listVariables(http, owner, 100)) {
    for (const variable of page.items) {
      const reason = leftOutBecause(variable, format, Boolean(opts.showValues));
      if (reason) ctx.warn(`left out ${variable.key} (${variable.environment_scope ?? DEFAULT_SCOPE}): ${reason}`);
      else kept.push(variable);
    }
  }
  if (format === 'json') {
    const records = kept.map(({ hidden: _hidden, ...variable }) => variable);
    await write(ctx.stdout, `${jsonText(records, true)}\n`);
    return;
  }
  const dotenv = kept.map((v) => `${dotenvLine(v.key, v.value as string)}\n`).join('');
  // Sourced from a file the bytes must be exact; shown on a terminal, a value must not drive it.
  await write(ctx.stdout, ctx.io.isTTY.stdout ? terminalSafe(dotenv, { multiline: true }) : dotenv);
}

const KEY = /^[A-Za-z0-9_]+$/;

function leftOutBecause(variable: Variable, format: string, showValues: boolean): string | undefined {
  if (!KEY.test(variable.key)) return 'not a valid key (letters, digits and _ only)';
  if (format === 'dotenv' && !SHELL_NAME.test(variable.key)) return 'a shell variable name cannot start with a digit (use -o json)';
  if (variable.hidden || variable.value === null) return 'hidden, its value cannot be read';
  if (variable.masked && !showValues) return 'masked (add --show-values to export it)';
  if (format === 'dotenv' && (variable.environment_scope ?? DEFAULT_SCOPE) !== DEFAULT_SCOPE) {
    return 'dotenv has no environment scopes (use -o json)';
  }
  if (format === 'dotenv' && (variable.value as string).includes('\0')) return 'a shell variable cannot hold its NUL byte (use -o json)';
  return undefined;
}
