import type { VariableOwner } from '../../../api/variables.js';
import type { ArgSpec, OptionSpec } from '../../../cli/spec.js';
import { UsageError } from '../../../errors.js';
import { requiredTextParser } from '../../shared/args.js';

export const KEY_ARGUMENT: ArgSpec = { name: 'key', help: 'variable key (letters, digits and _)', parse: requiredTextParser('key') };

export const ENVIRONMENT_SCOPE: OptionSpec = {
  flags: '--environment-scope <scope>',
  help: "environment scope of the variable (default for set: '*'; project and group variables only)",
  parse: requiredTextParser('--environment-scope'),
};

/** Instance variables have no environment scope: asking for one is a mistake, not a filter to drop. */
export function scopeFor(owner: VariableOwner, scope: string | undefined): string | undefined {
  if (owner.kind === 'instance' && scope !== undefined) throw new UsageError('instance variables have no environment scope');
  return scope;
}
