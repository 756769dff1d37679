import { UsageError } from '../../errors.js';

/** One variable as a file declares it; attributes left out are not compared and not sent. */
export interface DesiredVariable {
  key: string;
  value: string;
  environment_scope: string;
  variable_type?: 'env_var' | 'file';
  protected?: boolean;
  masked?: boolean;
  raw?: boolean;
  description?: string;
}

export const DEFAULT_SCOPE = '*';
const KEY = /^[A-Za-z0-9_]+$/;
const BOOLEAN_ATTRIBUTES = ['protected', 'masked', 'raw'] as const;

/** A JSON file (what `export -o json` writes, or an object of KEY: value) or a dotenv file. */
export function parseVariablesFile(name: string, text: string): DesiredVariable[] {
  const trimmed = text.trimStart();
  const variables = trimmed.startsWith('[') || trimmed.startsWith('{') ? parseJson(name, text) : parseDotenv(name, text);
  const seen = new Set<string>();
  for (const v of variables) {
    const id = `${v.key} (${v.environment_scope})`;
    if (seen.has(id)) throw new UsageError(`${name}: ${id} is declared twice`);
    seen.add(id);
  }
  return variables;
}

function parseJson(name: string, text: string): DesiredVariable[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${name}: not valid JSON (${(error as Error).message})`);
  }
  if (Array.isArray(data)) return data.map((item, i) => jsonVariable(name, item, i));
  const entries = Object.entries(data as Record<string, unknown>);
  return entries.map(([key, value]) => {
    if (typeof value !== 'string') throw new UsageError(`${name}: the value of ${key} must be a string`);
    return { key: checkedKey(name, key), value, environment_scope: DEFAULT_SCOPE };
  });
}

function jsonVariable(name: string, item: unknown, index: number): DesiredVariable {
  const where = `${name}: item ${index + 1}`;
  if (!item || typeof item !== 'object' || Array.isArray(item)) throw new UsageError(`${where} is not an object`);
  const record = item as Record<string, unknown>;
  if (typeof record.key !== 'string') throw new UsageError(`${where} has no "key"`);
  if (typeof record.value !== 'string') throw new UsageError(`${where} (${record.key}) has no string "value"`);
  const variable: DesiredVariable = {
    key: checkedKey(name, record.key),
    value: record.value,
    environment_scope: optionalString(where, record, 'environment_scope') ?? DEFAULT_SCOPE,
  };
  const type = record.variable_type;
  if (type !== undefined) {
    if (type !== 'env_var' && type !== 'file') throw new UsageError(`${where}: variable_type must be env_var or file`);
    variable.variable_type = type;
  }
  for (const attribute of BOOLEAN_ATTRIBUTES) {
    const value = record[attribute];
    if (value === undefined) continue;
    if (typeof value !== 'boolean') throw new UsageError(`${where}: ${attribute} must be true or false`);
    variable[attribute] = value;
  }
  const description = optionalString(where, record, 'description');
  if (description !== undefined) variable.description = description;
  return variable;
}

function optionalString(where: string, record: Record<string, unknown>, name: string): string | undefined {
  const value = record[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new UsageError(`${where}: ${name} must be a string`);
  return value;
}

function checkedKey(name: string, key: string): string {
  if (!KEY.test(key)) throw new UsageError(`${name}: invalid key '${key}': letters, digits and _ only`);
  return key;
}

/**
 * `KEY=value` lines (`export ` allowed), `#` comments. A value is bare, "double-quoted" with
 * escapes (\n is a newline), or written as a shell does: 'single-quoted' pieces, which may span
 * lines, joined by \' for a quote (what `export` writes).
 */
export function parseDotenv(name: string, text: string): DesiredVariable[] {
  const out: DesiredVariable[] = [];
  let line = 1;
  let at = 0;
  while (at < text.length) {
    const eol = lineEnd(text, at);
    const head = text.slice(at, eol).replace(/\r$/, '');
    const trimmed = head.trim();
    if (!trimmed || trimmed.startsWith('#')) {
      [at, line] = [eol + 1, line + 1];
      continue;
    }
    const match = /^\s*(?:export\s+)?([^=\s]+)\s*=[ \t]*/.exec(head);
    if (!match) throw new UsageError(`${name}:${line}: expected KEY=VALUE`);
    const key = checkedKey(`${name}:${line}`, match[1] as string);
    const valueAt = at + match[0].length;
    if (text[valueAt] === "'") {
      const quoted = singleQuoted(name, line, text, valueAt);
      out.push({ key, value: quoted.value, environment_scope: DEFAULT_SCOPE });
      line += countNewlines(text, at, quoted.end);
      const rest = text.slice(quoted.end, lineEnd(text, quoted.end)).trim();
      if (rest && !rest.startsWith('#')) throw new UsageError(`${name}:${line}: unexpected text after the closing ' quote`);
      at = lineEnd(text, quoted.end) + 1;
    } else {
      out.push({ key, value: dotenvValue(name, line, head.slice(match[0].length).trim()), environment_scope: DEFAULT_SCOPE });
      at = eol + 1;
    }
    line++;
  }
  return out;
}

function lineEnd(text: string, from: number): number {
  const eol = text.indexOf('\n', from);
  return eol < 0 ? text.length : eol;
}

function countNewlines(text: string, from: number, to: number): number {
  let count = 0;
  for (let i = text.indexOf('\n', from); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) count++;
  return count;
}

/** 'pieces' and \' as a shell joins them, from `start` (a quote) to the end of the word. */
function singleQuoted(name: string, line: number, text: string, start: number): { value: string; end: number } {
  let value = '';
  let at = start;
  for (;;) {
    if (text[at] === "'") {
      const close = text.indexOf("'", at + 1);
      if (close < 0) throw new UsageError(`${name}:${line}: unterminated ' quote`);
      value += text.slice(at + 1, close);
      at = close + 1;
    } else if (text.startsWith("\\'", at)) {
      value += "'";
      at += 2;
    } else return { value, end: at };
  }
}

const ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', '"': '"', '\\': '\\', $: '$' };

function dotenvValue(name: string, line: number, text: string): string {
  if (text.startsWith('"')) {
    let value = '';
    for (let i = 1; i < text.length; i++) {
      const c = text[i] as string;
      if (c === '"') return value;
      if (c === '\\' && i + 1 < text.length) {
        const next = text[++i] as string;
        value += ESCAPES[next] ?? `\\${next}`;
      } else value += c;
    }
    throw new UsageError(`${name}:${line}: unterminated " quote`);
  }
  return text.replace(/\s+#.*$/, '');
}

/** A key a shell takes for a variable name in `KEY=value` (a leading digit would make it a command). */
export const SHELL_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const BARE = /^[A-Za-z0-9_./:@+,=-]*$/;

/**
 * One dotenv line that `sh`, `bash` and `dash` source to the same bytes (and `parseDotenv` reads
 * back): a value with anything but a few plain characters is single-quoted, a quote in it written
 * '\''. Nothing is special inside single quotes, so a backtick, $(), a backslash or a newline
 * stays what it is, and no ~ is left bare to expand. The caller checks the key and that the value
 * holds no NUL, which no shell variable can.
 */
export function dotenvLine(key: string, value: string): string {
  if (BARE.test(value)) return `${key}=${value}`;
  return `${key}='${value.replaceAll("'", "'\\''")}'`;
}
