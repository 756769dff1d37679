const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'private-token', 'job-token', 'sudo', 'cookie', 'set-cookie']);

/** Headers that carry or set credentials: never forwarded to another origin, never printed. */
export function isCredentialHeader(name: string): boolean {
  return CREDENTIAL_HEADERS.has(name.toLowerCase());
}

/** Headers that carry an API token, as `svc api -H` may send one. */
export function isTokenHeader(name: string): boolean {
  return /^(authorization|private-token|job-token)$/i.test(name);
}
