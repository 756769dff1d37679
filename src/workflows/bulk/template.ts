import { stringifyJson } from '../../json.js';

/** `{id}`, `{path_with_namespace}`, `{namespace.full_path}`: other braces (JSON in an argument) stay as typed. */
const PLACEHOLDER = /\{([A-Za-z_][\w-]*(?:\.[\w-]+)*)\}/g;

/** The names a command template refers to, in order of appearance. */
export function placeholdersOf(template: string[]): string[] {
  return template.flatMap((word) => [...word.matchAll(PLACEHOLDER)].map((m) => m[1] as string));
}

/** The command for one record, or the one-line reason it cannot be built (a field the record lacks). */
export function fillTemplate(template: string[], record: unknown): { argv: string[] } | { error: string } {
  const argv: string[] = [];
  for (const word of template) {
    let missing: string | undefined;
    const filled = word.replace(PLACEHOLDER, (_all, path: string) => {
      const value = fieldAt(record, path);
      if (value === undefined || value === null) {
        missing ??= path;
        return '';
      }
      return typeof value === 'object' ? stringifyJson(value) : String(value);
    });
    if (missing !== undefined) return { error: `the input has no field '${missing}' for {${missing}}` };
    argv.push(filled);
  }
  return { argv };
}

function fieldAt(record: unknown, path: string): unknown {
  let value: unknown = record;
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}
