import type { ApplicationSettings } from '../../api/settings.js';
import { UsageError } from '../../errors.js';
import { isKeptNumber } from '../../json.js';

/** Shown by the service, never set through it. */
const READ_ONLY = new Set(['id', 'created_at', 'updated_at']);

/** `KEY=VALUE` arguments, in order; a key given twice is a mistake, not an override. */
export function parseAssignments(args: string[]): Array<[string, string]> {
  const seen = new Set<string>();
  return args.map((arg) => {
    const at = arg.indexOf('=');
    if (at <= 0) throw new UsageError(`'${arg}': give each setting as KEY=VALUE`);
    const key = arg.slice(0, at);
    if (seen.has(key)) throw new UsageError(`${key} is given twice`);
    seen.add(key);
    return [key, arg.slice(at + 1)];
  });
}

/**
 * The value a setting takes, typed as the service shows it now: true|false for a boolean, a whole number
 * where it holds one, a comma list for an array, a JSON object for a hash, text otherwise (also for a
 * setting that is null, whose type the answer does not show). A key the service does not show is refused:
 * the service ignores settings it does not know, so sending one would change nothing without a word.
 */
export function typedValue(current: ApplicationSettings, key: string, text: string): unknown {
  if (READ_ONLY.has(key)) throw new UsageError(`${key} is read-only`);
  if (!(key in current)) throw new UsageError(`unknown setting '${key}' (svc settings get lists the instance's settings)`);
  const now = current[key];
  const wrong = (what: string) => new UsageError(`${key}=${text}: ${key} takes ${what}`);
  if (typeof now === 'boolean') {
    if (text !== 'true' && text !== 'false') throw wrong('true or false');
    return text === 'true';
  }
  // A number past 2^53 is parsed as its source text (json.ts): still a number, not a hash.
  if (typeof now === 'number' || isKeptNumber(now)) {
    const whole = typeof now === 'number' ? Number.isInteger(now) : /^-?\d+$/.test(String(now));
    if (!(whole ? /^-?\d+$/ : /^-?\d+(\.\d+)?$/).test(text)) throw wrong(whole ? 'a whole number' : 'a number');
    const value = Number(text);
    // Sent as a JSON number, a whole number past 2^53 would arrive rounded (99999999999999999999 as 1e20).
    if (whole && !Number.isSafeInteger(value))
      throw wrong(`a whole number up to ${Number.MAX_SAFE_INTEGER} (a larger one cannot be sent exactly)`);
    return value;
  }
  if (Array.isArray(now)) {
    return text
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== '');
  }
  if (now !== null && typeof now === 'object') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw wrong('a JSON object');
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw wrong('a JSON object');
    return parsed;
  }
  return text;
}
