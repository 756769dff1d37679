import type { CommandSpec, OptionSpec } from '../../cli/spec.js';
import type { Context } from '../../context.js';
import { listRecords, getRecord } from '../../api/resource.js';
import type { HttpClient, Page } from '../../http/client.js';
import type { QueryParams } from '../../http/encode.js';
import type { ColumnSpec } from '../../output/columns.js';
import { LIST_OPTIONS, outputList, perPageFor, type ListFlags } from '../shared/list.js';
import { chosenOwner, gatheredListing, type OwnerKind, ownerOptions, ownerPath } from './owner.js';
import { namingRole } from './role.js';
import {
  attributeName,
  fillPath,
  helpNotes,
  itemPath,
  pathArgs,
  recordColumns,
  serviceParams,
  shownRecord,
  withHints,
  type Resource,
} from './resource.js';

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
  /** Fixed query parameters for one kind of owner (the instance-wide list has defaults of its own). */
  ownerQuery?: Partial<Record<OwnerKind, QueryParams>>;
  /** Query parameters that depend on more than one option's key (a user given by name or by id). */
  params?: (opts: Record<string, unknown>) => QueryParams;
  /**
   * Default columns; a function sees the first record (a column only administrators get) and the
   * owner (a listing over several projects has to say which project a record is in).
   */
  columns?: ColumnSpec[] | ((first: unknown, opts: Record<string, unknown>, owner: OwnerKind | undefined) => ColumnSpec[]);
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
  const name = verb.name ?? 'list';
  const owners = resource.owners;
  // A gathered resource's collection is listed by PROJECT, or for a group or the instance.
  const gathered = owners?.gathered && path === resource.path ? gatheredListing(owners, path) : undefined;
  const owner = (args: unknown[], opts: Record<string, unknown>) =>
    gathered ? { ...gathered.choose(args[0], opts), args: [] } : { ...chosenOwner(owners, opts), args };
  return namingRole(resource.roles?.[name], {
    name,
    description: verb.description,
    args: gathered?.args ?? pathArgs(resource, path),
    options: [
      ...(gathered?.options ?? ownerOptions(owners)),
      ...alternatives.map(({ flags, help }) => ({ flags, help })),
      ...filters,
      ...LIST_OPTIONS,
    ],
    examples: verb.examples,
    notes: helpNotes(resource, verb.notes),
    async run(ctx, given, opts) {
      const { kind, path: ownerPart, args } = owner(given, opts);
      const http = await ctx.http({ requireToken: verb.requireToken });
      const query = {
        ...verb.query,
        ...(kind ? verb.ownerQuery?.[kind] : undefined),
        ...(await serviceParams(ctx, filters, opts)),
        ...verb.params?.(opts),
        per_page: perPageFor(opts),
      };
      const filled = ownerPart + (await fillPath(ctx, resource, gathered?.path ?? chosenPath(opts), args));
      const pages = verb.pages ? verb.pages(http, filled, query, opts, ctx) : listRecords<unknown>(http, filled, query);
      const first = await withHints(resource, path, args, () => pages.next());
      const firstPage = first.done ? undefined : shownPage(resource, first.value);
      const sample = firstPage?.items[0];
      verb.check?.(sample, opts);
      const columns = typeof verb.columns === 'function' ? verb.columns(sample, opts, kind) : (verb.columns ?? resource.columns ?? []);
      // Once the service answered, so that a refusal stays one line.
      const note = verb.note?.(opts);
      if (note) ctx.info(note);
      await outputList(ctx, resumed(firstPage, shownPages(resource, pages)), opts, columns, verb.noun ?? listedNoun(path));
    },
  });
}

/** The last word of a collection's path, as a noun: `/projects/:project/merge_requests` → `merge requests`. */
function listedNoun(path: string): string {
  const word = path
    .split('/')
    .filter((segment) => segment !== '' && !segment.startsWith(':'))
    .pop();
  return word ? word.replace(/_/g, ' ') : 'records';
}

function shownPage<T>(resource: Resource, page: Page<T>): Page<T> {
  return resource.shown ? { ...page, items: page.items.map((item) => shownRecord(resource, item)) } : page;
}

async function* shownPages<T>(resource: Resource, pages: AsyncGenerator<Page<T>>): AsyncGenerator<Page<T>> {
  for await (const page of pages) yield shownPage(resource, page);
}

async function* resumed<T>(first: Page<T> | undefined, rest: AsyncGenerator<Page<T>>): AsyncGenerator<Page<T>> {
  if (!first) return;
  yield first;
  yield* rest;
}

export interface GetVerb extends VerbBase {
  query?: OptionSpec[];
  fields?: ColumnSpec[];
  /** Prints the record itself, for a record no default field list reads well (the instance's settings). */
  print?: (ctx: Context, record: unknown) => Promise<void>;
}

export function getVerb(resource: Resource, verb: GetVerb): CommandSpec {
  const path = verb.path ?? itemPath(resource);
  const queryOptions = verb.query ?? [];
  const name = verb.name ?? 'get';
  return namingRole(resource.roles?.[name], {
    name,
    description: verb.description,
    args: pathArgs(resource, path),
    options: [...ownerOptions(resource.owners), ...queryOptions],
    examples: verb.examples,
    notes: helpNotes(resource, verb.notes),
    async run(ctx, args, opts) {
      const http = await ctx.http({ requireToken: verb.requireToken });
      const query = await serviceParams(ctx, queryOptions, opts);
      const filled = async () => ownerPath(resource.owners, opts) + (await fillPath(ctx, resource, path, args));
      const record = await withHints(resource, path, args, async () => getRecord(http, await filled(), query));
      const shown = shownRecord(resource, record);
      if (verb.print) await verb.print(ctx, shown);
      else await ctx.printRecord(shown, recordColumns(resource, verb.fields ?? resource.fields ?? []));
    },
  });
}
