import type { HttpClient, Page } from '../http/client.js';
import { apiPath } from '../http/encode.js';
import type { Namespace } from './types.js';

export function listNamespaces(http: HttpClient, query: { search?: string; perPage: number }): AsyncGenerator<Page<Namespace>> {
  return http.pages<Namespace>('/namespaces', { search: query.search, per_page: query.perPage });
}

/** A namespace by numeric id or full path (`group/subgroup`, or a username). */
export async function getNamespace(http: HttpClient, namespace: string | number): Promise<Namespace> {
  return await http.record<Namespace>({ path: apiPath`/namespaces/${namespace}` });
}
