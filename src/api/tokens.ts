import type { HttpClient, Page } from '../http/client.js';
import { apiPath, type QueryParams } from '../http/encode.js';

/** Tokens as the service lists them; `token` (the secret) only in the answer to a create or a rotation. */
export interface AccessToken {
  id: number;
  name: string;
  revoked: boolean;
  active?: boolean;
  scopes: string[];
  user_id?: number;
  created_at?: string;
  expires_at: string | null;
  last_used_at?: string | null;
  access_level?: number;
  /** deploy tokens */
  username?: string;
  expired?: boolean;
  token?: string;
}

export type TokenKind = 'personal' | 'impersonation' | 'project' | 'group' | 'deploy';
export const TOKEN_KINDS: readonly TokenKind[] = ['personal', 'impersonation', 'project', 'group', 'deploy'];

/** Whose tokens: a user's (by id), or a project's or group's (id or full path). */
export type TokenOwner = { type: 'user'; id: number } | { type: 'project' | 'group'; id: string };

export interface TokenSet {
  owner: TokenOwner;
  kind: TokenKind;
}

/** Where a set of tokens is listed and created. */
export function tokenCollection({ owner, kind }: TokenSet): string {
  if (owner.type === 'user') return kind === 'impersonation' ? apiPath`/users/${owner.id}/impersonation_tokens` : '/personal_access_tokens';
  const base = owner.type === 'project' ? apiPath`/projects/${owner.id}` : apiPath`/groups/${owner.id}`;
  return `${base}/${kind === 'deploy' ? 'deploy_tokens' : 'access_tokens'}`;
}

/** One token of a set; `self` is the token making the request (personal tokens only). */
export function tokenPath(set: TokenSet, id: number | string): string {
  return set.kind === 'personal' ? `/personal_access_tokens/${id}` : `${tokenCollection(set)}/${id}`;
}

/** Personal tokens of a user are listed instance-wide, filtered by `user_id`; `state` is `active` for deploy tokens. */
export function listTokens(
  http: HttpClient,
  set: TokenSet,
  state: 'active' | 'inactive' | undefined,
  query: QueryParams,
): AsyncGenerator<Page<AccessToken>> {
  const params: QueryParams = { ...query };
  if (set.owner.type === 'user' && set.kind === 'personal') params.user_id = set.owner.id;
  if (state) {
    if (set.kind === 'deploy') params.active = state === 'active';
    else params.state = state;
  }
  return http.pages<AccessToken>(tokenCollection(set), params);
}

/** Admins create a user's personal or impersonation tokens; maintainers a project's, owners a group's. */
export function createToken(http: HttpClient, set: TokenSet, body: QueryParams): Promise<AccessToken> {
  const path =
    set.owner.type === 'user' && set.kind === 'personal' ? apiPath`/users/${set.owner.id}/personal_access_tokens` : tokenCollection(set);
  return http.record<AccessToken>({ method: 'POST', path, json: body });
}

export function getToken(http: HttpClient, set: TokenSet, id: number | string): Promise<AccessToken> {
  return http.record<AccessToken>({ path: tokenPath(set, id) });
}

export function rotateToken(http: HttpClient, set: TokenSet, id: number | string, expiresAt: string | undefined): Promise<AccessToken> {
  return http.record<AccessToken>({
    method: 'POST',
    path: `${tokenPath(set, id)}/rotate`,
    json: expiresAt === undefined ? undefined : { expires_at: expiresAt },
  });
}

export async function revokeToken(http: HttpClient, set: TokenSet, id: number | string): Promise<void> {
  await http.request({ method: 'DELETE', path: tokenPath(set, id) });
}
