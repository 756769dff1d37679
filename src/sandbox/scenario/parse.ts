// Reading a scenario file: YAML or JSON (JSON is read as YAML 1.2, so both keep their line numbers),
// then the schema's checks and the cross-references, every mistake as `file:line: path: problem`.
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import { checkReferences } from './references.js';
import { type Scenario, SCENARIO_SCHEMA, type SchemaNode } from './schema.js';

export interface ScenarioMistake {
  line: number;
  path: string;
  message: string;
}

export type ParsedScenario = { ok: true; scenario: Scenario } | { ok: false; mistakes: string[] };

/** Line of every value (and of every key, as `path#key`) by field path. */
type Lines = Map<string, number>;

function collectLines(node: unknown, path: string, lines: Lines, lineOf: (offset: number) => number): void {
  if (!node || typeof node !== 'object') return;
  const n = node as Node;
  if (n.range) lines.set(path, lineOf(n.range[0]));
  if (isMap(n)) {
    for (const pair of n.items) {
      if (!isPair(pair) || !isScalar(pair.key)) continue;
      const key = String(pair.key.value);
      const child = path ? `${path}.${key}` : key;
      if (pair.key.range) lines.set(`${child}#key`, lineOf(pair.key.range[0]));
      if (pair.value) collectLines(pair.value, child, lines, lineOf);
      else if (pair.key.range) lines.set(child, lineOf(pair.key.range[0]));
    }
  } else if (isSeq(n)) {
    n.items.forEach((item, i) => collectLines(item, `${path}[${i}]`, lines, lineOf));
  }
}

const TYPE_NAMES: Record<string, string> = {
  object: 'a mapping',
  array: 'a list',
  string: 'a string',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
};

function typeOk(type: SchemaNode['type'], v: unknown): boolean {
  switch (type) {
    case 'object':
      return typeof v === 'object' && v !== null && !Array.isArray(v);
    case 'array':
      return Array.isArray(v);
    case 'string':
      return typeof v === 'string';
    case 'integer':
      return Number.isInteger(v);
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'boolean':
      return typeof v === 'boolean';
    default:
      return true;
  }
}

function resolve(node: SchemaNode): SchemaNode {
  if (!node.$ref) return node;
  const name = node.$ref.replace('#/$defs/', '');
  return (SCENARIO_SCHEMA.$defs as Record<string, SchemaNode>)[name]!;
}

/** The schema's checks on one value; every mistake is pushed, none stops the walk. */
export function checkAgainst(
  schemaNode: SchemaNode,
  v: unknown,
  path: string,
  report: (path: string, message: string, at?: string) => void,
): void {
  const s = resolve(schemaNode);
  if (s.type && !typeOk(s.type, v)) return report(path, `must be ${TYPE_NAMES[s.type]}`);
  if (s.enum && !s.enum.includes(v as string)) return report(path, `must be one of ${s.enum.join(', ')}`);
  if (typeof v === 'number') {
    if (s.minimum !== undefined && v < s.minimum) report(path, `must be at least ${s.minimum}`);
    if (s.maximum !== undefined && v > s.maximum) report(path, `must be at most ${s.maximum}`);
  }
  if (typeof v === 'string') {
    if (s.minLength !== undefined && v.length < s.minLength) report(path, 'must not be empty');
    else if (s.pattern !== undefined && !new RegExp(s.pattern).test(v)) report(path, `must match ${s.pattern}`);
  }
  if (Array.isArray(v) && s.items) v.forEach((item, i) => checkAgainst(s.items!, item, `${path}[${i}]`, report));
  if (s.type === 'object') {
    const o = v as Record<string, unknown>;
    const at = (key: string) => (path ? `${path}.${key}` : key);
    for (const key of s.required ?? []) if (o[key] === undefined || o[key] === null) report(at(key), 'is required', path);
    for (const [key, value] of Object.entries(o)) {
      const known = s.properties?.[key];
      if (known) {
        if (value !== null || !(s.required ?? []).includes(key)) checkAgainst(known, value, at(key), report);
      } else if (s.additionalProperties === false)
        report(at(key), `is not a known field (known: ${Object.keys(s.properties ?? {}).join(', ')})`, `${at(key)}#key`);
      else if (s.additionalProperties) checkAgainst(s.additionalProperties, value, at(key), report);
    }
  }
}

/** Parses and validates a scenario's text; `file` names it in the mistakes. */
export function parseScenario(text: string, file: string): ParsedScenario {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const lineOf = (offset: number) => lineCounter.linePos(offset).line;
  // Only the first syntax error: the ones after it mostly follow from it.
  const syntax = doc.errors[0];
  if (syntax) return { ok: false, mistakes: [`${file}:${lineOf(syntax.pos[0])}: ${syntax.message.split('\n')[0]}`] };
  const value: unknown = doc.toJS() ?? {};
  const lines: Lines = new Map();
  collectLines(doc.contents, '', lines, lineOf);
  const mistakes: ScenarioMistake[] = [];
  const report = (path: string, message: string, at?: string) => {
    let line = lines.get(at ?? path);
    // A value the file does not have (a required field) is reported on its nearest written parent.
    for (let p = path; line === undefined && p; p = p.replace(/(\.[^.[\]]+|\[\d+\])$/, '')) line = lines.get(p);
    mistakes.push({ line: line ?? 1, path, message });
  };
  checkAgainst(SCENARIO_SCHEMA as SchemaNode, value, '', report);
  if (mistakes.length === 0) checkReferences(value as Scenario, report);
  if (mistakes.length > 0) {
    mistakes.sort((a, b) => a.line - b.line);
    return { ok: false, mistakes: mistakes.map((m) => `${file}:${m.line}: ${m.path || '(top)'}: ${m.message}`) };
  }
  return { ok: true, scenario: value as Scenario };
}
