import { ExitCode, SvcError } from '../errors.js';
import {
  configFilePath,
  openForWrite,
  prepareDirectory,
  readConfigFile,
  writeFailure,
  type ConfigData,
  type Profile,
} from './config-file.js';
import type { CredentialStore, StoredCredentials } from '../http/types.js';
import { withFileLock } from './file-lock.js';

export { ConfigFileError, configFilePath, type Profile } from './config-file.js';

/** Settings a user may change with `svc config set` (tokens go through `svc auth login`). */
export const SETTABLE_KEYS = ['url', 'tokenType', 'caFile', 'oauthClientId'] as const;
export type SettableKey = (typeof SETTABLE_KEYS)[number];

/**
 * The config file: read once when first needed, never created by reading. Every change takes the
 * file's lock, re-reads the file and applies itself to what is there now, so that concurrent
 * `svc` processes each keep what the others wrote.
 */
export class ConfigStore {
  readonly path: string;
  private snapshot?: ConfigData;
  private readonly signal?: AbortSignal;

  constructor(
    env: NodeJS.ProcessEnv,
    signal?: AbortSignal,
    private readonly debug?: (line: string) => void,
  ) {
    this.path = configFilePath(env);
    this.signal = signal;
  }

  /** Reads the file now, so that a broken one fails here (ConfigFileError) and not later. */
  load(): void {
    this.snapshot ??= readConfigFile(this.path);
  }

  get activeProfile(): string | undefined {
    return this.data().activeProfile;
  }

  profileNames(): string[] {
    return Object.keys(this.data().profiles);
  }

  profile(name: string): Profile | undefined {
    return profileOf(this.data(), name);
  }

  saveProfile(name: string, profile: Profile, makeActive = false): Promise<void> {
    return this.modify(async (data) => {
      setProfile(data, name, withoutEmpty(profile));
      if (makeActive || !data.activeProfile) data.activeProfile = name;
    });
  }

  /** Changes some keys of a profile as it is in the file now (undefined removes a key). */
  updateProfile(name: string, change: Partial<Profile>): Promise<void> {
    return this.modify(async (data) => {
      setProfile(data, name, withoutEmpty({ ...profileOf(data, name), ...change }));
    });
  }

  setActive(name: string): Promise<void> {
    return this.modify(async (data) => {
      if (!profileOf(data, name)) throw new SvcError(`no profile named '${name}'`, ExitCode.usage);
      data.activeProfile = name;
    });
  }

  /** The store side of the HTTP client's OAuth refresh: one refresh at a time across processes. */
  credentialStore(profileName: string): CredentialStore {
    return {
      update: (change) =>
        this.modify(async (data) => {
          const profile = profileOf(data, profileName);
          const current: StoredCredentials | undefined = profile?.token
            ? withoutEmpty({ token: profile.token, refreshToken: profile.refreshToken })
            : undefined;
          const next = await change(current);
          if (!next) return current;
          // A profile logged out meanwhile stays logged out.
          if (profile?.token)
            setProfile(data, profileName, withoutEmpty({ ...profile, token: next.token, refreshToken: next.refreshToken }));
          return next;
        }),
    };
  }

  private data(): ConfigData {
    this.load();
    return this.snapshot as ConfigData;
  }

  /** Lock, re-read, change, write (only if something changed), unlock. */
  private async modify<T>(change: (data: ConfigData) => Promise<T>): Promise<T> {
    prepareDirectory(this.path);
    const lockOptions = {
      signal: this.signal,
      describeFailure: (code: string) => writeFailure(this.path, code),
      onWait: (holder: string) => this.debug?.(`waiting for the config file lock ${this.path}.lock, held by pid ${holder.split(' ')[0]}`),
    };
    return withFileLock(`${this.path}.lock`, lockOptions, async () => {
      const file = openForWrite(this.path);
      const before = JSON.stringify(file.data);
      const data: ConfigData = structuredClone(file.data);
      const result = await change(data);
      if (JSON.stringify(data) !== before) file.save(data);
      this.snapshot = data;
      return result;
    });
  }
}

/**
 * Profiles by name, as own keys only: a name such as `__proto__` or `constructor` is a profile like
 * any other, never the object's prototype or one of its methods.
 */
function profileOf(data: ConfigData, name: string): Profile | undefined {
  return Object.hasOwn(data.profiles, name) ? data.profiles[name] : undefined;
}

function setProfile(data: ConfigData, name: string, profile: Profile): void {
  Object.defineProperty(data.profiles, name, { value: profile, enumerable: true, writable: true, configurable: true });
}

function withoutEmpty<T extends object>(record: T): T {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined && v !== '')) as T;
}
