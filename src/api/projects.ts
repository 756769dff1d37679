import type { HttpClient, Page } from '../http/client.js';
import { apiPath, type QueryParams } from '../http/encode.js';
import type { Project } from './types.js';

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
  if (query.keyset) {
    Object.assign(params, { pagination: 'keyset', order_by: 'id', sort: query.sort ?? 'asc' });
  } else {
    Object.assign(params, { order_by: query.orderBy, sort: query.sort });
  }
  const byIdAscending = (query.keyset || query.orderBy === 'id') && (query.sort ?? 'asc') === 'asc';
  return http.pages<Project>('/projects', params, {
    keysetFallback: byIdAscending
      ? (last) => ({
          path: '/projects',
          query: { ...params, pagination: 'keyset', order_by: 'id', sort: 'asc', id_after: last.id, page: undefined },
        })
      : undefined,
  });
}

export async function getProject(http: HttpClient, project: string | number): Promise<Project> {
  return (await http.request<Project>({ path: apiPath`/projects/${project}` })).data;
}
