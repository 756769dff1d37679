import type { HttpClient } from '../http/client.js';
import { apiPath } from '../http/encode.js';

export interface Release {
  tag_name: string;
  name: string;
  description: string;
  released_at: string;
  upcoming_release: boolean;
  _links?: { self?: string };
}

export interface ReleaseLinkInput {
  name: string;
  url: string;
}

/** Attributes of a create or update: the service's names, sent in a JSON body. */
export interface ReleaseInput {
  tag_name?: string;
  ref?: string;
  name?: string;
  description?: string;
  /** Milestone titles; an empty list clears them on update. */
  milestones?: string[];
  assets?: { links: ReleaseLinkInput[] };
}

export async function getRelease(http: HttpClient, project: string, tag: string): Promise<Release> {
  return await http.record<Release>({ path: apiPath`/projects/${project}/releases/${tag}` });
}

/** The release with the latest `released_at`, through the permalink (a redirect to the release itself). */
export async function getLatestRelease(http: HttpClient, project: string): Promise<Release> {
  return await http.record<Release>({ path: apiPath`/projects/${project}/releases/permalink/latest` });
}

export async function createRelease(http: HttpClient, project: string, input: ReleaseInput): Promise<Release> {
  return await http.record<Release>({ method: 'POST', path: apiPath`/projects/${project}/releases`, json: input });
}

export async function updateRelease(http: HttpClient, project: string, tag: string, input: ReleaseInput): Promise<Release> {
  return await http.record<Release>({ method: 'PUT', path: apiPath`/projects/${project}/releases/${tag}`, json: input });
}

/** The service answers with the release it deleted; the tag stays. */
export async function deleteRelease(http: HttpClient, project: string, tag: string): Promise<Release> {
  return await http.record<Release>({ method: 'DELETE', path: apiPath`/projects/${project}/releases/${tag}` });
}
