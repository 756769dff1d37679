import type { CommandSpec, OptionSpec } from '../../cli/spec.js';
import type { Context } from '../../context.js';
import { listRecords, getRecord, sendRequest, writeRecordTo } from '../../api/resource.js';
import type { HttpClient, Page } from '../../http/client.js';
import type { QueryParams } from '../../http/encode.js';
import type { ColumnSpec } from '../../output/columns.js';
import { LIST_OPTIONS, outputList, perPageFor, type ListFlags } from '../shared/list.js';
import { reportWriteOutcome, writeResult } from '../shared/outcome.js';
import { attributeName, fillPath, helpNotes, itemPath, pathArgs, serviceParams, withHints, type Resource } from './resource.js';

interface VerbBase {
  name?: string;
  description: string;
  examples: string[];
  /** The path when it is not the resource's own (collection for list/create, record otherwise). */
  path?: string;
  /** Refuse to run without a token, before any request. */
  requireToken?: boolean;
  notes?: string;
}

export interface ListVerb extends VerbBase {
  filters?: OptionSpec[];
  /** Flags that list another collection with the same columns (`--public`: `/snippets/public`). */
  alternatives?: Array<{ flags: string; help: string; path: string }>;
  /** Fixed query parameters (the service's defaults made explicit). */
  query?: QueryParams;
  /** Default columns; a function sees the first record (a column only administrators get). */
  columns?: ColumnSpec[] | ((first: unknown, opts: Record<string, unknown>) => ColumnSpec[]);
  /** Checks the first record before anything is printed. */
  check?: (first: unknown, opts: Record<string, unknown>) => void;
  /** What is listed, when the path's last word does not say it (`no tree entries match`). */
  noun?: string;
  /** A line for stderr before the records (an option whose meaning is changing). */
  note?: (opts: Record<string, unknown>) => string | undefined;
  /** How the pages are fetched, where the listing needs more than following links (keyset). */
  pages?: (
    http: HttpClient,
    path: string,
    query: QueryParams,
    opts: Record<string, unknown> & ListFlags,
    ctx: Context,
  ) => AsyncGenerator<Page<unknown>>;
}

export function listVerb(resource: Resource, verb: ListVerb): CommandSpec<Record<string, unknown> & ListFlags> {
  const path = verb.path ?? resource.path;
  const filters = verb.filters ?? [];
  const alternatives = verb.alternatives ?? [];
  const chosenPath = (opts: Record<string, unknown>) => alternatives.find((a) => opts[attributeName(a.flags)])?.path ?? path;
  return {
    name: verb.name ?? 'list',
    description: verb.description,
    args: pathArgs(resource, path),
    options: [...alternatives.map(({ flags, help }) => ({ flags, help })), ...filters, ...LIST_OPTIONS],
    examples: verb.examples,
    notes: helpNotes(resource, verb.notes),
    async run(ctx, args, opts) {
      const http = await ctx.http({ requireToken: verb.requireToken });
      const query = { ...verb.query, ...(await serviceParams(ctx, filters, opts)), per_page: perPageFor(opts) };
      const filled = await fillPath(ctx, resource, chosenPath(opts), args);
      const pages = verb.pages ? verb.pages(http, filled, query, opts, ctx) : listRecords<unknown>(http, filled, query);
      const first = await withHints(resource, path, args, () => pages.next());
      const firstPage = first.done ? undefined : first.value;
      const sample = firstPage?.items[0];
      verb.check?.(sample, opts);
      const columns = typeof verb.columns === 'function' ? verb.columns(sample, opts) : (verb.columns ?? resource.columns ?? []);
      // Once the service answered, so that a refusal stays one line.
      const note = verb.note?.(opts);
      if (note) ctx.info(note);
      await outputList(ctx, resumed(firstPage, pages), opts, columns, verb.noun ?? listedNoun(path));
    },
  };
}

/** The last word of a collection's path, as a noun: `/projects/:project/merge_requests` → `merge requests`. */
function listedNoun(path: string): string {
  const word = path
    .split('/')
    .filter((segment) => segment !== '' && !segment.startsWith(':'))
    .pop();
  return word ? word.replace(/_/g, ' ') : 'records';
}

async function* resumed<T>(first: Page<T> | undefined, rest: AsyncGenerator<Page<T>>): AsyncGenerator<Page<T>> {
  if (!first) return;
  yield first;
  yield* rest;
}

export interface GetVerb extends VerbBase {
  query?: OptionSpec[];
  fields?: string[];
}

export function getVerb(resource: Resource, verb: GetVerb): CommandSpec {
  const path = verb.path ?? itemPath(resource);
  const queryOptions = verb.query ?? [];
  return {
    name: verb.name ?? 'get',
    description: verb.description,
    args: pathArgs(resource, path),
    options: queryOptions,
    examples: verb.examples,
    notes: helpNotes(resource, verb.notes),
    async run(ctx, args, opts) {
      const http = await ctx.http({ requireToken: verb.requireToken });
      const query = await serviceParams(ctx, queryOptions, opts);
      const record = await withHints(resource, path, args, async () => getRecord(http, await fillPath(ctx, resource, path, args), query));
      await ctx.printRecord(record, verb.fields ?? resource.fields ?? []);
    },
  };
}

export interface WriteVerb extends VerbBase {
  body?: OptionSpec[];
  fields?: string[];
  /** What is said on stderr once it is done, from the arguments. */
  done?: (args: unknown[]) => string;
}

/** POST (create) or PUT (update): the options become the JSON body, the answer is printed as a record. */
export function writeVerb(resource: Resource, method: 'POST' | 'PUT', verb: WriteVerb): CommandSpec {
  const path = verb.path ?? (method === 'POST' ? resource.path : itemPath(resource));
  const body = verb.body ?? [];
  return {
    name: verb.name ?? (method === 'POST' ? 'create' : 'update'),
    description: verb.description,
    args: pathArgs(resource, path),
    options: body,
    examples: verb.examples,
    notes: helpNotes(resource, verb.notes),
    async run(ctx, args, opts) {
      const http = await ctx.http({ requireToken: true });
      const params = await serviceParams(ctx, body, opts);
      const record = await withHints(resource, path, args, async () =>
        writeRecordTo(http, method, await fillPath(ctx, resource, path, args), params),
      );
      if (verb.done) ctx.info(verb.done(args));
      await writeResult(ctx, record, verb.fields ?? resource.fields ?? []);
    },
  };
}

export interface ActionVerb extends VerbBase {
  name: string;
  method: 'POST' | 'PUT' | 'DELETE';
  body?: OptionSpec[];
  done: (args: unknown[]) => string;
  /** Said for a 202: accepted, carried out later. */
  scheduled: (args: unknown[]) => string;
}

/** A request whose status is the outcome (delete, unshare, archive): said on stderr, nothing on stdout. */
export function actionVerb(resource: Resource, verb: ActionVerb): CommandSpec {
  const path = verb.path ?? itemPath(resource);
  const body = verb.body ?? [];
  return {
    name: verb.name,
    description: verb.description,
    args: pathArgs(resource, path),
    options: body,
    examples: verb.examples,
    notes: helpNotes(resource, verb.notes),
    async run(ctx: Context, args, opts) {
      const http = await ctx.http({ requireToken: true });
      const params = await serviceParams(ctx, body, opts);
      const res = await withHints(resource, path, args, async () =>
        sendRequest(http, verb.method, await fillPath(ctx, resource, path, args), params),
      );
      reportWriteOutcome(ctx, res.status, verb.done(args), verb.scheduled(args));
    },
  };
}
