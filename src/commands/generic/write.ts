import type { ColumnSpec } from '../../output/columns.js';
import type { ArgSpec, CommandSpec, OptionSpec } from '../../cli/spec.js';
import { sendRequest, writeRecordTo } from '../../api/resource.js';
import { UsageError } from '../../errors.js';
import type { Context } from '../../context.js';
import type { QueryParams } from '../../http/encode.js';
import { confirmDestructive, YES_OPTION } from '../shared/confirm.js';
import { reportWriteOutcome, writeResult } from '../shared/outcome.js';
import {
  attributeName,
  calledOf,
  fillPath,
  helpNotes,
  itemPath,
  pathArgs,
  recordColumns,
  serviceParams,
  shownRecord,
  withHints,
  type Resource,
  type UpdateFields,
} from './resource.js';
import { ownerOptions, ownerPath } from './owner.js';
import { roleFor, withRole } from './role.js';

/** What a write knows once the service answered, for the line it says on stderr. */
export interface Said<R> {
  args: unknown[];
  /** The parameters as sent. */
  params: QueryParams;
  /** The options as typed. */
  opts: Record<string, unknown>;
  /** The service's answer: the record, or with `answer: 'status'` whatever body came (none for a 204). */
  record: R;
}

export interface WriteVerb<R = Record<string, unknown>> {
  /** `create`, `update`, `delete`, or an action's own name (`close`, `retry`, `archive`). */
  name: string;
  description: string;
  examples: string[];
  notes?: string;
  /** POST unless said: PUT for update, DELETE for delete. */
  method?: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The collection for create, the record otherwise, unless said (`/projects/:project/archive`). */
  path?: string;
  /** An action's own options; create and update take the declaration's fields. */
  body?: OptionSpec[];
  /** A fixed body that makes the change: `{ state_event: 'close' }`. */
  fixed?: QueryParams;
  /**
   * Parameters from options that stand for several of the service's (`--on push,issues`) or that are read
   * before the request (a key from a file or stdin); may refuse them (UsageError).
   */
  derived?: (opts: Record<string, unknown>, ctx: Context) => QueryParams | Promise<QueryParams>;
  /** For create: the body key of the new record's name, typed as the last argument (`tags create PROJECT NAME`). */
  nameKey?: string;
  /**
   * `record`: the answer must be one record, printed (the default but for delete). `status`: the status is the
   * outcome (202 is said as scheduled), and a body, if any, is printed.
   */
  answer?: 'record' | 'status';
  /** Said on stderr once done. Delete says `deleted <record>` and update `updated <record>: <keys>` unless told. */
  done?: (said: Said<R>) => string;
  /** Said for a 202: accepted, carried out later. */
  scheduled?: (args: unknown[]) => string;
  /** The fields printed, when not the resource's. */
  fields?: ColumnSpec[];
}

const DEFAULT_METHOD: Record<string, 'PUT' | 'DELETE'> = { update: 'PUT', delete: 'DELETE' };

/**
 * The one generator of writes (create, update, delete and plain actions), reading what the
 * declaration says: the fields, the role named on a 403, whether delete asks first.
 */
