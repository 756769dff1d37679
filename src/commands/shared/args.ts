import { getGroup } from '../../api/groups.js';
import type { HttpClient } from '../../http/client.js';
import { UsageError } from '../../errors.js';
import type { PathParam } from '../generic/resource.js';

export const PROJECT_ARGUMENT = 'numeric id or namespaced path (group/project)';

/** A project is a numeric id or a namespaced path (`group/sub/project`); the path is encoded later. */
export function projectRef(value: string): string {
  const trimmed = value.trim();
  if (!trimmed) throw new UsageError('project must be a numeric id or a namespaced path such as group/project');
  if (/^\d+$/.test(trimmed) && Number(trimmed) > 0) return trimmed;
  if (/^-?\d+(\.\d+)?$/.test(trimmed)) throw new UsageError(`invalid project id '${value}': ids are positive whole numbers`);
  if (trimmed.startsWith('/') || trimmed.endsWith('/') || trimmed.includes('//')) {
    throw new UsageError(`invalid project path '${value}': expected namespace/project without leading or trailing '/'`);
  }
  return trimmed;
}

/** Names and paths sent as one path segment or parameter (file path, branch, tag, ref): never empty. */
export function requiredText(name: string, value: string): string {
  if (!value.trim()) throw new UsageError(`${name} must not be empty`);
  return value;
}

/** `requiredText` as a commander argument/option parser, so an empty value stops the command before it runs. */
export function requiredTextParser(name: string): (value: string) => string {
  return (value) => requiredText(name, value);
}

/** Path parameters most resources share. */
export const PROJECT: PathParam = { help: PROJECT_ARGUMENT, parse: projectRef };

/** A positive whole-number id, kept as the digits given (ids may pass 2^53). */
export function idParam(what: string, help: string): PathParam {
  return { help, parse: (value) => idDigits(what, value) };
}

/** A name sent as one path segment (tag, branch): never empty, encoded later. */
export function nameParam(what: string, help: string): PathParam {
  return { help, parse: requiredTextParser(what) };
}

export function idDigits(name: string, value: string): string {
  const trimmed = value.trim();
  if (!/^\d+$/.test(trimmed) || /^0+$/.test(trimmed)) throw new UsageError(`invalid ${name} '${value}': expected a positive whole number`);
  return trimmed.replace(/^0+/, '');
}

/** A group by id or full path, as the id the service takes. */
export async function groupId(http: HttpClient, group: unknown): Promise<string | number> {
  const text = String(group).trim();
  return /^\d+$/.test(text) ? text : (await getGroup(http, text)).id;
}
