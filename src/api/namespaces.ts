import type { HttpClient } from '../http/client.js';
import { apiPath } from '../http/encode.js';
import type { Namespace } from './types.js';

/** A namespace by numeric id or full path (`group/subgroup`, or a username). */
export async function getNamespace(http: HttpClient, namespace: string | number): Promise<Namespace> {
  return await http.record<Namespace>({ path: apiPath`/namespaces/${namespace}` });
}
