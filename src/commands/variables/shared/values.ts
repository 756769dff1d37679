import type { Variable } from '../../../api/variables.js';
import type { OptionSpec } from '../../../cli/spec.js';

export const MASKED_PLACEHOLDER = '[masked]';
export const HIDDEN_PLACEHOLDER = '[hidden]';

export const SHOW_VALUES: OptionSpec = {
  flags: '--show-values',
  help: 'print the values of masked variables too (hidden ones are never readable)',
};

export const VARIABLE_COLUMNS = ['key', 'environment_scope', 'variable_type', 'protected', 'masked', 'hidden', 'value'];

/**
 * A masked value is replaced unless asked for. A hidden one the service never gives back: a
 * person reads [hidden], JSON keeps the service's null.
 */
export function shownVariable(variable: Variable, showValues: boolean, format: string | undefined): Variable {
  if (variable.hidden) return { ...variable, value: format === 'json' || format === 'ndjson' ? null : HIDDEN_PLACEHOLDER };
  if (variable.masked && !showValues) return { ...variable, value: MASKED_PLACEHOLDER };
  return variable;
}
