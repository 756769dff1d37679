import { UsageError } from '../../errors.js';

/** One label as the file declares it; what it leaves out is left as it is. */
export interface DesiredLabel {
  name: string;
  color: string;
  description?: string;
  priority?: number | null;
}

const KEYS = new Set(['name', 'color', 'description', 'priority']);

/**
 * A label set from JSON (an array, or `{"labels": [...]}`) or from YAML's block form of the same: a
 * list of mappings with plain, single- or double-quoted scalars, optionally under `labels:`. Other YAML
 * (flow collections, anchors, multi-line scalars) is refused with the line it is on.
 */
export function parseLabelsFile(path: string, text: string): DesiredLabel[] {
  const trimmed = text.trimStart();
  const items = trimmed.startsWith('[') || trimmed.startsWith('{') ? fromJson(path, text) : fromYaml(path, text);
  const labels = items.map((item, i) => checkLabel(path, item, i));
  if (labels.length === 0) throw new UsageError(`${path} declares no labels`);
  const seen = new Set<string>();
  for (const label of labels) {
    if (seen.has(label.name)) throw new UsageError(`${path}: label ${label.name} is declared twice`);
    seen.add(label.name);
  }
  return labels;
}

function fromJson(path: string, text: string): unknown[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${path} is not valid JSON: ${(error as Error).message}`);
  }
  const list = Array.isArray(parsed) ? parsed : (parsed as { labels?: unknown } | null)?.labels;
  if (!Array.isArray(list)) throw new UsageError(`${path}: expected an array of labels, or {"labels": [...]}`);
  return list;
}

function fromYaml(path: string, text: string): unknown[] {
  const items: Array<Record<string, unknown>> = [];
  let current: Record<string, unknown> | null = null;
  let itemIndent = -1;
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    const line = stripComment(raw);
    if (line.trim() === '' || line.trim() === '---' || (items.length === 0 && current === null && /^labels:\s*$/.test(line))) continue;
    const where = `${path}:${index + 1}`;
    const item = /^(\s*)- (.*)$/.exec(line);
    if (item && (itemIndent === -1 || item[1]!.length === itemIndent)) {
      itemIndent = item[1]!.length;
      current = {};
      items.push(current);
      setPair(where, current, item[2]!);
      continue;
    }
    const indent = /^\s*/.exec(line)![0].length;
    if (!current || indent <= itemIndent) throw new UsageError(`${where}: expected '- name: …' starting a label`);
    setPair(where, current, line.trim());
  }
  return items;
}

function setPair(where: string, into: Record<string, unknown>, text: string): void {
  const pair = /^([a-z_]+):\s*(.*)$/.exec(text);
  if (!pair) throw new UsageError(`${where}: expected 'key: value'`);
  const [, key, value] = pair as unknown as [string, string, string];
  into[key] = scalar(where, value.trim());
}

function scalar(where: string, text: string): unknown {
  if (text === '' || text === '~' || text === 'null') return null;
  if (/^"(?:[^"\\]|\\.)*"$/.test(text)) return JSON.parse(text) as string;
  if (/^'(?:[^']|'')*'$/.test(text)) return text.slice(1, -1).replace(/''/g, "'");
  if (/^[[{&*|>!%@`]/.test(text)) throw new UsageError(`${where}: only plain or quoted values are read here`);
  if (/^-?\d+$/.test(text)) return Number(text);
  return text;
}

/** A `#` starts a comment at the line's start or after a space, outside quotes. */
function stripComment(line: string): string {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) return line.slice(0, i);
  }
  return line;
}

function checkLabel(path: string, item: unknown, index: number): DesiredLabel {
  const where = `${path}: label ${index + 1}`;
  if (typeof item !== 'object' || item === null || Array.isArray(item)) throw new UsageError(`${where} is not a mapping`);
  const record = item as Record<string, unknown>;
  const unknown = Object.keys(record).filter((key) => !KEYS.has(key));
  if (unknown.length > 0) throw new UsageError(`${where}: unknown key ${unknown.join(', ')} (name, color, description, priority)`);
  const { name, color, description, priority } = record;
  if (typeof name !== 'string' || name.trim() === '') throw new UsageError(`${where} has no name`);
  if (typeof color !== 'string' || !/^#([0-9a-f]{3}|[0-9a-f]{6})$/i.test(color)) {
    throw new UsageError(`${where} (${name}): color must be #RGB or #RRGGBB`);
  }
  if (description !== undefined && description !== null && typeof description !== 'string') {
    throw new UsageError(`${where} (${name}): description must be text`);
  }
  if (priority !== undefined && priority !== null && (typeof priority !== 'number' || !Number.isInteger(priority) || priority < 0)) {
    throw new UsageError(`${where} (${name}): priority must be a whole number from 0, or null for none`);
  }
  return {
    name,
    color,
    ...(description === undefined ? {} : { description: (description as string | null) ?? '' }),
    ...(priority === undefined ? {} : { priority: priority as number | null }),
  };
}
