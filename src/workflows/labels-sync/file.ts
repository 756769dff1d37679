import { isMap, isNode, LineCounter, parseDocument } from 'yaml';
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
 * A label set from YAML or JSON (read as YAML 1.2, which JSON is, so both keep their line numbers): a
 * list of labels, or a mapping holding it under `labels:` (its other keys are left alone, a place for
 * anchors). Merge keys (`<<: *base`) are read too.
 */
export function parseLabelsFile(path: string, text: string): DesiredLabel[] {
  // A byte order mark, as some editors save UTF-8, is no part of the YAML.
  const labels = readItems(path, text.replace(/^\uFEFF/, '')).map((item, i) => checkLabel(path, item, i));
  if (labels.length === 0) throw new UsageError(`${path} declares no labels`);
  const seen = new Set<string>();
  for (const label of labels) {
    if (seen.has(label.name)) throw new UsageError(`${path}: label ${label.name} is declared twice`);
    seen.add(label.name);
  }
  return labels;
}

const QUOTE_HINT = ` (quote it, as '#D9534F': a # after a space starts a YAML comment)`;
const UNQUOTED_COLOR = /:[ \t]+#[0-9a-f]{3}(?:[0-9a-f]{3})?\b/i;

function readItems(path: string, text: string): unknown[] {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true, merge: true });
  const lineOf = (offset: number) => lineCounter.linePos(offset).line;
  // Only the first error: the ones after it mostly follow from it.
  const syntax = doc.errors[0];
  if (syntax) {
    const problem = syntax.code === 'MULTIPLE_DOCS' ? 'a second document (---): give the labels in one' : syntax.message.split('\n')[0];
    // In a flow mapping an unquoted colour comments out the rest of the line, closing brace included.
    const hint = UNQUOTED_COLOR.test(text) ? QUOTE_HINT.replace('quote it', 'quote each colour') : '';
    throw new UsageError(`${path}:${lineOf(syntax.pos[0])}: ${problem}${hint}`);
  }
  let top: unknown;
  try {
    top = doc.toJS();
  } catch (error) {
    // Aliases are resolved here: one naming no anchor set before it, or expanding without bound, throws.
    throw new UsageError(`${path}: ${(error as Error).message}`);
  }
  if (top === null || top === undefined) return [];
  const list = Array.isArray(top) ? top : typeof top === 'object' ? (top as { labels?: unknown }).labels : undefined;
  if (list === null) return [];
  if (!Array.isArray(list)) {
    const at = (isMap(doc.contents) ? doc.contents.get('labels', true) : undefined) ?? doc.contents;
    throw new UsageError(`${path}:${lineOf(isNode(at) && at.range ? at.range[0] : 0)}: expected a list of labels, or {"labels": [...]}`);
  }
  return list;
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
    // Unquoted, `color: #D9534F` is a key with a comment after it.
    const hint = color === null ? QUOTE_HINT : '';
    throw new UsageError(`${where} (${name}): color must be #RGB or #RRGGBB${hint}`);
  }
  if (description !== undefined && description !== null && typeof description !== 'string') {
    throw new UsageError(`${where} (${name}): description must be text`);
  }
  if (priority !== undefined && priority !== null && (typeof priority !== 'number' || !Number.isSafeInteger(priority) || priority < 0)) {
    // YAML reads 99999999999999999999 as 1e20: past 2^53 a priority would be sent as another number.
    throw new UsageError(`${where} (${name}): priority must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}, or null for none`);
  }
  return {
    name,
    color,
    ...(description === undefined ? {} : { description: (description as string | null) ?? '' }),
    ...(priority === undefined ? {} : { priority: priority as number | null }),
  };
}
