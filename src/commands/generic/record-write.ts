import type { CommandSpec, OptionSpec } from '../../cli/spec.js';
import { sendRequest } from '../../api/resource.js';
import { ApiError } from '../../http/api-error.js';
import type { QueryParams } from '../../http/encode.js';
import { confirmDestructive, YES_OPTION } from '../shared/confirm.js';
import { reportWriteOutcome, writeResult } from '../shared/outcome.js';
import { fillPath, helpNotes, itemPath, pathArgs, serviceParams, withHints, type Resource } from './resource.js';

export interface RecordWriteVerb {
  name: string;
  description: string;
  examples: string[];
  notes?: string;
  method: 'POST' | 'PUT' | 'DELETE';
  /** The path when it is not the resource's record. */
  path?: string;
  body?: OptionSpec[];
  /** The least role the service asks for: named when it refuses (403). */
  role: string;
  /** For destructive verbs: the question asked first (and `--yes` to skip it). */
  confirm?: (args: unknown[]) => string;
  /** What changed, said on stderr (from the options as typed, or the parameters as sent). */
  done: (args: unknown[], params: QueryParams, opts: Record<string, unknown>) => string;
  fields?: string[];
}

/** A write whose answer is the resulting record: what changed on stderr, the record on stdout (not with -q). */
export function recordWriteVerb(resource: Resource, verb: RecordWriteVerb): CommandSpec {
  const path = verb.path ?? itemPath(resource);
  const body = verb.body ?? [];
  return {
    name: verb.name,
    description: verb.description,
    args: pathArgs(resource, path),
    options: verb.confirm ? [...body, YES_OPTION] : body,
    examples: verb.examples,
    notes: helpNotes(resource, verb.notes),
    async run(ctx, args, opts) {
      const http = await ctx.http({ requireToken: true });
      const params = await serviceParams(ctx, body, opts);
      if (verb.confirm) await confirmDestructive(ctx, opts.yes as boolean | undefined, verb.confirm(args));
      const filled = await fillPath(ctx, resource, path, args);
      const res = await withRole(verb.role, () => withHints(resource, path, args, () => sendRequest(http, verb.method, filled, params)));
      const done = verb.done(args, params, opts);
      reportWriteOutcome(ctx, res.status, done, done);
      if (res.status !== 202 && res.status !== 204) await writeResult(ctx, res.data, verb.fields ?? resource.fields ?? []);
    },
  };
}

/** The record on stdout, unless -q asked for silence. */
/** A 403 names the role the service asks for, so the reader knows whom to ask. */
export async function withRole<T>(role: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    // A token without the scope is refused whatever the role; the error already says which scope.
    const scopeRefusal = (error as ApiError).body && ((error as ApiError).body as { error?: unknown }).error === 'insufficient_scope';
    if (error instanceof ApiError && error.status === 403 && !scopeRefusal) {
      throw new ApiError(403, error.body, `${error.message} (this needs the ${role} role or administrator access)`, error.exitCode);
    }
    throw error;
  }
}
