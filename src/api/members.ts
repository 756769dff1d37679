import type { HttpClient } from '../http/client.js';
import { apiPath, type QueryParams } from '../http/encode.js';

export interface MemberSource {
  kind: 'projects' | 'groups';
  /** Numeric id or full path. */
  id: string;
}

export interface Member {
  id: number;
  username: string;
  name: string;
  access_level: number;
  expires_at: string | null;
}

function membersPath(source: MemberSource): string {
  return source.kind === 'projects' ? apiPath`/projects/${source.id}/members` : apiPath`/groups/${source.id}/members`;
}

/** One direct member (404 when the user is not one). */
export function getMember(http: HttpClient, source: MemberSource, userId: number): Promise<Member> {
  return http.record<Member>({ path: `${membersPath(source)}/${userId}` });
}

export function addMember(http: HttpClient, source: MemberSource, body: QueryParams): Promise<Member> {
  return http.record<Member>({ method: 'POST', path: membersPath(source), json: body });
}

/** The service requires `access_level` on every change, the current one when only the expiry changes. */
export function updateMember(http: HttpClient, source: MemberSource, userId: number, body: QueryParams): Promise<Member> {
  return http.record<Member>({ method: 'PUT', path: `${membersPath(source)}/${userId}`, json: body });
}

export async function removeMember(http: HttpClient, source: MemberSource, userId: number): Promise<void> {
  await http.request({ method: 'DELETE', path: `${membersPath(source)}/${userId}` });
}
