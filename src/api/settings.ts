import type { HttpClient } from '../http/client.js';

export interface ApplicationSettings {
  repository_storages_weighted?: Record<string, number>;
  repository_storages?: string[];
  [key: string]: unknown;
}

export async function getApplicationSettings(http: HttpClient): Promise<ApplicationSettings> {
  return await http.record<ApplicationSettings>({ path: '/application/settings' });
}

/** Merges the given weights into `repository_storages_weighted`; storages not named keep theirs. */
export async function updateStorageWeights(http: HttpClient, weights: Record<string, number>): Promise<ApplicationSettings> {
  return http.record<ApplicationSettings>({
    method: 'PUT',
    path: '/application/settings',
    json: { repository_storages_weighted: weights },
  });
}

/** Changes the given settings; the answer is every setting as it now is. */
export function updateApplicationSettings(http: HttpClient, body: Record<string, unknown>): Promise<ApplicationSettings> {
  return http.record<ApplicationSettings>({ method: 'PUT', path: '/application/settings', json: body });
}
