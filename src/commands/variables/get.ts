import { getVariable } from '../../api/variables.js';
import { defineCommand } from '../../cli/spec.js';
import { OWNER_OPTIONS, type OwnerFlags, variableOwner } from './shared/owner.js';
import { ENVIRONMENT_SCOPE, KEY_ARGUMENT, oneScope, scopeFor } from './shared/key.js';
import { SHOW_VALUES, shownVariable, VARIABLE_COLUMNS } from './shared/values.js';

interface GetOptions extends OwnerFlags {
  environmentScope?: string;
  showValues?: boolean;
}

export const GET = defineCommand<GetOptions>({
  name: 'get',
  description: 'Show one CI/CD variable (its value as [masked] when masked, unless --show-values)',
  args: [KEY_ARGUMENT],
  options: [...OWNER_OPTIONS, ENVIRONMENT_SCOPE, SHOW_VALUES],
  notes: 'When the key exists in several environment scopes, name one with --environment-scope.',
  examples: ['svc variables get --project acme/platform/api DEPLOY_URL', 'svc variables get --group acme TOKEN --show-values -o json'],
  async run(ctx, [key], opts) {
    const owner = variableOwner(opts);
    const http = await ctx.http({ requireToken: true });
    const variable = await oneScope(owner, key as string, getVariable(http, owner, key as string, scopeFor(owner, opts.environmentScope)));
    await ctx.printRecord(shownVariable(variable, Boolean(opts.showValues), ctx.globals.output), VARIABLE_COLUMNS);
  },
});
