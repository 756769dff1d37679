// Deploy tokens (reference endpoints §11, DTE): `GET /deploy_tokens` (admin), `/projects/:id/deploy_tokens`
// and `/groups/:id/deploy_tokens` (list, get, create, delete; maintainers). They are not credentials of the
// REST API. A deleted deploy token is gone (the service destroys the record).
import type { Ctx } from '../server/context.js';
import { E } from '../server/errors.js';
import { boolParam, strParam } from '../server/params.js';
import { sendJson } from '../server/respond.js';
import type { Scope } from '../server/router.js';
import type { DeployTokenRec, GroupRec, ProjectRec } from '../store/records.js';
import type { Mounts } from './mounts.js';
import { dateParam, groupLevel, isActive, nameAndScopes, projectLevel, sendTokens, tokenStore } from './token-json.js';

const MAINTAINER = 40;
const DEPLOY_SCOPES = [
  'read_repository',
  'read_registry',
  'write_registry',
  'read_package_registry',
  'write_package_registry',
  'read_virtual_registry',
  'write_virtual_registry',
] as const;

interface Owner {
  kind: 'project' | 'group';
  id: number;
  role: number;
}

function deployJson(t: DeployTokenRec, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: t.id,
    name: t.name,
    username: t.username,
    expires_at: t.expiresAt === null ? null : `${t.expiresAt}T00:00:00.000Z`,
    scopes: t.scopes,
    revoked: t.revoked,
    expired: t.expiresAt !== null && !isActive({ revoked: false, expiresAt: t.expiresAt }),
    ...extra,
  };
}

/** `active`: neither revoked nor expired. */
function sendDeployTokens(ctx: Ctx, list: DeployTokenRec[]): void {
  const active = boolParam(ctx, 'active');
  sendTokens(ctx, active === undefined ? list : list.filter((t) => isActive(t) === active), (t) => deployJson(t));
}

function allowed(o: Owner): void {
  if (o.role < MAINTAINER) throw E.forbidden();
}

function find(ctx: Ctx, o: Owner): DeployTokenRec {
  const v = ctx.p.token_id!;
  const t = /^\d+$/.test(v) ? tokenStore(ctx).deploy.get(Number(v)) : null;
  if (!t || t.ownerKind !== o.kind || t.ownerId !== o.id) throw E.findNotFound();
  return t;
}

function routes<T>(scope: Scope<T>, owner: (ctx: Ctx, parent: T) => Owner): void {
  scope.get('/deploy_tokens', { auth: 'user' }, (ctx, parent) => {
    const o = owner(ctx, parent);
    allowed(o);
    sendDeployTokens(ctx, tokenStore(ctx).deployOf(o.kind, o.id));
  });
  scope.get('/deploy_tokens/:token_id', { auth: 'user' }, (ctx, parent) => {
    const o = owner(ctx, parent);
    allowed(o);
    sendJson(ctx, 200, deployJson(find(ctx, o)));
  });
  scope.post('/deploy_tokens', { auth: 'user' }, (ctx, parent) => {
    const o = owner(ctx, parent);
    allowed(o);
    const { name, scopes } = nameAndScopes(ctx, DEPLOY_SCOPES);
    const made = tokenStore(ctx).createDeploy({
      name,
      scopes,
      ownerKind: o.kind,
      ownerId: o.id,
      expiresAt: dateParam(ctx, 'expires_at') ?? null,
      username: strParam(ctx, 'username'),
    });
    sendJson(ctx, 201, deployJson(made.rec, { token: made.token }));
  });
  scope.delete('/deploy_tokens/:token_id', { auth: 'user' }, (ctx, parent) => {
    const o = owner(ctx, parent);
    allowed(o);
    tokenStore(ctx).removeDeploy(find(ctx, o));
    sendJson(ctx, 204, null);
  });
}

export function mountDeployTokens({ root, project, group }: Mounts): void {
  root.get('/deploy_tokens', { auth: 'admin' }, (ctx) => sendDeployTokens(ctx, [...tokenStore(ctx).deploy]));
  routes(project, (ctx, p: ProjectRec) => ({ kind: 'project', id: p.id, role: projectLevel(ctx, p) }));
  routes(group, (ctx, g: GroupRec) => ({ kind: 'group', id: g.id, role: groupLevel(ctx, g) }));
}
