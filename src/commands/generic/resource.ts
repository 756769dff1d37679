import type { OptionSpec, ArgSpec } from '../../cli/spec.js';
import { ApiError } from '../../http/api-error.js';
import { encodePathSegment, type QueryParams } from '../../http/encode.js';
import type { Context } from '../../context.js';
import type { HttpClient } from '../../http/client.js';
import type { Column, ColumnSpec } from '../../output/columns.js';
import type { Owners } from './owner.js';

export type TokenKind = 'private' | 'oauth' | 'job';

/** A path parameter: how it is typed, checked and explained. */
export interface PathParam {
  help: string;
  parse: (value: string) => string | number;
  /**
   * Turns the value into what the path takes, with a request if need be (a group's path into its id);
   * `earlier` holds the path's values before this one, as resolved (an environment's name is looked up in its project).
   */
  resolve?: (http: HttpClient, value: string | number, earlier: ReadonlyArray<string | number>) => Promise<string | number>;
  /** What a 404 most likely means when this value was given (an issue's id where its iid belongs). */
  notFoundHint?: (value: string | number, error: ApiError) => string | undefined;
}

/** What `update` takes: its fields, and whether it refuses to run with none of them (the service would change nothing). */
export interface UpdateFields {
  fields: OptionSpec[];
  /**
   * `true`: none of the fields given is refused with `give at least one of --a, --b (what to change)`.
   * The updates written by hand say `nothing to change: give --a, --b or --c`, which their users' scripts
   * may match, and leave out the fields that only choose what another one changes (`except`).
   */
  atLeastOne?: boolean | { say: 'nothing to change'; except?: string[] };
}

/**
 * A resource of the service, declared once: where it lives and who owns it, how one record is named,
 * what a listing and a record show by default, what create and update take, the role each verb
 * needs, whether delete asks first, and which token kinds the service accepts for it.
 */
export interface Resource {
  /**
   * Collection path under /api/v4 with `:name` parameters: `/projects/:project/repository/tags`.
   * A resource only a project has starts with `/projects/:project` (PROJECT, positional); one that
   * a group or the instance can have too declares `owners`, and its path starts after the owner.
   */
  path: string;
  owners?: Owners;
  /** The parameter that names one record; its path is the collection's plus `/:id`. */
  id?: string;
  params: Record<string, PathParam>;
  columns?: ColumnSpec[];
  /** What one record shows by default; a field the listing declares a column for is shown as the listing shows it. */
  fields?: ColumnSpec[];
  /** Token kinds the service accepts here beyond personal, project, group and OAuth tokens (said in the help). */
  tokens?: TokenKind[];
  /** One record as svc speaks of it, from the arguments: `tag v1.0 of project acme/api`. */
  called?: (args: unknown[]) => string;
  /** The options of `create`: the service's key, type (parse), required and choices. */
  create?: OptionSpec[];
  update?: UpdateFields;
  /** The least role each verb needs, named when the service refuses (403): `{ delete: 'owner' }`. */
  roles?: Partial<Record<string, string>>;
  /** Delete asks first on a terminal, and takes `--yes` to skip the question. */
  confirmDelete?: boolean;
  /** A record as svc shows it, where the service answers a secret svc must not print (a webhook's url credentials). */
  shown?: (record: Record<string, unknown>) => Record<string, unknown>;
}

/** The record as the resource shows it (the service's answer unless it declares `shown`). */
export function shownRecord<R>(resource: Resource, record: R): R {
  if (!resource.shown || record === null || typeof record !== 'object' || Array.isArray(record)) return record;
  return resource.shown(record as Record<string, unknown>) as R;
}

/**
 * A record's fields, each shown on a table and TSV as the listing shows that column (`30` → `developer`), so
 * what get and a write print matches what list prints; JSON keeps the service's values.
 */
export function recordColumns(resource: Resource, fields: readonly ColumnSpec[]): ColumnSpec[] {
  const declared = (resource.columns ?? []).filter((column): column is Column => typeof column !== 'string');
  return fields.map((field) => (typeof field === 'string' ? (declared.find((column) => column.field === field) ?? field) : field));
}

export function calledOf(resource: Resource, args: unknown[]): string {
  if (!resource.called) throw new Error(`resource ${resource.path} declares no way to name a record`);
  return resource.called(args);
}

export function itemPath(resource: Resource): string {
  if (!resource.id) throw new Error(`resource ${resource.path} declares no id`);
  return `${resource.path}/:${resource.id}`;
}

const PARAM = /:([a-z_]+)/g;

/** The `:name` parameters of a path, in order: they are the command's positional arguments. */
export function pathParamNames(template: string): string[] {
  return [...template.matchAll(PARAM)].map((m) => m[1] as string);
}

export function pathArgs(resource: Resource, template: string): ArgSpec[] {
  return pathParamNames(template).map((name) => {
    const param = resource.params[name];
    if (!param) throw new Error(`path ${template}: no declaration for :${name}`);
    return { name: name.replace(/_/g, '-'), help: param.help, parse: param.parse };
  });
}

/** Fills a template with the arguments (resolved where a parameter says how), each encoded as one path segment. */
export async function fillPath(ctx: Context, resource: Resource, template: string, args: unknown[]): Promise<string> {
  const names = pathParamNames(template);
  const values: Array<string | number> = [];
  for (const [i, name] of names.entries()) {
    const resolve = resource.params[name]?.resolve;
    const value = args[i] as string | number;
    values.push(resolve ? await resolve(await ctx.http(), value, [...values]) : value);
  }
  let index = 0;
  return template.replace(PARAM, () => encodePathSegment(values[index++] as string | number));
}

/** The service parameters carried by options that declare a `key`, resolved where they need a lookup. */
export async function serviceParams(ctx: Context, options: OptionSpec[], opts: Record<string, unknown>): Promise<QueryParams> {
  const params: QueryParams = {};
  for (const option of options) {
    if (!option.key) continue;
    let value = opts[attributeName(option.flags)];
    if (value === undefined) continue;
    if (option.resolve) value = await option.resolve(await ctx.http(), value);
    params[option.key] = value as QueryParams[string];
  }
  return params;
}

/** commander's property name for an option: `--order-by <f>` → `orderBy`, `--no-verify` → `verify`. */
export function attributeName(flags: string): string {
  const long = flags.split(/[ ,|]+/).find((w) => w.startsWith('--')) ?? '';
  return long.replace(/^--(no-)?/, '').replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
}

/** Re-throws a 404 with the hint of the path parameter most likely to be wrong. */
export async function withHints<T>(resource: Resource, template: string, args: unknown[], call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const hint = notFoundHint(resource, template, args, error);
    if (hint) throw new ApiError(error.status, error.body, `${error.message} (${hint})`, error.exitCode);
    throw error;
  }
}

function notFoundHint(resource: Resource, template: string, args: unknown[], error: ApiError): string | undefined {
  if (error.status !== 404) return undefined;
  const names = pathParamNames(template);
  for (let i = names.length - 1; i >= 0; i--) {
    const hint = resource.params[names[i] as string]?.notFoundHint?.(args[i] as string | number, error);
    if (hint) return hint;
  }
  return undefined;
}

/** Help shown after the options: the verb's own notes, and whether a CI job token will do. */
export function helpNotes(resource: Resource, notes: string | undefined): string | undefined {
  const job = resource.tokens?.includes('job') ? 'A CI job token (CI_JOB_TOKEN) is accepted.' : undefined;
  return [notes, job].filter(Boolean).join('\n\n') || undefined;
}
