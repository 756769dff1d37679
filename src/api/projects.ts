import type { ApiResponse, HttpClient, Page } from '../http/client.js';
import { apiPath, type QueryParams } from '../http/encode.js';
import { fileMultipart, type MultipartFile } from './multipart.js';
import type { Project, ProjectImport } from './types.js';

export interface ListProjectsQuery {
  repositoryStorage?: string;
  search?: string;
  visibility?: string;
  orderBy?: string;
  sort?: 'asc' | 'desc';
  perPage: number;
  /** Keyset by id: constant cost per page at any depth, and no maximum offset. */
  keyset?: boolean;
}

export function listProjects(http: HttpClient, query: ListProjectsQuery): AsyncGenerator<Page<Project>> {
  const params: QueryParams = {
    repository_storage: query.repositoryStorage,
    search: query.search,
    visibility: query.visibility,
    per_page: query.perPage,
  };
  // The service lists newest first (created_at desc, which follows id); keyset keeps that order.
  const sort = query.sort ?? 'desc';
  if (query.keyset) {
    Object.assign(params, { pagination: 'keyset', order_by: 'id', sort });
  } else {
    Object.assign(params, { order_by: query.orderBy, sort: query.sort });
  }
  const byId = query.keyset || query.orderBy === 'id';
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

export interface CreateProjectInput {
  name: string;
  path?: string;
  namespaceId?: number;
  description?: string;
  visibility?: string;
}

export async function createProject(http: HttpClient, input: CreateProjectInput): Promise<Project> {
  return http.record<Project>({
    method: 'POST',
    path: '/projects',
    json: {
      name: input.name,
      path: input.path,
      namespace_id: input.namespaceId,
      description: input.description,
      visibility: input.visibility,
    },
  });
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

/** `DELETE /projects/:id/share/:group_id`; the status tells 204 (done) from 202 (scheduled). */
export async function unshareProject(http: HttpClient, project: string, groupId: number): Promise<ApiResponse<unknown>> {
  return http.request({ method: 'DELETE', path: apiPath`/projects/${project}/share/${groupId}`, responseType: 'none' });
}
