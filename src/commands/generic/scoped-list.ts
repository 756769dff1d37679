import type { CommandSpec, OptionSpec } from '../../cli/spec.js';
import { listRecords } from '../../api/resource.js';
import { UsageError } from '../../errors.js';
import { apiPath, type QueryParams } from '../../http/encode.js';
import { LIST_OPTIONS, outputList, perPageFor, type ListFlags } from '../shared/list.js';
import { PROJECT_ARGUMENT, projectRef, requiredTextParser } from '../shared/args.js';
import { serviceParams } from './resource.js';

export interface ScopedListVerb {
  description: string;
  examples: string[];
  notes?: string;
  /** The collection's path under each scope: `/issues` is `/projects/:id/issues`, `/groups/:id/issues` and `/issues`. */
  collection: string;
  /** What is listed, for the usage message: `issues`. */
  noun: string;
  filters: OptionSpec[];
  /** Query parameters that depend on more than one option's key (a user given by name or by id). */
  params?: (opts: Record<string, unknown>) => QueryParams;
  /** Query parameters sent with --instance (the instance-wide list has defaults of its own). */
  instanceQuery?: (opts: Record<string, unknown>) => QueryParams;
  /** Default columns; a listing over several projects has to say which project a record is in. */
  columns: (scope: 'project' | 'group' | 'instance') => string[];
}

interface ScopeFlags {
  group?: string;
  instance?: boolean;
}

/** One listing over a project, a group (with its subgroups) or the whole instance: `PROJECT | --group G | --instance`. */
export function scopedListVerb(verb: ScopedListVerb): CommandSpec<Record<string, unknown> & ListFlags & ScopeFlags> {
  return {
    name: 'list',
    description: verb.description,
    args: [{ name: 'project', help: `${PROJECT_ARGUMENT}; or give --group or --instance`, parse: projectRef, optional: true }],
    options: [
      {
        flags: '--group <group>',
        help: `${verb.noun} of every project in a group and its subgroups (id or full path)`,
        parse: requiredTextParser('--group'),
      },
      { flags: '--instance', help: `${verb.noun} of every project you can see on the instance` },
      ...verb.filters,
      ...LIST_OPTIONS,
    ],
    examples: verb.examples,
    notes: verb.notes,
    async run(ctx, [project], opts) {
      const given = [project !== undefined, opts.group !== undefined, opts.instance === true].filter(Boolean).length;
      if (given !== 1) throw new UsageError(`give one of: a project, --group GROUP or --instance (which ${verb.noun} to list)`);
      const scope = project !== undefined ? 'project' : opts.group !== undefined ? 'group' : 'instance';
      const path =
        scope === 'project'
          ? apiPath`/projects/${project as string}` + verb.collection
          : scope === 'group'
            ? apiPath`/groups/${opts.group as string}` + verb.collection
            : verb.collection;
      const query: QueryParams = {
        ...(scope === 'instance' ? verb.instanceQuery?.(opts) : {}),
        ...(await serviceParams(ctx, verb.filters, opts)),
        ...verb.params?.(opts),
        per_page: perPageFor(opts),
      };
      const http = await ctx.http();
      await outputList(ctx, listRecords<unknown>(http, path, query), opts, verb.columns(scope), verb.noun);
    },
  };
}
