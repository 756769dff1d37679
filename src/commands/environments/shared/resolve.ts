import { listRecords } from '../../../api/resource.js';
import { ExitCode, SvcError } from '../../../errors.js';
import { apiPath } from '../../../http/encode.js';
import type { HttpClient } from '../../../http/client.js';

/** An environment is typed by id or by name; a name is looked up with the list's `name=` filter. */
export async function environmentId(http: HttpClient, project: string, env: string): Promise<string> {
  if (/^\d+$/.test(env)) return env;
  const pages = listRecords<{ id: number; name: string }>(http, apiPath`/projects/${project}/environments`, { name: env, per_page: 2 });
  const first = await pages.next();
  const match = first.done ? undefined : first.value.items.find((e) => e.name === env);
  if (!match) throw new SvcError(`no environment named ${env} in project ${project}`, ExitCode.notFound);
  return String(match.id);
}
