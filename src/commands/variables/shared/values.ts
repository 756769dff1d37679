import type { Variable } from '../../../api/variables.js';
import type { OptionSpec } from '../../../cli/spec.js';

export const MASKED_PLACEHOLDER = '[masked]';
export const HIDDEN_PLACEHOLDER = '[hidden]';

export const SHOW_VALUES: OptionSpec = {
  flags: '--show-values',
  help: 'print the values of masked variables too (hidden ones are never readable)',
};

export const VARIABLE_COLUMNS = ['key', 'environment_scope', 'variable_type', 'protected', 'masked', 'hidden', 'value'];

/** A masked or hidden value is replaced unless asked for; a hidden one the service never gives back. */
export function shownVariable(variable: Variable, showValues: boolean): Variable {
  if (variable.hidden) return { ...variable, value: HIDDEN_PLACEHOLDER };
  if (variable.masked && !showValues) return { ...variable, value: MASKED_PLACEHOLDER };
  return variable;
}
