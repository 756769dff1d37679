// Project and group access tokens (reference endpoints §11; `lib/api/resource_access_tokens.rb`):
// `/projects/:id/access_tokens`, `/groups/:id/access_tokens`, `…/:token_id`, `…/:token_id/rotate`.
// Reading and managing them takes a project maintainer or a group owner. A token made here is a
// credential of its own bot user, a direct member of the project or group at the token's level.
import { OWNER } from '../access.js';
import type { Ctx } from '../server/context.js';
import { ApiError, E } from '../server/errors.js';
import { intParam } from '../server/params.js';
import { sendJson } from '../server/respond.js';
import type { AccessTokenRec, GroupRec, ProjectRec } from '../store/records.js';
import type { Scope } from '../server/router.js';
import type { Mounts } from './mounts.js';
import {
  badRequest,
  dateParam,
  filterTokens,
  groupLevel,
  nameAndScopes,
  projectLevel,
  sendRotated,
  sendTokens,
  tokenJson,
  tokenStore,
} from './token-json.js';

const MAINTAINER = 40;
const DAY = 86_400_000;
/** `Gitlab::Access.options_with_owner` */
const LEVELS = [10, 15, 20, 30, 40, 50];
/** `Gitlab::Auth.resource_bot_scopes` */
const BOT_SCOPES = [
  'api',
  'read_api',
  'read_repository',
  'write_repository',
  'read_registry',
  'write_registry',
  'create_runner',
  'manage_runner',
  'ai_features',
  'k8s_proxy',
  'self_rotate',
  'read_observability',
  'write_observability',
] as const;

interface Source {
  kind: 'project' | 'group';
  id: number;
  /** the caller's role in it (admins count as owners) */
  role: number;
}

function projectSource(ctx: Ctx, p: ProjectRec): Source {
  return { kind: 'project', id: p.id, role: projectLevel(ctx, p) };
}

function groupSource(ctx: Ctx, g: GroupRec): Source {
  return { kind: 'group', id: g.id, role: groupLevel(ctx, g) };
}

/** `read_resource_access_tokens` / `manage_resource_access_tokens`: project maintainers, group owners. */
function mayManage(s: Source): boolean {
  return s.role >= (s.kind === 'project' ? MAINTAINER : OWNER);
}

function findToken(ctx: Ctx, s: Source): AccessTokenRec | null {
  const v = ctx.p.token_id!;
  const t = /^\d+$/.test(v) ? tokenStore(ctx).tokens.get(Number(v)) : null;
  return t && t.kind === s.kind && t.resourceId === s.id ? t : null;
}

function notFound(s: Source): ApiError {
  return E.notFound(`${s.kind} Access Token`);
}

function list(ctx: Ctx, s: Source): void {
  if (!mayManage(s)) throw E.unauthorized();
  sendTokens(ctx, filterTokens(ctx, tokenStore(ctx).ofResource(s.kind, s.id)), (t) => tokenJson(t));
}

function get(ctx: Ctx, s: Source): void {
  if (!mayManage(s)) throw E.unauthorized();
  const t = findToken(ctx, s);
  if (!t) throw notFound(s);
  sendJson(ctx, 200, tokenJson(t));
}

function create(ctx: Ctx, s: Source): void {
  const { name, scopes } = nameAndScopes(ctx, BOT_SCOPES);
  const level = intParam(ctx, 'access_level') ?? MAINTAINER;
  if (!LEVELS.includes(level)) throw E.notValid('access_level');
  const expiresAt = dateParam(ctx, 'expires_at') ?? null;
  if (!mayManage(s)) throw badRequest(`User does not have permission to create ${s.kind} access token`);
  if (level > s.role) throw badRequest("Access level of the token can't be greater the access level of the user who created the token");
  const latest = new Date(Date.now() + 365 * DAY).toISOString().slice(0, 10);
  if (expiresAt !== null && expiresAt > latest) throw badRequest(`Expiration date must be before ${latest}`);
  const made = tokenStore(ctx).create(
    {
      kind: s.kind,
      name,
      description: '',
      resourceId: s.id,
      scopes,
      accessLevel: level,
      expiresAt,
    },
    ctx.user!.id,
  );
  sendJson(ctx, 201, tokenJson(made.rec, { token: made.token }));
}

function rotate(ctx: Ctx, s: Source): void {
  const t = mayManage(s) ? findToken(ctx, s) : null;
  if (!t) throw ctx.user!.isAdmin ? E.notFound() : E.unauthorized();
  sendRotated(ctx, t);
}

function revoke(ctx: Ctx, s: Source): void {
  const t = findToken(ctx, s);
  if (!t) throw notFound(s);
  if (!mayManage(s)) throw badRequest(`${ctx.user!.name} cannot delete ${t.name}`);
  t.revoked = true;
  sendJson(ctx, 204, null);
}

function routes<T>(scope: Scope<T>, source: (ctx: Ctx, parent: T) => Source): void {
  scope.get('/access_tokens', { auth: 'user' }, (ctx, parent) => list(ctx, source(ctx, parent)));
  scope.get('/access_tokens/:token_id', { auth: 'user' }, (ctx, parent) => get(ctx, source(ctx, parent)));
  scope.post('/access_tokens', { auth: 'user' }, (ctx, parent) => create(ctx, source(ctx, parent)));
  scope.post('/access_tokens/:token_id/rotate', { auth: 'user' }, (ctx, parent) => rotate(ctx, source(ctx, parent)));
  scope.delete('/access_tokens/:token_id', { auth: 'user' }, (ctx, parent) => revoke(ctx, source(ctx, parent)));
}

export function mountAccessTokens({ project, group }: Mounts): void {
  routes(project, projectSource);
  routes(group, groupSource);
}
