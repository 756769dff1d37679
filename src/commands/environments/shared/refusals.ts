import { getRecord } from '../../../api/resource.js';
import type { CommandSpec } from '../../../cli/spec.js';
import { ExitCode, SvcError } from '../../../errors.js';
import { ApiError } from '../../../http/api-error.js';
import { apiPath } from '../../../http/encode.js';
import { environmentId } from './resolve.js';
import { answerText } from '../../shared/answer-text.js';

type Context = Parameters<CommandSpec['run']>[0];

/** The verb, with each error its run throws given to `translate`, which throws what to say instead (or the error). */
function translatingErrors(spec: CommandSpec, translate: (error: unknown, ctx: Context, args: string[]) => Promise<never>): CommandSpec {
  return {
    ...spec,
    run: async (ctx, args, opts) => {
      try {
        await spec.run(ctx, args, opts);
      } catch (error) {
        await translate(error, ctx, args as string[]);
      }
    },
  };
}

/**
 * The service answers an unknown environment id with a bare `404 Not found`; name what is missing
 * (an unknown project keeps the service's own `404 Project Not Found`).
 */
export function namingMissingEnvironment(spec: CommandSpec): CommandSpec {
  return translatingErrors(spec, async (error, _ctx, [project, typed]) => {
    if (!(error instanceof ApiError) || error.status !== 404 || /project not found/i.test(error.message)) throw error;
    throw new SvcError(`no environment ${typed} in project ${project}`, ExitCode.notFound);
  });
}

/**
 * The service refuses to delete an environment that is not stopped with a bare 403, as it refuses a
 * missing role: the environment's state tells the two apart.
 */
export function explainingDeleteRefusal(spec: CommandSpec): CommandSpec {
  return translatingErrors(spec, async (error, ctx, [project, typed]) => {
    if (!(error instanceof ApiError) || error.status !== 403) throw error;
    const http = await ctx.http();
    const env = await environmentId(http, project as string, typed as string)
      .then((id) => getRecord<{ name: string; state: string }>(http, apiPath`/projects/${project as string}/environments/${id}`))
      .catch(() => undefined);
    if (!env || env.state === 'stopped') throw error;
    throw new SvcError(
      `environment ${env.name} of project ${project} is ${env.state}: the service deletes only stopped environments ` +
        `(svc environments stop ${project} ${env.name} first)`,
      ExitCode.forbidden,
    );
  });
}

/** What a stop said: the service answers a stop it does not allow with the environment unchanged. */
export function stopOutcome(args: unknown[], record: Record<string, unknown>): string {
  const called = `environment ${answerText(record.name) ?? String(args[1])} of project ${String(args[0])}`;
  if (record.state === 'available') {
    throw new SvcError(`the service left ${called} available: stopping it needs the developer role`, ExitCode.forbidden);
  }
  return `${record.state === 'stopping' ? 'stopping' : 'stopped'} ${called}`;
}
