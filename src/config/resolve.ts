import { UsageError } from '../errors.js';
import { GLOBAL_OPTIONS } from './global-options.js';
import { isCi } from './ci-env.js';
import { TOKEN_TYPES, type TokenType } from '../http/types.js';
import { displayUrl, instanceRoot, normalizeBaseUrl } from '../http/urls.js';
import { ConfigFileError, type ConfigStore, type Profile } from './store.js';

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
  /** Lines for stderr: a config file left aside, a CI job token not used. */
  warnings: string[];
}

export function parseTokenType(value: string | undefined, source: string): TokenType | undefined {
  if (value === undefined || value === '') return undefined;
  if ((TOKEN_TYPES as readonly string[]).includes(value)) return value as TokenType;
  throw new UsageError(`${source}: token type must be one of ${TOKEN_TYPES.join(', ')} (got '${value}')`);
}

/** The profile a command works on: --profile, SVC_PROFILE, the active one, else `default`. */
export function profileNameFor(flags: TargetFlags, env: NodeJS.ProcessEnv, config: ConfigStore | undefined): string {
  // An empty name is a mistake (an unset shell variable), never a request for the active profile.
  if (flags.profile !== undefined && !flags.profile.trim()) throw new UsageError('--profile needs a profile name (it was empty)');
  return flags.profile || env.SVC_PROFILE || config?.activeProfile || 'default';
}

/**
 * Precedence, highest first: flags, SVC_* environment, then inside a CI job (CI=true) the job's
 * server with CI_JOB_TOKEN, then the profile (an explicit --profile or SVC_PROFILE comes before the
 * job), and last the job's variables outside a job. Each value says where it came from, for
 * `svc auth status`.
 */
export function resolveTarget(flags: TargetFlags, env: NodeJS.ProcessEnv, store: ConfigStore | undefined): Target {
  const warnings: string[] = [];
  const config = usableConfig(flags, env, store, warnings);
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
  const ciUrl = ciServerUrl(env);
  const jobFirst = Boolean(ciUrl && env.CI_JOB_TOKEN && isCi(env) && !explicitProfile);

  const layers: Layers = { flags, env, profile, profileLabel };
  const url = layered('url', layers, jobFirst ? ciUrl : undefined) ?? ciUrl;

  let token: Target['token'];
  let tokenFromProfile = false;
  // The job token belongs to the job's server: never sent to another instance that --url or SVC_URL names.
  const jobToken =
    env.CI_JOB_TOKEN && (!ciUrl || sameInstance(ciUrl.value, url?.value))
      ? { value: env.CI_JOB_TOKEN, source: 'CI_JOB_TOKEN', type: 'job' as const }
      : undefined;
  if (flags.token) {
    token = { value: flags.token, source: '--token', type: flagType ?? envType ?? 'private' };
  } else if (env.SVC_TOKEN) {
    token = { value: env.SVC_TOKEN, source: 'SVC_TOKEN', type: flagType ?? envType ?? 'private' };
  } else if (jobFirst && jobToken) {
    token = jobToken;
  } else if (profile?.token && sameInstance(profile.url, url?.value)) {
    tokenFromProfile = true;
    token = {
      value: profile.token,
      source: profileLabel,
      type: flagType ?? profile.tokenType ?? 'private',
      refreshToken: profile.refreshToken,
      oauthClientId: profile.oauthClientId,
    };
  } else if (jobToken) {
    token = jobToken;
  }
  const explicitBy = flags.profile ? '--profile' : env.SVC_PROFILE ? 'SVC_PROFILE' : undefined;
  const disagreement =
    ciUrl && env.CI_JOB_TOKEN && isCi(env) && profile
      ? jobVersusProfile({ ciUrl, profile, profileName, profileLabel, explicitBy, url, token })
      : undefined;
  const withheld = env.CI_JOB_TOKEN && ciUrl && url && !jobToken ? withheldJobToken(ciUrl, url, token, profileLabel) : undefined;
  if (disagreement) {
    warnings.push(disagreement);
  } else if (withheld) {
    warnings.push(withheld);
  } else if (tokenFromProfile && jobToken) {
    warnings.push(
      `using the token of profile '${profileName}' from the config file; CI_JOB_TOKEN is set but not used (SVC_TOKEN="$CI_JOB_TOKEN" SVC_TOKEN_TYPE=job would use it)`,
    );
  }

  const caFile = layered('caFile', layers)?.value;
  return { profileName, url, token, caFile, tokenFromProfile, warnings };
}

/** The CI job's server, from its predefined variables. */
function ciServerUrl(env: NodeJS.ProcessEnv): Resolved<string> | undefined {
  if (env.CI_API_V4_URL) return { value: env.CI_API_V4_URL, source: 'CI_API_V4_URL' };
  if (env.CI_SERVER_URL) return { value: env.CI_SERVER_URL, source: 'CI_SERVER_URL' };
  return undefined;
}

interface Disagreement {
  ciUrl: Resolved<string>;
  profile: Profile;
  profileName: string;
  profileLabel: string;
  /** `--profile` or `SVC_PROFILE` when one named the profile. */
  explicitBy: string | undefined;
  url: Resolved<string> | undefined;
  token: Target['token'];
}

