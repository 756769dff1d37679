import type { ApiResponse, HttpClient, Page } from '../http/client.js';
import { apiPath, type QueryParams } from '../http/encode.js';
import { fileMultipart, type MultipartFile } from './multipart.js';
import type { Project, ProjectImport } from './types.js';

/**
 * `GET /projects` with the service's own parameters. With `keyset`, pages by keyset on id (constant
 * cost per page at any depth, no maximum offset); by id otherwise, an offset listing that meets the
 * maximum offset continues by keyset from its last record.
 */
export function listProjects(http: HttpClient, query: QueryParams, keyset = false): AsyncGenerator<Page<Project>> {
  // The service lists newest first (created_at desc, which follows id); keyset keeps that order.
  const sort = (query.sort as string | undefined) ?? 'desc';
  const params: QueryParams = keyset ? { ...query, pagination: 'keyset', order_by: 'id', sort } : query;
  const byId = keyset || query.order_by === 'id';
  return http.pages<Project>('/projects', params, {
    keysetFallback: byId
      ? (last) => ({
          path: '/projects',
          query: {
            ...params,
            pagination: 'keyset',
            order_by: 'id',
            sort,
            [sort === 'asc' ? 'id_after' : 'id_before']: last.id,
            page: undefined,
          },
        })
      : undefined,
  });
}

export async function getProject(http: HttpClient, project: string | number): Promise<Project> {
  return await http.record<Project>({ path: apiPath`/projects/${project}` });
}

export interface ImportProjectInput {
  path: string;
  /** Id or full path of the namespace; the service takes either in this form field. */
  namespace?: string;
  name?: string;
  overrides: Record<string, string>;
  archive: Omit<MultipartFile, 'field'>;
  onArchiveBytes?: (bytes: number) => void;
}

/** `POST /projects/import` as multipart, the archive streamed from disk. */
export async function importProject(http: HttpClient, input: ImportProjectInput): Promise<ProjectImport> {
  const fields: Array<[string, string]> = [['path', input.path]];
  if (input.namespace !== undefined) fields.push(['namespace', input.namespace]);
  if (input.name !== undefined) fields.push(['name', input.name]);
  for (const [key, value] of Object.entries(input.overrides)) fields.push([`override_params[${key}]`, value]);
  const body = fileMultipart(fields, { ...input.archive, field: 'file' }, input.onArchiveBytes);
  return await http.record<ProjectImport>({ method: 'POST', path: '/projects/import', body });
}

export async function getProjectImport(http: HttpClient, project: string | number): Promise<ProjectImport> {
  return await http.record<ProjectImport>({ path: apiPath`/projects/${project}/import` });
}

/**
 * `DELETE /projects/:id`: 202 when accepted. With `fullPath`, the second step of a delayed
 * deletion, which the service performs only for a project already marked, named by its current path.
 */
export function deleteProject(http: HttpClient, project: string | number, fullPath?: string): Promise<ApiResponse<unknown>> {
  const query: QueryParams | undefined = fullPath === undefined ? undefined : { permanently_remove: true, full_path: fullPath };
  return http.request({ method: 'DELETE', path: apiPath`/projects/${project}`, query });
}

/** A project as its lifecycle shows it: archived, or marked for deletion on a date. */
export interface ProjectState extends Project {
  archived?: boolean;
  marked_for_deletion_on?: string | null;
}
