import type { HttpClient, Page } from '../http/client.js';
import { apiPath } from '../http/encode.js';
import type { Release } from './types.js';

export function listReleases(http: HttpClient, project: string, query: { perPage: number }): AsyncGenerator<Page<Release>> {
  return http.pages<Release>(apiPath`/projects/${project}/releases`, { per_page: query.perPage });
}
