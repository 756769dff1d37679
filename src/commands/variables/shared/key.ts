import type { VariableOwner } from '../../../api/variables.js';
import type { ArgSpec, OptionSpec } from '../../../cli/spec.js';
import { ExitCode, SvcError, UsageError } from '../../../errors.js';
import { ApiError } from '../../../http/api-error.js';
import { describeOwner } from './owner.js';
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

/** The service's 409 for a key in several scopes names its query parameter; the user's word for it is the flag. */
export async function oneScope<T>(owner: VariableOwner, key: string, request: Promise<T>): Promise<T> {
  try {
    return await request;
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 409) throw error;
    throw new SvcError(
      `${key} is set in several environment scopes of ${describeOwner(owner)}: name one with --environment-scope`,
      ExitCode.rejected,
    );
  }
}
