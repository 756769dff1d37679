import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { parseTokenType, profileNameFor } from '../../config/resolve.js';
import { readTextFile } from '../shared/local-file.js';
import { readSecrets } from './shared/read-secrets.js';
import { describeUser, verifyToken } from './shared/verify.js';
import { defineCommand } from '../../cli/spec.js';

interface LoginOptions {
  verify: boolean;
  refreshTokenFile?: string;
}

export const LOGIN = defineCommand<LoginOptions>({
  name: 'login',
  description: 'Save a URL and token as a profile; the token is read from stdin or a prompt that does not echo',
  options: [
    { flags: '--no-verify', help: 'save without checking the token with GET /user' },
    { flags: '--refresh-token-file <path>', help: 'OAuth: read the refresh token from this file (otherwise the second stdin line)' },
  ],
  examples: [
    'printf "%s\\n" "$TOKEN" | svc auth login --url https://gitlab.example.com',
    'printf "%s\\n%s\\n" "$ACCESS" "$REFRESH" | svc auth login --url https://gitlab.example.com --token-type oauth --profile work',
    'svc auth login --url https://gitlab.example.com   # prompts for the token',
  ],
  run: (ctx, _args, opts) => run(ctx, opts),
});

async function run(ctx: Context, opts: LoginOptions): Promise<void> {
  const store = await ctx.config();
  const profileName = profileNameFor(ctx.globals, ctx.env, store);
  const existing = store.profile(profileName) ?? {};
  const rawUrl = ctx.globals.url ?? existing.url;
  if (!rawUrl) throw new UsageError('svc auth login needs --url (the service address, e.g. https://gitlab.example.com)');
  const { normalizeBaseUrl, instanceRoot } = await import('../../http/client.js');
  const url = instanceRoot(normalizeBaseUrl(rawUrl));
  const type = parseTokenType(ctx.globals.tokenType, '--token-type') ?? 'private';

  let wanted = ['token'];
  if (type === 'oauth') wanted = opts.refreshTokenFile ? ['access token'] : ['access token', 'refresh token'];
  const secrets = ctx.globals.token ? [ctx.globals.token] : await readSecrets(ctx, wanted);
  let token = secrets[0] as string;
  let refreshToken = type === 'oauth' ? (secrets[1] ?? (await readRefreshTokenFile(ctx, opts.refreshTokenFile))) : undefined;
  if (type === 'oauth' && !refreshToken) {
    throw new UsageError('an OAuth login needs the refresh token too: as the second stdin line or with --refresh-token-file');
  }
  const caFile = ctx.globals.caFile || ctx.env.SVC_CA_FILE || existing.caFile;

  if (opts.verify && type === 'job') {
    ctx.info('job tokens cannot be checked with GET /user; saving without a check');
  } else if (opts.verify) {
    const user = await verifyToken(ctx, {
      baseUrl: url,
      caFile,
      credentials: { token, type, refreshToken, oauthClientId: existing.oauthClientId },
      onCredentialsRefreshed: (fresh) => {
        token = fresh.token;
        refreshToken = fresh.refreshToken;
      },
    });
    ctx.info(`token works: ${describeUser(user)}`);
  }
  await store.saveProfile(profileName, { url, token, tokenType: type, refreshToken, oauthClientId: existing.oauthClientId, caFile }, true);
  ctx.info(`saved profile '${profileName}' for ${url} in ${store.path}`);
}

async function readRefreshTokenFile(ctx: Context, path: string | undefined): Promise<string | undefined> {
  if (!path) return undefined;
  return (await readTextFile('--refresh-token-file', path, ctx.signal)).trim() || undefined;
}
