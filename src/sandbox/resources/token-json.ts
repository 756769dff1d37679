// What the token routes share: the store of the sandbox, the entities (reference endpoints §11),
// the list filters of `access_token_params`, and `expires_at` as the service parses it.
import { groupRole, OWNER, projectRole } from '../access.js';
import type { Ctx } from '../server/context.js';
import type { Core } from '../server/core.js';
import { ApiError, E } from '../server/errors.js';
import { boolParam, enumParam, listParam, strParam, timeParam } from '../server/params.js';
import { offsetPage } from '../server/paging.js';
import { sendJson, sendList } from '../server/respond.js';
import { isoDay, TokenStore } from '../store/access-tokens.js';
import type { AccessTokenRec, GroupRec, ProjectRec } from '../store/records.js';
import { iso } from '../util/time.js';

/** The caller's role in a project or a group; administrators count as owners. */
export function projectLevel(ctx: Ctx, p: ProjectRec): number {
  return ctx.user!.isAdmin ? OWNER : projectRole(ctx.world, ctx.user, p);
}

export function groupLevel(ctx: Ctx, g: GroupRec): number {
  return ctx.user!.isAdmin ? OWNER : groupRole(ctx.world, ctx.user!.id, g);
}

const stores = new WeakMap<Core, TokenStore>();

export function tokenStore(ctx: Ctx): TokenStore {
  let s = stores.get(ctx.core);
  if (!s) {
    s = new TokenStore(ctx.world, ctx.core.tokens);
    stores.set(ctx.core, s);
  }
  return s;
}

export function today(): string {
  return isoDay(Date.now());
}

/** Expired on its expiry day, as the service compares the date with the current time. */
export function isActive(t: { revoked: boolean; expiresAt: string | null }): boolean {
  return !t.revoked && (t.expiresAt === null || t.expiresAt > today());
}

/** PersonalAccessToken, plus `access_level` for project and group tokens (the ImpersonationToken entity adds `impersonation`). */
export function tokenJson(t: AccessTokenRec, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: t.id,
    name: t.name,
    revoked: t.revoked,
    created_at: iso(t.createdAt),
    description: t.description,
    scopes: t.scopes,
    user_id: t.userId,
    last_used_at: t.lastUsedAt === null ? null : iso(t.lastUsedAt),
    active: isActive(t),
    expires_at: t.expiresAt,
  };
  if (t.accessLevel !== null) out.access_level = t.accessLevel;
  return { ...out, ...extra };
}

/** `access_token_params`: `state`, `revoked`, `search`, and the created / last used / expires date bounds. */
export function filterTokens(ctx: Ctx, list: AccessTokenRec[]): AccessTokenRec[] {
  const state = enumParam(ctx, 'state', ['active', 'inactive'] as const);
  const revoked = boolParam(ctx, 'revoked');
  const search = strParam(ctx, 'search')?.toLowerCase();
  const createdBefore = timeParam(ctx, 'created_before');
  const createdAfter = timeParam(ctx, 'created_after');
  const usedBefore = timeParam(ctx, 'last_used_before');
  const usedAfter = timeParam(ctx, 'last_used_after');
  const expiresBefore = dateParam(ctx, 'expires_before');
  const expiresAfter = dateParam(ctx, 'expires_after');
  return list.filter(
    (t) =>
      (state === undefined || isActive(t) === (state === 'active')) &&
      (revoked === undefined || t.revoked === revoked) &&
      (!search || t.name.toLowerCase().includes(search)) &&
      (createdBefore === undefined || t.createdAt < createdBefore) &&
      (createdAfter === undefined || t.createdAt > createdAfter) &&
      (usedBefore === undefined || (t.lastUsedAt !== null && t.lastUsedAt < usedBefore)) &&
      (usedAfter === undefined || (t.lastUsedAt !== null && t.lastUsedAt > usedAfter)) &&
      (expiresBefore === undefined || (t.expiresAt !== null && t.expiresAt < expiresBefore)) &&
      (expiresAfter === undefined || (t.expiresAt !== null && t.expiresAt > expiresAfter)),
  );
}

export function sendTokens<T>(ctx: Ctx, list: T[], json: (t: T) => unknown): void {
  const page = offsetPage(ctx, list.length, (off, lim) => list.slice(off, off + lim));
  sendList(ctx, page.map(json));
}

/** A Grape `Date`: YYYY-MM-DD (a time after it is ignored), else `<name> is invalid`. */
export function dateParam(ctx: Ctx, name: string): string | undefined {
  const v = strParam(ctx, name);
  if (v === undefined || v === '') return undefined;
  const day = /^(\d{4}-\d{2}-\d{2})/.exec(v.trim())?.[1];
  // Date.parse takes 2027-02-30 as 2027-03-02; Ruby's Date refuses a day its month lacks.
  const time = day === undefined ? Number.NaN : Date.parse(`${day}T00:00:00Z`);
  if (day === undefined || Number.isNaN(time) || isoDay(time) !== day) throw E.invalid(name);
  return day;
}

/** `requires :name` and `requires :scopes` with the values the route accepts. */
export function nameAndScopes(ctx: Ctx, allowed: readonly string[]): { name: string; scopes: string[] } {
  const name = strParam(ctx, 'name');
  const scopes = listParam(ctx, 'scopes');
  const missing = [name === undefined ? 'name' : null, scopes === undefined ? 'scopes' : null].filter((x): x is string => x !== null);
  if (missing.length > 0) throw E.missing(...missing);
  if (!scopes!.every((s) => allowed.includes(s))) throw E.notValid('scopes');
  if (name!.trim() === '') throw E.validation({ name: ["can't be blank"] });
  return { name: name!, scopes: scopes! };
}

/** A rotation: the old token revoked, its successor (by default a week long) answered with its secret. */
export function sendRotated(ctx: Ctx, t: AccessTokenRec): void {
  if (t.revoked) throw badRequest('token already revoked');
  const expiresAt = dateParam(ctx, 'expires_at') ?? isoDay(Date.now() + 7 * 86_400_000);
  const made = tokenStore(ctx).rotate(t, expiresAt);
  sendJson(ctx, 200, tokenJson(made.rec, { token: made.token }));
}

export function badRequest(reason?: string): ApiError {
  return new ApiError(400, { message: reason ? `400 Bad request - ${reason}` : '400 Bad request' });
}

/** The scopes a personal or impersonation token may carry (`Gitlab::Auth.all_available_scopes`). */
export const USER_SCOPES = [
  'api',
  'read_api',
  'read_user',
  'create_runner',
  'manage_runner',
  'k8s_proxy',
  'read_repository',
  'write_repository',
  'read_registry',
  'write_registry',
  'read_virtual_registry',
  'write_virtual_registry',
  'sudo',
  'admin_mode',
  'ai_features',
  'self_rotate',
  'read_service_ping',
] as const;
