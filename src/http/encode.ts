/**
 * Every path parameter goes through `encodePathSegment`: namespaced paths, file paths, branch
 * and tag names may hold `/`, `+`, `#`, `?` or spaces, and the service answers 404 when a `/`
 * arrives unencoded. A whole `.` or `..` is encoded too: URL parsers treat it as a step up.
 */
export function encodePathSegment(value: string | number): string {
  const text = String(value);
  if (text === '.' || text === '..') return text.replace(/\./g, '%2E');
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Tagged template that encodes every interpolated value as one path segment: apiPath`/projects/${id}`. */
export function apiPath(strings: TemplateStringsArray, ...values: Array<string | number>): string {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += encodePathSegment(value) + (strings[i + 1] ?? '');
  });
  return out;
}

export type QueryScalar = string | number | boolean;
export type QueryValue = QueryScalar | null | undefined | QueryValue[] | { [key: string]: QueryValue };
export type QueryParams = Record<string, QueryValue>;

/**
 * Flattens parameters into the service's query/form shapes: arrays as `name[]=v`, hashes as
 * `name[key]=v`, arrays of hashes as `name[i][key]=v` (deeper nesting follows the same rules).
 * Undefined and null values are dropped.
 */
export function flattenParams(params: QueryParams): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(params)) flattenInto(pairs, name, value);
  return pairs;
}

function flattenInto(pairs: Array<[string, string]>, name: string, value: QueryValue): void {
  if (value === undefined || value === null) return;
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      const nested = item !== null && typeof item === 'object';
      flattenInto(pairs, nested ? `${name}[${index}]` : `${name}[]`, item);
    });
  } else if (typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) flattenInto(pairs, `${name}[${key}]`, inner);
  } else {
    pairs.push([name, String(value)]);
  }
}

/** Query-string encoding in which `+` (and every other reserved character) is percent-encoded. */
export function encodeQuery(params: QueryParams): string {
  return flattenParams(params)
    .map(([k, v]) => `${encodeParamName(k)}=${encodePathSegment(v)}`)
    .join('&');
}

function encodeParamName(name: string): string {
  // Brackets stay readable in parameter names; the service decodes both forms the same way.
  return encodePathSegment(name).replace(/%5B/g, '[').replace(/%5D/g, ']');
}
