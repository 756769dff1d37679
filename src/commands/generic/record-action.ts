import type { CommandSpec, OptionSpec } from '../../cli/spec.js';
import { writeRecordTo } from '../../api/resource.js';
import { fillPath, helpNotes, pathArgs, serviceParams, withHints, type Resource } from './resource.js';
import { writeResult } from '../shared/outcome.js';

export interface RecordAction<R> {
  name: string;
  description: string;
  /** The action's own path (`…/:pipeline_id/cancel`). */
  path: string;
  body?: OptionSpec[];
  /** Said on stderr, from the record the service returned. */
  outcome: (record: R) => string;
  examples: string[];
  notes?: string;
}

/** A POST that acts on a record (cancel, retry, play) and answers with it: said on stderr, the record on stdout. */
export function recordAction<R>(resource: Resource, action: RecordAction<R>): CommandSpec {
  const body = action.body ?? [];
  return {
    name: action.name,
    description: action.description,
    args: pathArgs(resource, action.path),
    options: body,
    examples: action.examples,
    notes: helpNotes(resource, action.notes),
    async run(ctx, args, opts) {
      const http = await ctx.http({ requireToken: true });
      const params = await serviceParams(ctx, body, opts);
      const record = await withHints(resource, action.path, args, async () =>
        writeRecordTo<R>(http, 'POST', await fillPath(ctx, resource, action.path, args), params),
      );
      ctx.info(action.outcome(record));
      await writeResult(ctx, record, resource.fields ?? []);
    },
  };
}
