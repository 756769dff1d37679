import type { HttpClient, Page } from '../http/client.js';
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

/** Direct members, or with `inherited` those through parent and invited groups too (`/members/all`). */
export function listMembers(http: HttpClient, source: MemberSource, inherited: boolean, query: QueryParams): AsyncGenerator<Page<Member>> {
  const base = source.kind === 'projects' ? apiPath`/projects/${source.id}/members` : apiPath`/groups/${source.id}/members`;
  return http.pages<Member>(inherited ? `${base}/all` : base, query);
}
