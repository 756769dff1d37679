// Personal access tokens and impersonation tokens (reference endpoints §11, behaviour §4.7):
// `/personal_access_tokens[/:id|/self][/rotate]`, `POST /users/:user_id/personal_access_tokens`,
// `/users/:user_id/impersonation_tokens[/:impersonation_token_id]`. A revoked token stays listed
// with `revoked: true`; personal and impersonation tokens made here are credentials at once.
import type { Ctx } from '../server/context.js';
import { ApiError, E } from '../server/errors.js';
import { enumParam, intParam, strParam } from '../server/params.js';
import { sendJson } from '../server/respond.js';
import type { AccessTokenRec, UserRec } from '../store/records.js';
import type { Mounts } from './mounts.js';
import {
  badRequest,
  dateParam,
  filterTokens,
  isActive,
  nameAndScopes,
  sendRotated,
  sendTokens,
  tokenJson,
  tokenStore,
  USER_SCOPES,
} from './token-json.js';

function idSeg(ctx: Ctx, name: string): number | null {
  const v = ctx.p[name]!;
  return /^\d+$/.test(v) ? Number(v) : null;
}

/** What `read_user_personal_access_tokens` / `manage_user_personal_access_token` allow: the owner or an admin. */
function mayManage(user: UserRec, t: AccessTokenRec | null): boolean {
  return t !== null && (user.isAdmin || t.userId === user.id);
}

/** A token the caller may not see: only admins learn that it does not exist. */
function hidden(ctx: Ctx): ApiError {
  return ctx.user!.isAdmin ? E.notFound() : E.unauthorized();
}

function findPersonal(ctx: Ctx): AccessTokenRec | null {
  const id = idSeg(ctx, 'id');
  return id === null ? null : tokenStore(ctx).tokens.get(id);
}

/** The credential of the request, when it is a personal (or impersonation) token. */
function ownToken(ctx: Ctx): AccessTokenRec | null {
  return ctx.token?.kind === 'personal' ? (ctx.token.accessToken ?? null) : null;
}

function listPersonal(ctx: Ctx): void {
  const store = tokenStore(ctx);
  const user = ctx.user!;
  const userId = intParam(ctx, 'user_id');
  let list: AccessTokenRec[];
  if (!user.isAdmin) {
    if (userId !== undefined && userId !== user.id) throw E.unauthorized();
    list = store.personalOf(user.id).filter((t) => t.kind === 'personal');
  } else if (userId !== undefined) {
    if (!ctx.world.users.own(userId)) throw E.notFound();
    list = store.personalOf(userId);
  } else list = [...store.tokens];
  sendTokens(ctx, filterTokens(ctx, list), (t) => tokenJson(t));
}

const SELF_SCOPES = ['k8s_proxy'] as const;

function targetUser(ctx: Ctx): UserRec {
  const id = idSeg(ctx, 'user_id');
  const u = id === null ? null : ctx.world.users.own(id);
  if (!u) throw E.notFound('User');
  return u;
}

/**
 * `POST /users/:user_id/…` (administrators, any user scope) and `POST /user/personal_access_tokens`
 * (the caller for itself; the service allows only `k8s_proxy` there).
 */
function createForUser(ctx: Ctx, kind: 'personal' | 'impersonation', self = false): void {
  const u = self ? ctx.user! : targetUser(ctx);
  const { name, scopes } = nameAndScopes(ctx, self ? SELF_SCOPES : USER_SCOPES);
  const made = tokenStore(ctx).create({
    kind,
    name,
    description: strParam(ctx, 'description') ?? '',
    userId: u.id,
    resourceId: null,
    scopes,
    accessLevel: null,
    expiresAt: dateParam(ctx, 'expires_at') ?? null,
  });
  sendJson(ctx, 201, tokenJson(made.rec, kind === 'impersonation' ? { impersonation: true, token: made.token } : { token: made.token }));
}

const impersonationJson = (t: AccessTokenRec) => tokenJson(t, { impersonation: true });

function findImpersonation(ctx: Ctx): AccessTokenRec {
  const u = targetUser(ctx);
  const id = idSeg(ctx, 'impersonation_token_id');
  const t = id === null ? null : tokenStore(ctx).tokens.get(id);
  if (!t || t.kind !== 'impersonation' || t.userId !== u.id) throw E.notFound('Impersonation Token');
  return t;
}

export function mountPersonalTokens({ root }: Mounts): void {
  root.get('/personal_access_tokens', { auth: 'user' }, listPersonal);
  root.get('/personal_access_tokens/self', { auth: 'user', scopes: 'all' }, (ctx) => {
    const t = ownToken(ctx);
    if (!t) throw badRequest('This endpoint requires token type to be a personal access token');
    sendJson(ctx, 200, tokenJson(t, { last_used_ips: [] }));
  });
  root.get('/personal_access_tokens/:id', { auth: 'user' }, (ctx) => {
    const t = findPersonal(ctx);
    if (!mayManage(ctx.user!, t)) throw hidden(ctx);
    sendJson(ctx, 200, tokenJson(t!, { last_used_ips: [] }));
  });
  root.post('/personal_access_tokens/self/rotate', { auth: 'user', scopes: ['self_rotate'] }, (ctx) => {
    const t = ownToken(ctx);
    if (!t) throw new ApiError(405, { message: '405 Method Not Allowed' });
    sendRotated(ctx, t);
  });
  root.post('/personal_access_tokens/:id/rotate', { auth: 'user' }, (ctx) => {
    const t = findPersonal(ctx);
    if (!mayManage(ctx.user!, t)) throw hidden(ctx);
    sendRotated(ctx, t!);
  });
  root.delete('/personal_access_tokens/self', { auth: 'user', scopes: 'all' }, (ctx) => {
    const t = ownToken(ctx);
    if (!t) throw badRequest('This endpoint requires token type to be a personal access token');
    t.revoked = true;
    sendJson(ctx, 204, null);
  });
  root.delete('/personal_access_tokens/:id', { auth: 'user' }, (ctx) => {
    const t = findPersonal(ctx);
    if (!t) throw E.findNotFound();
    if (!mayManage(ctx.user!, t)) throw badRequest();
    t.revoked = true;
    sendJson(ctx, 204, null);
  });
  root.post('/users/:user_id/personal_access_tokens', { auth: 'admin' }, (ctx) => createForUser(ctx, 'personal'));
  root.post('/user/personal_access_tokens', { auth: 'user' }, (ctx) => createForUser(ctx, 'personal', true));

  root.get('/users/:user_id/impersonation_tokens', { auth: 'admin' }, (ctx) => {
    const u = targetUser(ctx);
    const state = enumParam(ctx, 'state', ['all', 'active', 'inactive'] as const, 'all');
    const list = tokenStore(ctx)
      .personalOf(u.id)
      .filter((t) => t.kind === 'impersonation' && (state === 'all' || isActive(t) === (state === 'active')));
    sendTokens(ctx, list, impersonationJson);
  });
  root.post('/users/:user_id/impersonation_tokens', { auth: 'admin' }, (ctx) => createForUser(ctx, 'impersonation'));
  root.get('/users/:user_id/impersonation_tokens/:impersonation_token_id', { auth: 'admin' }, (ctx) =>
    sendJson(ctx, 200, impersonationJson(findImpersonation(ctx))),
  );
  root.delete('/users/:user_id/impersonation_tokens/:impersonation_token_id', { auth: 'admin' }, (ctx) => {
    findImpersonation(ctx).revoked = true;
    sendJson(ctx, 204, null);
  });
}
