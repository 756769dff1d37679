/**
 * Every path parameter goes through `encodePathSegment`: namespaced paths, file paths, branch
 * and tag names may hold `/`, `+`, `#`, `?` or spaces, and the service answers 404 when a `/`
 * arrives unencoded.
 */
export function encodePathSegment(value: string | number): string {
  return encodeURIComponent(String(value)).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
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
export type QueryValue =
  | QueryScalar
  | null
  | undefined
  | QueryScalar[]
  | { [key: string]: QueryScalar | null | undefined }
  | Array<{ [key: string]: QueryScalar | null | undefined }>;
export type QueryParams = Record<string, QueryValue>;

/**
 * Flattens parameters into the service's query/form shapes: arrays as `name[]=v`, hashes as
 * `name[key]=v`, arrays of hashes as `name[i][key]=v`. Undefined and null values are dropped.
 */
export function flattenParams(params: QueryParams): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      value.forEach((item, index) => {
        if (item !== null && typeof item === 'object') {
          for (const [key, inner] of Object.entries(item)) {
            if (inner === undefined || inner === null) continue;
            pairs.push([`${name}[${index}][${key}]`, String(inner)]);
          }
        } else {
          pairs.push([`${name}[]`, String(item)]);
        }
      });
    } else if (typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        if (inner === undefined || inner === null) continue;
        pairs.push([`${name}[${key}]`, String(inner)]);
      }
    } else {
      pairs.push([name, String(value)]);
    }
  }
  return pairs;
}

/** Query-string encoding in which `+` (and every other reserved character) is percent-encoded. */
export function encodeQuery(params: QueryParams): string {
  return flattenParams(params)
    .map(([k, v]) => `${encodeQueryComponent(k)}=${encodeQueryComponent(v)}`)
    .join('&');
}

function encodeQueryComponent(value: string): string {
  // Brackets stay readable in parameter names; the service decodes both forms the same way.
  return encodePathSegment(value).replace(/%5B/g, '[').replace(/%5D/g, ']');
}
