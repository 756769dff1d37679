const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'private-token', 'job-token', 'sudo', 'cookie', 'set-cookie']);

/** Headers that carry or set credentials: never forwarded to another origin, never printed. */
export function isCredentialHeader(name: string): boolean {
  return CREDENTIAL_HEADERS.has(name.toLowerCase());
}

/** Headers that carry an API token, as `svc api -H` may send one. */
export function isTokenHeader(name: string): boolean {
  return /^(authorization|private-token|job-token)$/i.test(name);
}

/** Whose credential a request carried: a CI job token, a user's token (personal, project, group or OAuth), or none. */
export type CredentialKind = 'job' | 'user' | 'none';

/** The service takes a user's token before a job token when a request carries both. */
export function credentialKind(headers: Record<string, string>): CredentialKind {
  const names = Object.keys(headers).map((name) => name.toLowerCase());
  if (names.includes('private-token') || names.includes('authorization')) return 'user';
  return names.includes('job-token') ? 'job' : 'none';
}
