import type { CommandSpec } from '../../cli/spec.js';
import { writeRecordTo } from '../../api/resource.js';
import type { QueryParams } from '../../http/encode.js';
import { fillPath, helpNotes, itemPath, pathArgs, withHints, type Resource } from './resource.js';
import { writeResult } from '../shared/outcome.js';

export interface TransitionVerb {
  name: string;
  description: string;
  examples: string[];
  notes?: string;
  /** The fixed body that makes the change: `{ state_event: 'close' }`. */
  body: QueryParams;
  /** What is said on stderr once it is done, from the arguments and the record. */
  done: (args: unknown[], record: Record<string, unknown>) => string;
}

/** A PUT on one record with a fixed body (close, reopen): the changed record is printed. */
export function transitionVerb(resource: Resource, verb: TransitionVerb): CommandSpec {
  const path = itemPath(resource);
  return {
    name: verb.name,
    description: verb.description,
    args: pathArgs(resource, path),
    examples: verb.examples,
    notes: helpNotes(resource, verb.notes),
    async run(ctx, args) {
      const http = await ctx.http({ requireToken: true });
      const record = await withHints(resource, path, args, async () =>
        writeRecordTo<Record<string, unknown>>(http, 'PUT', await fillPath(ctx, resource, path, args), verb.body),
      );
      ctx.info(verb.done(args, record));
      await writeResult(ctx, record, resource.fields ?? []);
    },
  };
}
