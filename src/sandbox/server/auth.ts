// Credentials: where each kind of token may be sent, expiry and revocation
// of OAuth tokens, scopes, sudo (reference §4).
import type { IncomingMessage } from 'node:http';
import { admitAccount } from '../access.js';
import type { AccessTokenRec } from '../store/records.js';
import type { Ctx, TokenRec } from './context.js';
import { ApiError, E } from './errors.js';
import { type Params, parseQuery } from '../util/query.js';

export function authenticate(ctx: Ctx, tokens: Map<string, TokenRec>): void {
  const route = ctx.route!;
  const cred = extractCredential(ctx.req, ctx.rawQuery, ctx.body);
  if (cred) {
    const rec = tokens.get(cred.value);
    if (!rec) throw E.unauthorized();
    if (cred.via === 'job' && rec.kind !== 'job') throw E.unauthorized();
    if (cred.via === 'private' && rec.kind !== 'personal') throw E.unauthorized();
    if (cred.via === 'bearer' && rec.kind === 'job') throw E.unauthorized();
    if (rec.kind === 'job' && !route.job) throw E.unauthorized();
    if (rec.kind === 'oauth') {
      if (rec.revoked) throw invalidToken('Token was revoked. You have to re-authorize from the user.');
      if (rec.expiresAt !== undefined && rec.expiresAt <= Date.now()) {
        throw invalidToken('Token is expired. You can either do re-authorization or token refresh.');
      }
    }
    if (rec.accessToken) useAccessToken(rec.accessToken);
    if (!scopeAllows(ctx, rec.scopes)) throw E.insufficientScope('api');
    ctx.token = rec;
    ctx.user = ctx.world.users.own(rec.userId);
  }
  const sudo = sudoIdentifier(ctx);
  if (sudo !== null) {
    if (!ctx.user || !ctx.token) throw E.unauthorized();
    // A job token can never sudo, whoever the job runs as.
    if (ctx.token.kind === 'job') throw E.forbidden('Must be authenticated using an OAuth or Personal Access Token to use sudo');
    if (!ctx.user.isAdmin) throw E.forbidden('Must be admin to use sudo');
    if (!ctx.token.scopes.includes('sudo')) throw E.insufficientScope('sudo');
    const target = ctx.world.findUser(sudo);
    if (!target) throw new ApiError(404, { message: `404 User with ID or username '${sudo}' Not Found` });
    ctx.user = target;
  }
  if (ctx.token) admitAccount(ctx.world, ctx.world.users.own(ctx.token.userId));
  if (route.auth !== 'public' && !ctx.user) throw E.unauthorized();
  if (route.auth === 'admin' && !ctx.user!.isAdmin) throw E.forbidden();
}

function scopeAllows(ctx: Ctx, scopes: string[]): boolean {
  const route = ctx.route!;
  if (route.scopes === 'all' || scopes.includes('api') || scopes.some((s) => route.scopes.includes(s))) return true;
  return (ctx.method === 'GET' || ctx.method === 'HEAD') && scopes.includes('read_api');
}

/** A personal or impersonation token: refused once revoked or expired, its last use recorded. */
function useAccessToken(t: AccessTokenRec): void {
  if (t.revoked) throw invalidToken('Token was revoked. You have to re-authorize from the user.');
  if (t.expiresAt !== null && Date.parse(`${t.expiresAt}T00:00:00Z`) <= Date.now()) {
    throw invalidToken('Token is expired. You can either do re-authorization or token refresh.');
  }
  t.lastUsedAt = Date.now();
}

function invalidToken(desc: string): ApiError {
  return new ApiError(
    401,
    { error: 'invalid_token', error_description: desc },
    { 'WWW-Authenticate': `Bearer realm="Protected by OAuth 2.0", error="invalid_token", error_description="${desc}"` },
  );
}

export function extractCredential(
  req: IncomingMessage,
  rawQuery: string,
  body?: Params,
): { value: string; via: 'private' | 'bearer' | 'job' } | null {
  const h = req.headers;
  const pt = h['private-token'];
  if (typeof pt === 'string' && pt) return { value: pt, via: 'private' };
  const authz = h.authorization;
  if (typeof authz === 'string') {
    const m = /^bearer\s+(.+)$/i.exec(authz.trim());
    if (m) return { value: m[1]!.trim(), via: 'bearer' };
  }
  const jt = h['job-token'];
  if (typeof jt === 'string' && jt) return { value: jt, via: 'job' };
  if (rawQuery.includes('_token=') || body) {
    let q: Params = {};
    try {
      q = parseQuery(rawQuery).params;
    } catch {
      /* ignored here; reported later */
    }
    const pick = (k: string) => {
      const v = q[k] ?? body?.[k];
      return typeof v === 'string' && v ? v : null;
    };
    const p = pick('private_token');
    if (p) return { value: p, via: 'private' };
    const a = pick('access_token');
    if (a) return { value: a, via: 'bearer' };
    const j = pick('job_token');
    if (j) return { value: j, via: 'job' };
  }
  return null;
}

function sudoIdentifier(ctx: Ctx): string | null {
  const h = ctx.req.headers.sudo;
  if (typeof h === 'string' && h !== '') return h;
  const q = ctx.params.sudo;
  if (typeof q === 'string' && q !== '') return q;
  if (typeof q === 'number') return String(q);
  return null;
}
