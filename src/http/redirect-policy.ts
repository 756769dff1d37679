/** Which redirects are followed, and how, as a pure function of the answer and the request so far. */
export const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
export const MAX_REDIRECTS = 5;

export interface RedirectInput {
  status: number;
  /** The method of the request being redirected (a 303 may already have turned it into a GET). */
  method: string;
  /** Redirects already followed for this request. */
  hops: number;
  fromOrigin: string;
  toOrigin: string;
  /** The instance's origin: credentials go nowhere else. */
  instanceOrigin: string;
  /** False once a hop has left the instance: credentials are not sent again, even back on it. */
  sendingCredentials: boolean;
}

export type RedirectDecision =
  { follow: true; method: string; sendCredentials: boolean } | { follow: false; reason: 'too-many' | 'write-not-followed' };

export function redirectDecision(input: RedirectInput): RedirectDecision {
  if (input.hops >= MAX_REDIRECTS) return { follow: false, reason: 'too-many' };
  const readOnly = input.method === 'GET' || input.method === 'HEAD';
  // Following a redirect must never turn a write into a read, nor carry a write to another host.
  if (!readOnly) {
    const sameMethod = input.status === 301 || input.status === 307 || input.status === 308;
    if (!sameMethod || input.toOrigin !== input.fromOrigin) return { follow: false, reason: 'write-not-followed' };
  }
  const method = readOnly && input.status === 303 ? 'GET' : input.method;
  return { follow: true, method, sendCredentials: input.sendingCredentials && input.toOrigin === input.instanceOrigin };
}
