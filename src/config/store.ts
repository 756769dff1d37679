import { join } from 'node:path';
import envPaths from 'env-paths';
import Conf from 'conf';
import { ExitCode, SvcError } from '../errors.js';
import type { TokenType } from '../http/types.js';

export interface Profile {
  url?: string;
  token?: string;
  tokenType?: TokenType;
  refreshToken?: string;
  oauthClientId?: string;
  caFile?: string;
}

interface ConfigData {
  activeProfile?: string;
  profiles: Record<string, Profile>;
}

/** Settings a user may change with `svc config set` (tokens go through `svc auth login`). */
export const SETTABLE_KEYS = ['url', 'tokenType', 'caFile', 'oauthClientId'] as const;
export type SettableKey = (typeof SETTABLE_KEYS)[number];

/** Where conf keeps the file, known without reading it (so a broken file can be named). */
export function configFilePath(env: NodeJS.ProcessEnv): string {
  return join(env.SVC_CONFIG_DIR || envPaths('svc', { suffix: '' }).config, 'config.json');
}

const TOKEN_TYPES: readonly string[] = ['private', 'oauth', 'job'];

/**
 * conf's reader: a file of the wrong shape (`[]`, a profile that is not an object, an unknown
 * token type) is refused like broken JSON, before anything reads it or writes over it.
 */
function parseConfigFile(text: string): ConfigData {
  const data: unknown = JSON.parse(text);
  if (!isObject(data)) throw new Error('expected a JSON object');
  if (data.activeProfile !== undefined && typeof data.activeProfile !== 'string') throw new Error('activeProfile must be a string');
  if (data.profiles === undefined) return data as unknown as ConfigData;
  if (!isObject(data.profiles)) throw new Error('profiles must be an object');
  for (const [name, profile] of Object.entries(data.profiles)) {
    if (!isObject(profile)) throw new Error(`profile '${name}' must be an object`);
    const notText = Object.keys(profile).find((key) => typeof profile[key] !== 'string');
    if (notText) throw new Error(`profiles.${name}.${notText} must be a string`);
    if (profile.tokenType !== undefined && !TOKEN_TYPES.includes(profile.tokenType as string)) {
      throw new Error(`profiles.${name}.tokenType must be one of ${TOKEN_TYPES.join(', ')} (got '${profile.tokenType}')`);
    }
  }
  return data as unknown as ConfigData;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export class ConfigStore {
  private readonly conf: Conf<ConfigData>;

  constructor(env: NodeJS.ProcessEnv) {
    try {
      this.conf = new Conf<ConfigData>({
        projectName: 'svc',
        projectSuffix: '',
        cwd: env.SVC_CONFIG_DIR || undefined,
        configFileMode: 0o600,
        defaults: { profiles: {} },
        clearInvalidConfig: false,
        deserialize: parseConfigFile,
      });
    } catch (error) {
      throw new SvcError(
        `cannot read the config file ${configFilePath(env)}: ${(error as Error).message.split('\n')[0]} (fix or remove it)`,
        ExitCode.usage,
      );
    }
  }

  get path(): string {
    return this.conf.path;
  }

  get activeProfile(): string | undefined {
    return this.conf.get('activeProfile');
  }

  profileNames(): string[] {
    return Object.keys(this.profiles());
  }

  profile(name: string): Profile | undefined {
    return this.profiles()[name];
  }

  saveProfile(name: string, profile: Profile, makeActive = false): void {
    this.write(() => {
      const profiles = { ...this.profiles(), [name]: stripUndefined(profile) };
      this.conf.set('profiles', profiles);
      if (makeActive || !this.activeProfile) this.conf.set('activeProfile', name);
    });
  }

  updateProfile(name: string, change: Partial<Profile>): void {
    this.saveProfile(name, { ...(this.profile(name) ?? {}), ...change });
  }

  removeProfile(name: string): boolean {
    const profiles = { ...this.profiles() };
    if (!(name in profiles)) return false;
    delete profiles[name];
    this.write(() => {
      this.conf.set('profiles', profiles);
      if (this.activeProfile === name) this.conf.delete('activeProfile');
    });
    return true;
  }

  setActive(name: string): void {
    this.write(() => this.conf.set('activeProfile', name));
  }

  private profiles(): Record<string, Profile> {
    const profiles = this.conf.get('profiles');
    return profiles && typeof profiles === 'object' ? profiles : {};
  }

  private write(change: () => void): void {
    try {
      change();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new SvcError(`cannot write the config file ${this.conf.path}: ${code ?? (error as Error).message}`, ExitCode.failure);
    }
  }
}

function stripUndefined(profile: Profile): Profile {
  return Object.fromEntries(Object.entries(profile).filter(([, v]) => v !== undefined && v !== '')) as Profile;
}
