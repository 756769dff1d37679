/** What a profile keeps of an OAuth (or any) credential, as the HTTP client refreshes it. */
export interface StoredCredentials {
  token: string;
  refreshToken?: string;
}

/** One profile's credentials, changed by one process at a time across every running `svc`. */
export interface CredentialStore {
  /**
   * Runs `change` under the config file's lock with the profile's credentials as stored now
   * (re-read from disk) and saves what it returns (undefined: keep). Resolves to the credentials
   * stored afterwards.
   */
  update(
    change: (current: StoredCredentials | undefined) => Promise<StoredCredentials | undefined>,
  ): Promise<StoredCredentials | undefined>;
}
