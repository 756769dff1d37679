import { ExitCode, InterruptedError, SvcError, UsageError } from '../errors.js';
import { isTokenHeader } from './credential-headers.js';
import { redactSecrets } from './redact.js';
import type { CredentialStore, Credentials, StoredCredentials } from './types.js';

export function authHeaders(credentials: Credentials | undefined): Record<string, string> {
  if (!credentials) return {};
  if (credentials.type === 'oauth') return { authorization: `Bearer ${credentials.token}` };
  if (credentials.type === 'job') return { 'job-token': credentials.token };
  return { 'private-token': credentials.token };
}

const CONTROL_CHARACTER = /[\x00-\x1f\x7f]/;

/** A CR or LF in a header would split the request; refused before anything is sent, without echoing the value. */
export function assertSendable(credentials: Credentials | undefined, headers: Record<string, string> = {}): void {
  for (const [what, value] of [
    ['token', credentials?.token],
    ['refresh token', credentials?.refreshToken],
  ] as const) {
    if (value !== undefined && CONTROL_CHARACTER.test(value)) {
      throw new UsageError(`the ${what} holds a control character (such as a line break); check how it was pasted or stored`);
    }
  }
  for (const [name, value] of Object.entries(headers)) {
    if (CONTROL_CHARACTER.test(name) || CONTROL_CHARACTER.test(value)) {
      throw new UsageError(`the header ${JSON.stringify(name)} holds a control character (such as a line break) in its name or value`);
    }
  }
}

/** The service's answer to an expired (not revoked) OAuth access token. */
/**
 * An OAuth token the service no longer takes: expired, or (with a shared store) revoked, which is
 * what a parallel run's refresh does to the token this run still holds.
 */
function isStaleOAuthAnswer(body: unknown, revokedToo: boolean): boolean {
  const record = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const reason = String(record.error_description ?? '');
  return record.error === 'invalid_token' && (/expired/i.test(reason) || (revokedToo && /revoked/i.test(reason)));
}

function refreshGrant(refreshToken: string, clientId: string | undefined): Record<string, string> {
  const grant: Record<string, string> = { grant_type: 'refresh_token', refresh_token: refreshToken };
  if (clientId) grant.client_id = clientId;
  return grant;
}

/** The new pair from the token endpoint's answer; exit 3 when there is none. */
function refreshedPair(status: number, text: string, previous: StoredCredentials): StoredCredentials {
  let record: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object') record = parsed as Record<string, unknown>;
  } catch {
    // Not JSON: the status says what went wrong.
  }
  if (status !== 200 || typeof record.access_token !== 'string') {
    const reason = typeof record.error === 'string' ? record.error : `HTTP ${status}`;
    // The message is shown in places no run-wide redaction reaches (`auth status` prints it as data).
    throw refreshFailed(redactSecrets(reason, [previous.token, previous.refreshToken]));
  }
  return {
    token: record.access_token,
    refreshToken: typeof record.refresh_token === 'string' ? record.refresh_token : previous.refreshToken,
  };
}

function refreshFailed(reason: string): SvcError {
  return new SvcError(
    `the OAuth access token expired and refreshing it failed (${reason}); log in again with \`svc auth login\``,
    ExitCode.unauthenticated,
  );
}

/** Sends the refresh grant through the client's own request path; answers with any status. */
export type PostGrant = (grant: Record<string, string>) => Promise<{ status: number; data: string }>;

export interface CredentialKeeperOptions {
  store?: CredentialStore;
  onRefreshed?: (credentials: Credentials) => void | Promise<void>;
  postGrant: PostGrant;
}

/** The credentials a client sends, and their renewal when an OAuth access token expires. */
export class CredentialKeeper {
  private current?: Credentials;
  private readonly options: CredentialKeeperOptions;
  /** One refresh at a time: concurrent requests that all saw the expired token share it. */
  private refreshing?: Promise<void>;

  constructor(credentials: Credentials | undefined, options: CredentialKeeperOptions) {
    assertSendable(credentials);
    this.current = credentials;
    this.options = options;
  }

  get credentials(): Credentials | undefined {
    return this.current;
  }

  headers(): Record<string, string> {
    return authHeaders(this.current);
  }

  /** Every credential a request carried, so that an error body echoing one never prints it. */
  secrets(tokenSent: string | undefined, extraHeaders: Record<string, string> = {}): string[] {
    const own = [tokenSent, this.current?.token, this.current?.refreshToken];
    const extra = Object.entries(extraHeaders)
      .filter(([name]) => isTokenHeader(name))
      .map(([, value]) => value.replace(/^bearer\s+/i, ''));
    return [...own, ...extra].filter((s): s is string => Boolean(s));
  }

  canRenew(tokenSent: string | undefined, errorBody: unknown): tokenSent is string {
    const creds = this.current;
    if (tokenSent === undefined || creds?.type !== 'oauth' || !(creds.refreshToken || this.options.store)) return false;
    return isStaleOAuthAnswer(errorBody, Boolean(this.options.store));
  }

  renew(tokenSent: string): Promise<void> {
    if (this.current?.token === tokenSent) {
      this.refreshing ??= this.renewNow(tokenSent).finally(() => {
        this.refreshing = undefined;
      });
    }
    return this.refreshing ?? Promise.resolve();
  }

  /** Through the shared store when there is one, so that one process refreshes and the others pick it up. */
  private async renewNow(tokenSent: string): Promise<void> {
    const own = this.current as Credentials;
    const store = this.options.store;
    const pair = store
      ? await store.update(async (stored) => (stored && stored.token !== tokenSent ? stored : await this.refreshAtServer(stored ?? own)))
      : await this.refreshAtServer(own);
    if (!pair) throw refreshFailed('the stored credentials are gone');
    this.current = { ...own, token: pair.token, refreshToken: pair.refreshToken ?? own.refreshToken };
    if (!store) await this.options.onRefreshed?.(this.current);
  }

  private async refreshAtServer(pair: StoredCredentials): Promise<StoredCredentials> {
    if (!pair.refreshToken) throw refreshFailed('no refresh token');
    let answer: { status: number; data: string };
    try {
      answer = await this.options.postGrant(refreshGrant(pair.refreshToken, this.current?.oauthClientId));
    } catch (error) {
      if (error instanceof InterruptedError) throw error;
      throw refreshFailed(redactSecrets(error instanceof Error ? error.message : String(error), [pair.token, pair.refreshToken]));
    }
    return refreshedPair(answer.status, answer.data, pair);
  }
}