/** The one line that says which of a saved profile and the CI job's variables is used, and why, when they differ. */
function jobVersusProfile({ ciUrl, profile, profileName, profileLabel, explicitBy, url, token }: Disagreement): string | undefined {
  const jobServer = `${displayUrl(ciUrl.value)} (${ciUrl.source})`;
  const profileServer = profile.url ? ` (${displayUrl(profile.url)})` : '';
  const otherServer = Boolean(profile.url) && !sameServer(profile.url as string, ciUrl.value);
  if (explicitBy) {
    if (url?.source !== profileLabel || !otherServer) return undefined;
    return `using profile '${profileName}'${profileServer} as ${explicitBy} asks, not the CI job's server ${jobServer}`;
  }
  if (url !== ciUrl) return undefined;
  const why = `inside a CI job (CI=true) the job's variables come before a saved profile (--profile ${profileName} would use it)`;
  const withJobToken = token?.source === 'CI_JOB_TOKEN';
  if (otherServer) {
    return `using the CI job's server ${jobServer}${withJobToken ? ' with CI_JOB_TOKEN' : ''}, not profile '${profileName}'${profileServer}: ${why}`;
  }
  if (profile.token && withJobToken) {
    return `using CI_JOB_TOKEN for the CI job's server ${jobServer}, not the token of profile '${profileName}': ${why}`;
  }
  return undefined;
}

/**
 * The line for a job token kept from a server other than the job's own, naming the token used
 * instead. Silent when --token or SVC_TOKEN chose the token: whoever set it chose the server too.
 */
function withheldJobToken(
  ciUrl: Resolved<string>,
  url: Resolved<string>,
  token: Target['token'],
  profileLabel: string,
): string | undefined {
  if (token?.source === '--token' || token?.source === 'SVC_TOKEN') return undefined;
  const instead = token ? `the token of ${token.source}` : 'no token';
  // Outside a job the profile's URL is why the job's server lost; naming the job's server is the way back.
  const hint = url.source === profileLabel ? ` (SVC_URL="$${ciUrl.source}" would use it)` : '';
  return (
    `CI_JOB_TOKEN is not sent to ${displayUrl(url.value)} (${url.source}), only to the CI job's server ` +
    `${displayUrl(ciUrl.value)} (${ciUrl.source}); using ${instead}${hint}`
  );
}

/** Whether two URLs name one instance (a `/api/v4` suffix, as CI_API_V4_URL has, makes no difference). */
function sameServer(a: string, b: string): boolean {
  try {
    return instanceRoot(normalizeBaseUrl(a)) === instanceRoot(normalizeBaseUrl(b));
  } catch {
    return a === b;
  }
}

interface Layers {
  flags: TargetFlags;
  env: NodeJS.ProcessEnv;
  profile: Profile | undefined;
  profileLabel: string;
}

/** A setting from its flag, else its environment variable, else `beforeProfile`, else its profile key, as the options table names them. */
function layered(
  name: 'url' | 'caFile',
  { flags, env, profile, profileLabel }: Layers,
  beforeProfile?: Resolved<string>,
): Resolved<string> | undefined {
  const option = GLOBAL_OPTIONS.find((o) => o.name === name);
  const flag = flags[name];
  if (flag) return { value: flag, source: option?.flags.split(' ')[0] ?? name };
  const fromEnv = option?.env ? env[option.env] : undefined;
  if (fromEnv) return { value: fromEnv, source: option?.env as string };
  if (beforeProfile) return beforeProfile;
  const fromProfile = option?.config ? profile?.[option.config as keyof Profile] : undefined;
  return fromProfile ? { value: fromProfile, source: profileLabel } : undefined;
}

/**
 * The config file when it can be read. A broken or unsafe one is only a warning when flags and
 * environment give both URL and token (and no profile is asked for): a CI job need not repair
 * the runner's home directory.
 */
function usableConfig(flags: TargetFlags, env: NodeJS.ProcessEnv, store: ConfigStore | undefined, warnings: string[]) {
  try {
    store?.load();
    return store;
  } catch (error) {
    const hasUrl = flags.url || env.SVC_URL || env.CI_API_V4_URL || env.CI_SERVER_URL;
    const hasToken = flags.token || env.SVC_TOKEN || env.CI_JOB_TOKEN;
    if (!(error instanceof ConfigFileError) || flags.profile || env.SVC_PROFILE || !hasUrl || !hasToken) throw error;
    warnings.push(`${error.message}; left aside, as flags and environment give the URL and token`);
    return undefined;
  }
}

/**
 * A profile's token belongs to the profile's instance, and a job token to the job's: neither is
 * sent to another origin (scheme, host and port, as written once normalised: `localhost` and
 * `127.0.0.1` are two servers, as they are two origins to the service's own cookies and CORS).
 */
function sameInstance(profileUrl: string | undefined, targetUrl: string | undefined): boolean {
  if (!profileUrl || !targetUrl) return true;
  try {
    return new URL(profileUrl).origin === new URL(targetUrl).origin;
  } catch {
    return false;
  }
}

/**
 * Shows enough of a token to tell two apart, never enough to use it: the last 4 characters, since
 * every token of one kind shares its first ones (`glpat-`). Short tokens show nothing.
 */
export function redactToken(token: string): string {
  return `****${token.length >= 12 ? token.slice(-4) : ''}`;
}
