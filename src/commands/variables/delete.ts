import { deleteVariable } from '../../api/variables.js';
import { defineCommand } from '../../cli/spec.js';
import { describeOwner, OWNER_OPTIONS, type OwnerFlags, variableOwner } from './shared/owner.js';
import { ENVIRONMENT_SCOPE, KEY_ARGUMENT, oneScope, scopeFor } from './shared/key.js';

interface DeleteOptions extends OwnerFlags {
  environmentScope?: string;
}

export const DELETE = defineCommand<DeleteOptions>({
  name: 'delete',
  description: 'Delete one CI/CD variable (prints nothing on stdout; the exit code is the result)',
  args: [KEY_ARGUMENT],
  options: [...OWNER_OPTIONS, ENVIRONMENT_SCOPE],
  notes: 'When the key exists in several environment scopes, name the one to delete with --environment-scope.',
  examples: [
    'svc variables delete --project acme/platform/api OLD_TOKEN',
    'svc variables delete --group acme URL --environment-scope staging',
  ],
  async run(ctx, [key], opts) {
    const owner = variableOwner(opts);
    const scope = scopeFor(owner, opts.environmentScope);
    const http = await ctx.http({ requireToken: true });
    await oneScope(owner, key as string, deleteVariable(http, owner, key as string, scope));
    ctx.info(`deleted variable ${String(key)}${scope ? ` (${scope})` : ''} of ${describeOwner(owner)}`);
  },
});
