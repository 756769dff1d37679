import type { CommandSpec, OptionSpec } from '../../cli/spec.js';
import { writeRecordTo } from '../../api/resource.js';
import { fillPath, helpNotes, pathArgs, serviceParams, withHints, type Resource } from './resource.js';
import { withRole } from './record-write.js';
import { writeResult } from '../shared/outcome.js';

export interface NamedCreateVerb {
  description: string;
  examples: string[];
  notes?: string;
  /** The body key that carries the new record's name (the resource's id parameter, typed last). */
  nameKey: string;
  body?: OptionSpec[];
  /** The least role the service asks for: named when it refuses (403). */
  role: string;
  /** What was created, said on stderr, from the arguments and the record. */
  done: (args: unknown[], record: Record<string, unknown>) => string;
}

/**
 * A POST to a collection whose new record is named by the last positional argument (`branches
 * create PROJECT NAME --ref R`): the name goes into the body, the created record is printed.
 */
export function namedCreateVerb(resource: Resource, verb: NamedCreateVerb): CommandSpec {
  const body = verb.body ?? [];
  const nameParam = resource.id ? resource.params[resource.id] : undefined;
  if (!resource.id || !nameParam) throw new Error(`resource ${resource.path} declares no id to name a new record`);
  return {
    name: 'create',
    description: verb.description,
    args: [...pathArgs(resource, resource.path), { name: resource.id.replace(/_/g, '-'), help: nameParam.help, parse: nameParam.parse }],
    options: body,
    examples: verb.examples,
    notes: helpNotes(resource, verb.notes),
    async run(ctx, args, opts) {
      const http = await ctx.http({ requireToken: true });
      const params = { [verb.nameKey]: args[args.length - 1] as string, ...(await serviceParams(ctx, body, opts)) };
      const path = await fillPath(ctx, resource, resource.path, args.slice(0, -1));
      const record = await withRole(verb.role, () =>
        withHints(resource, resource.path, args, () => writeRecordTo<Record<string, unknown>>(http, 'POST', path, params)),
      );
      ctx.info(verb.done(args, record));
      await writeResult(ctx, record, resource.fields ?? []);
    },
  };
}
