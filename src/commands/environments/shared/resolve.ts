import { listRecords } from '../../../api/resource.js';
import type { CommandSpec } from '../../../cli/spec.js';
import type { Context } from '../../../context.js';
import { ExitCode, SvcError } from '../../../errors.js';
import { apiPath } from '../../../http/encode.js';

/** An environment is typed by id or by name; a name is looked up with the list's `name=` filter. */
export async function environmentId(ctx: Context, project: string, env: string): Promise<string> {
  if (/^\d+$/.test(env)) return env;
  const http = await ctx.http();
  const pages = listRecords<{ id: number; name: string }>(http, apiPath`/projects/${project}/environments`, { name: env, per_page: 2 });
  const first = await pages.next();
  const match = first.done ? undefined : first.value.items.find((e) => e.name === env);
  if (!match) throw new SvcError(`no environment named ${env} in project ${project}`, ExitCode.notFound);
  return String(match.id);
}

/** The verb with its ENV argument turned into the environment's id first. */
export function byNameOrId(spec: CommandSpec): CommandSpec {
  return {
    ...spec,
    run: async (ctx, args, opts) => {
      const [project, env, ...rest] = args as string[];
      const id = await environmentId(ctx, project as string, env as string);
      return spec.run(ctx, [project, id, ...rest], opts);
    },
  };
}