export function writeVerb<R = Record<string, unknown>>(resource: Resource, verb: WriteVerb<R>): CommandSpec {
  const method = verb.method ?? DEFAULT_METHOD[verb.name] ?? 'POST';
  const path = verb.path ?? (verb.name === 'create' ? resource.path : itemPath(resource));
  const body = [...fieldsOf(resource, verb.name), ...(verb.body ?? [])];
  const owner = ownerOptions(resource.owners);
  const asks = verb.name === 'delete' && resource.confirmDelete === true;
  const answer = verb.answer ?? (method === 'DELETE' ? 'status' : 'record');
  const done = verb.done ?? defaultDone(resource, verb.name);
  const declaredRole = resource.roles?.[verb.name];
  if (answer === 'status' && !done) throw new Error(`${verb.name} on ${resource.path}: a status answer needs a line to say`);
  return {
    name: verb.name,
    description: verb.description,
    args: [...pathArgs(resource, path), ...nameArg(resource, verb.nameKey)],
    options: [...owner, ...body, ...(asks ? [YES_OPTION] : [])],
    examples: verb.examples,
    notes: helpNotes(resource, verb.notes),
    async run(ctx, args, opts) {
      if (verb.name === 'update') refuseEmptyUpdate(resource.update, opts);
      const http = await ctx.http({ requireToken: true });
      const named = verb.nameKey ? { [verb.nameKey]: args[args.length - 1] as string } : {};
      const params = { ...named, ...verb.fixed, ...(await verb.derived?.(opts, ctx)), ...(await serviceParams(ctx, body, opts)) };
      if (asks) await confirmDestructive(ctx, opts.yes as boolean | undefined, `Delete ${calledOf(resource, args)}`);
      const pathArgsGiven = verb.nameKey ? args.slice(0, -1) : args;
      const fields = recordColumns(resource, verb.fields ?? resource.fields ?? []);
      const filled = async () => ownerPath(resource.owners, opts) + (await fillPath(ctx, resource, path, pathArgsGiven));
      const role = roleFor(declaredRole, opts);
      const request = <T>(call: () => Promise<T>) => (role ? withRole(role, call) : call());
      const hinted = <T>(call: () => Promise<T>) => request(() => withHints(resource, path, pathArgsGiven, call));
      if (method !== 'DELETE' && answer === 'record') {
        const record = shownRecord(resource, await hinted(async () => writeRecordTo<R>(http, method, await filled(), params)));
        if (done) ctx.info(done({ args, params, opts, record }));
        await writeResult(ctx, record, fields);
        return;
      }
      const res = await hinted(async () => sendRequest(http, method, await filled(), params));
      const said = (done as (said: Said<R>) => string)({ args, params, opts, record: res.data as R });
      reportWriteOutcome(ctx, res.status, said, verb.scheduled?.(args) ?? said);
      // A 200 with an empty body (as a 204 has none) is done too, with nothing to print: printed, it was a
      // blank row, the text `undefined` in NDJSON, or a crash of -o json.
      if (res.status !== 202 && res.status !== 204 && res.data !== undefined)
        await writeResult(ctx, shownRecord(resource, res.data), fields);
    },
  };
}

function fieldsOf(resource: Resource, verb: string): OptionSpec[] {
  if (verb === 'create') return resource.create ?? [];
  if (verb === 'update') return resource.update?.fields ?? [];
  return [];
}

function defaultDone<R>(resource: Resource, verb: string): ((said: Said<R>) => string) | undefined {
  if (verb === 'delete') return ({ args }) => `deleted ${calledOf(resource, args)}`;
  if (verb === 'update') return ({ args, params }) => `updated ${calledOf(resource, args)}: ${Object.keys(params).join(', ')}`;
  return undefined;
}

/** The new record's name, typed after the owner: the resource's id parameter. */
function nameArg(resource: Resource, nameKey: string | undefined): ArgSpec[] {
  if (!nameKey) return [];
  const param = resource.id ? resource.params[resource.id] : undefined;
  if (!resource.id || !param) throw new Error(`resource ${resource.path} declares no id to name a new record`);
  return [{ name: resource.id.replace(/_/g, '-'), help: param.help, parse: param.parse }];
}

/** The service takes an empty update and changes nothing: refused here, as a slip (`--no-admin` counts as `--admin`). */
export function requireOneField(fields: OptionSpec[], opts: Record<string, unknown>): void {
  if (fields.some((option) => opts[attributeName(option.flags)] !== undefined)) return;
  throw new UsageError(`give at least one of ${changeFlags(fields).join(', ')} (what to change)`);
}

/** An update's "at least one of" rule, as its declaration says (`update.atLeastOne`); before any request. */
export function refuseEmptyUpdate(update: UpdateFields | undefined, opts: Record<string, unknown>): void {
  const rule = update?.atLeastOne;
  if (!rule) return;
  if (rule === true) return requireOneField(update.fields, opts);
  const fields = update.fields.filter((option) => !rule.except?.includes(longFlag(option)));
  if (fields.some((option) => opts[attributeName(option.flags)] !== undefined)) return;
  const flags = changeFlags(fields);
  throw new UsageError(`nothing to change: give ${flags.length > 1 ? `${flags.slice(0, -1).join(', ')} or ${flags.at(-1)}` : flags[0]}`);
}

const longFlag = (option: OptionSpec) => option.flags.split(/[ ,|]+/).find((w) => w.startsWith('--')) ?? '';

const changeFlags = (fields: OptionSpec[]) => [...new Set(fields.map((option) => longFlag(option).replace(/^--no-/, '--')))];
