import { UsageError } from '../../errors.js';

/** `KEY=VALUE` from a repeatable flag: the key is what precedes the first `=`, the value may be empty. */
export function parseAssignment(flag: string, text: string, valueName = 'VALUE'): [string, string] {
  const at = text.indexOf('=');
  if (at <= 0) throw new UsageError(`${flag} '${text}': expected KEY=${valueName}`);
  return [text.slice(0, at), text.slice(at + 1)];
}
