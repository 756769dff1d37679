// OAuth refresh: `POST /oauth/token` with `grant_type=refresh_token`
// (reference §4.6). A refresh revokes the old access token.
import { ApiError } from '../server/errors.js';
import { strParam } from '../server/params.js';
import { sendJson } from '../server/respond.js';
import type { Mounts } from './mounts.js';

export function mountOAuth({ root }: Mounts): void {
  root.post('/oauth/token', { auth: 'public', raw: true }, (ctx) => {
    const grant = strParam(ctx, 'grant_type');
    if (grant !== 'refresh_token') {
      throw new ApiError(400, {
        error: 'unsupported_grant_type',
        error_description: 'The authorization grant type is not supported by the authorization server.',
      });
    }
    const refresh = strParam(ctx, 'refresh_token') ?? '';
    const access = ctx.core.refreshTokens.get(refresh);
    if (!access) {
      throw new ApiError(400, {
        error: 'invalid_grant',
        error_description:
          'The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.',
      });
    }
    ctx.core.refreshTokens.delete(refresh);
    const old = ctx.core.tokens.get(access);
    if (old) old.revoked = true;
    const pair = ctx.core.issueOAuth();
    sendJson(ctx, 200, {
      access_token: pair.access,
      token_type: 'Bearer',
      expires_in: ctx.core.opts.oauthTtlSeconds,
      refresh_token: pair.refresh,
      scope: 'api',
      created_at: Math.floor(Date.now() / 1000),
    });
  });
}
