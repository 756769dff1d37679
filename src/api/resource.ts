import type { ApiResponse, HttpClient, Page, PaginateOptions } from '../http/client.js';
import type { QueryParams } from '../http/encode.js';

/** Generic calls behind the declared resources: paths come already encoded (see `fillPath`). */
export function listRecords<T>(http: HttpClient, path: string, query: QueryParams, options?: PaginateOptions<T>): AsyncGenerator<Page<T>> {
  return http.pages<T>(path, query, options);
}

/** Every record of a listing, all pages read (100 a page). */
export async function listAllRecords<T>(http: HttpClient, path: string, query: QueryParams = {}): Promise<T[]> {
  const all: T[] = [];
  for await (const page of listRecords<T>(http, path, { ...query, per_page: 100 })) all.push(...page.items);
  return all;
}

export function getRecord<T>(http: HttpClient, path: string, query?: QueryParams): Promise<T> {
  return http.record<T>({ path, query });
}

/** POST or PUT with a JSON body; the answer is the record created or changed. */
export function writeRecordTo<T>(http: HttpClient, method: 'POST' | 'PUT' | 'PATCH', path: string, body: QueryParams): Promise<T> {
  return http.record<T>({ method, path, json: body });
}

/** A request whose status is the outcome (204 done, 202 scheduled), with any body it carries. */
export function sendRequest(http: HttpClient, method: string, path: string, body?: QueryParams): Promise<ApiResponse<unknown>> {
  const hasBody = body !== undefined && Object.keys(body).length > 0;
  return http.request({ method, path, json: hasBody ? body : undefined });
}
