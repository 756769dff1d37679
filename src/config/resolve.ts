import { UsageError } from '../errors.js';
import type { TokenType } from '../http/types.js';
import type { ConfigStore, Profile } from './store.js';

export interface TargetFlags {
  url?: string;
  token?: string;
  tokenType?: string;
  profile?: string;
  caFile?: string;
}

export interface Resolved<T> {
  value: T;
  source: string;
}

export interface Target {
  profileName: string;
  url?: Resolved<string>;
  token?: Resolved<string> & { type: TokenType; refreshToken?: string; oauthClientId?: string };
  caFile?: string;
  /** Whether the token came from the profile, so a refreshed OAuth pair can be saved back there. */
  tokenFromProfile: boolean;
}

const TOKEN_TYPES: TokenType[] = ['private', 'oauth', 'job'];

export function parseTokenType(value: string | undefined, source: string): TokenType | undefined {
  if (value === undefined || value === '') return undefined;
  if ((TOKEN_TYPES as string[]).includes(value)) return value as TokenType;
  throw new UsageError(`${source}: token type must be one of ${TOKEN_TYPES.join(', ')} (got '${value}')`);
}

/** The profile a command works on: --profile, SVC_PROFILE, the active one, else `default`. */
export function profileNameFor(flags: TargetFlags, env: NodeJS.ProcessEnv, config: ConfigStore | undefined): string {
  return flags.profile || env.SVC_PROFILE || config?.activeProfile || 'default';
}

/**
 * Precedence, highest first: flags, SVC_* environment, the active profile, then the CI job's
 * predefined variables. Each value says where it came from, for `svc auth status`.
 */
export function resolveTarget(flags: TargetFlags, env: NodeJS.ProcessEnv, config: ConfigStore | undefined): Target {
  const flagType = parseTokenType(flags.tokenType, '--token-type');
  const envType = parseTokenType(env.SVC_TOKEN_TYPE, 'SVC_TOKEN_TYPE');
  const profileName = profileNameFor(flags, env, config);
  const explicitProfile = Boolean(flags.profile || env.SVC_PROFILE);
  const profile: Profile | undefined = config?.profile(profileName);
  if (explicitProfile && !profile) {
    const known = config?.profileNames() ?? [];
    throw new UsageError(
      `no profile named '${profileName}'${known.length ? ` (known: ${known.join(', ')})` : ''}; create it with \`svc auth login --profile ${profileName}\``,
    );
  }
  const profileLabel = `profile '${profileName}' in the config file`;

  let url: Resolved<string> | undefined;
  if (flags.url) url = { value: flags.url, source: '--url' };
  else if (env.SVC_URL) url = { value: env.SVC_URL, source: 'SVC_URL' };
  else if (profile?.url) url = { value: profile.url, source: profileLabel };
  else if (env.CI_API_V4_URL) url = { value: env.CI_API_V4_URL, source: 'CI_API_V4_URL' };
  else if (env.CI_SERVER_URL) url = { value: env.CI_SERVER_URL, source: 'CI_SERVER_URL' };

  let token: Target['token'];
  let tokenFromProfile = false;
  if (flags.token) {
    token = { value: flags.token, source: '--token', type: flagType ?? envType ?? 'private' };
  } else if (env.SVC_TOKEN) {
    token = { value: env.SVC_TOKEN, source: 'SVC_TOKEN', type: flagType ?? envType ?? 'private' };
  } else if (profile?.token && sameInstance(profile.url, url?.value)) {
    tokenFromProfile = true;
    token = {
      value: profile.token,
      source: profileLabel,
      type: flagType ?? profile.tokenType ?? 'private',
      refreshToken: profile.refreshToken,
      oauthClientId: profile.oauthClientId,
    };
  } else if (env.CI_JOB_TOKEN) {
    token = { value: env.CI_JOB_TOKEN, source: 'CI_JOB_TOKEN', type: 'job' };
  }

  const caFile = flags.caFile || env.SVC_CA_FILE || profile?.caFile || undefined;
  return { profileName, url, token, caFile, tokenFromProfile };
}

/**
 * A profile's token belongs to the profile's instance: it is never sent to another host that
 * --url or SVC_URL names.
 */
function sameInstance(profileUrl: string | undefined, targetUrl: string | undefined): boolean {
  if (!profileUrl || !targetUrl) return true;
  try {
    return new URL(profileUrl).origin === new URL(targetUrl).origin;
  } catch {
    return false;
  }
}

/** Shows enough of a token to tell two apart, never enough to use it. */
export function redactToken(token: string): string {
  const visible = token.length >= 12 ? 4 : token.length >= 8 ? 2 : 0;
  return `${token.slice(0, visible)}${'*'.repeat(Math.max(3, Math.min(8, token.length - visible)))}`;
}
