import { checkRecords } from '../../../api/records.js';
import { listRecords } from '../../../api/resource.js';
import { ExitCode, SvcError } from '../../../errors.js';
import { apiPath } from '../../../http/encode.js';
import type { HttpClient } from '../../../http/client.js';

/** An environment is typed by id or by name; a name is looked up with the list's `name=` filter. */
export async function environmentId(http: HttpClient, project: string, env: string): Promise<string> {
  if (/^\d+$/.test(env)) return env;
  const path = apiPath`/projects/${project}/environments`;
  const first = await listRecords<{ id: number; name: string }>(http, path, { name: env, per_page: 2 }).next();
  const listed = first.done ? [] : checkRecords(first.value.items, `GET ${path}`, { id: 'number', name: 'string' });
  const match = listed.find((e) => e.name === env);
  if (!match) throw new SvcError(`no environment named ${env} in project ${project}`, ExitCode.notFound);
  return String(match.id);
}
