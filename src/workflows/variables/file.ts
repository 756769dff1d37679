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

/** `KEY=value` lines (`export ` allowed), `#` comments, values bare, 'single-quoted' or "double-quoted" with escapes. */
export function parseDotenv(name: string, text: string): DesiredVariable[] {
  const out: DesiredVariable[] = [];
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const match = /^(?:export\s+)?([^=\s]+)\s*=(.*)$/.exec(line);
    if (!match) throw new UsageError(`${name}:${i + 1}: expected KEY=VALUE`);
    out.push({
      key: checkedKey(`${name}:${i + 1}`, match[1] as string),
      value: dotenvValue(name, i + 1, (match[2] as string).trim()),
      environment_scope: DEFAULT_SCOPE,
    });
  }
  return out;
}

const ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', '"': '"', '\\': '\\', $: '$' };

function dotenvValue(name: string, line: number, text: string): string {
  if (text.startsWith("'")) {
    const end = text.indexOf("'", 1);
    if (end < 0) throw new UsageError(`${name}:${line}: unterminated ' quote`);
    return text.slice(1, end);
  }
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

/** One dotenv line that `parseDotenv` reads back to the same value. */
export function dotenvLine(key: string, value: string): string {
  if (/^[A-Za-z0-9_./:@+=~,-]*$/.test(value)) return `${key}=${value}`;
  const escaped = value.replace(/[\\"$\n\r\t]/g, (c) => ({ '\n': '\\n', '\r': '\\r', '\t': '\\t' })[c] ?? `\\${c}`);
  return `${key}="${escaped}"`;
}
