import { readFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { rootCertificates } from 'node:tls';
import type { Dispatcher } from 'undici';
import { EnvHttpProxyAgent } from './undici.js';
import { ExitCode, InterruptedError, SvcError, UsageError } from '../errors.js';

export const PEM_CERTIFICATE = '-----BEGIN CERTIFICATE-----';

export function hasPemCertificate(text: string): boolean {
  return text.includes(PEM_CERTIFICATE);
}

/** The CA bundle to trust besides the system roots; a usage error when it is unreadable or holds no certificate. */
export function readCaFile(path: string): string {
  let pem: string;
  try {
    pem = readFileSync(path, 'utf8');
  } catch (error) {
    throw new SvcError(`cannot read CA file ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, ExitCode.usage);
  }
  if (!hasPemCertificate(pem)) throw new SvcError(`CA file ${path} holds no PEM certificate`, ExitCode.usage);
  return pem;
}

let sharedDispatcher: { key: string; dispatcher: Dispatcher } | undefined;

/** One keep-alive pool per origin for the whole process, whichever client asks. */
export function dispatcherFor(caFile: string | undefined): Dispatcher {
  const key = caFile ?? '';
  if (sharedDispatcher?.key === key) return sharedDispatcher.dispatcher;
  const ca = caFile ? [...rootCertificates, readCaFile(caFile)] : undefined;
  // `connect` reaches direct connections; `requestTls` the target behind a CONNECT proxy tunnel.
  const dispatcher = new EnvHttpProxyAgent({
    keepAliveTimeout: 30_000,
    connect: ca ? { ca } : {},
    requestTls: ca ? { ca } : {},
  });
  sharedDispatcher = { key, dispatcher };
  return dispatcher;
}

export interface Outgoing {
  origin: string;
  /** Path and query exactly as sent: never normalised, so `%2E%2E` stays a name, not a step up. */
  path: string;
  method: string;
  headers: Record<string, string>;
  body?: string | Buffer | Readable;
}

/** The connection or the bytes on it failed before a whole answer arrived; the retry policy decides. */
export class NetworkFailure extends Error {
  readonly code: string;

  constructor(code: string, cause: unknown) {
    super(describeNetworkError(code, cause));
    this.name = 'NetworkFailure';
    this.code = code;
  }
}

export interface AttemptLimits {
  timeoutMs: number;
  signal?: AbortSignal;
}

/** What `read` made of the answer; `open` is a body left for the caller to consume. */
export interface ReadResult<T> {
  value: T;
  open?: Readable;
}

/**
 * One attempt: sends the request and reads the answer with `read`, headers and body within one
 * deadline (a server dripping a byte a second cannot outlive it). A body left open for the caller
 * ends the deadline at the headers, keeps undici's per-chunk timeout, and still hears the signal.
 */
export async function attempt<T>(
  dispatcher: Dispatcher,
  out: Outgoing,
  limits: AttemptLimits,
  read: (res: Dispatcher.ResponseData) => Promise<ReadResult<T>>,
): Promise<{ status: number; headers: Record<string, string>; value: T }> {
  const { signal, timeoutMs } = limits;
  if (signal?.aborted) throw new InterruptedError();
  const controller = new AbortController();
  // The reason reaches a body left open too: its reader ends with InterruptedError (exit 130).
  const onAbort = () => controller.abort(new InterruptedError());
  signal?.addEventListener('abort', onAbort, { once: true });
  let phase: 'headers' | 'body' | undefined = 'headers';
  const timer = setTimeout(() => {
    if (phase === undefined) return;
    controller.abort();
  }, timeoutMs);
  const timedOut = () => controller.signal.aborted && !signal?.aborted;
  let keepListening = false;
  try {
    const res = await dispatcher.request({
      origin: out.origin,
      path: out.path,
      method: out.method as Dispatcher.HttpMethod,
      headers: out.headers,
      body: out.body,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal: controller.signal,
    });
    phase = 'body';
    const { value, open } = await read(res);
    phase = undefined;
    // A signal that arrived while a large body was parsed still ends the request.
    if (signal?.aborted) throw new InterruptedError();
    if (open) {
      keepListening = true;
      open.once('close', () => signal?.removeEventListener('abort', onAbort));
    }
    return { status: res.statusCode, headers: flattenHeaders(res.headers), value };
  } catch (error) {
    if (signal?.aborted) throw new InterruptedError();
    if (timedOut()) throw new NetworkFailure(phase === 'headers' ? 'UND_ERR_HEADERS_TIMEOUT' : 'SVC_ATTEMPT_TIMEOUT', error);
    if (error instanceof SvcError) throw error;
    const code = networkCode(error);
    // undici refuses what no server could be sent (a header name with a space, a value past Latin-1).
    if (code === 'UND_ERR_INVALID_ARG') throw new UsageError(`the request cannot be sent: ${(error as Error).message}`);
    throw new NetworkFailure(code, error);
  } finally {
    phase = undefined;
    clearTimeout(timer);
    if (!keepListening) signal?.removeEventListener('abort', onAbort);
  }
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function networkCode(error: unknown): string {
  const err = error as { code?: string; cause?: { code?: string }; name?: string };
  return err?.code ?? err?.cause?.code ?? err?.name ?? 'network error';
}

const NETWORK_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset by the server',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  ETIMEDOUT: 'connection timed out',
  EPIPE: 'the server closed the connection',
  UND_ERR_SOCKET: 'the server closed the connection',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  UND_ERR_HEADERS_TIMEOUT: 'no answer within the timeout',
  UND_ERR_BODY_TIMEOUT: 'the response stalled past the timeout',
  SVC_ATTEMPT_TIMEOUT: 'the response did not complete within the timeout',
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'the response ended early',
  UND_ERR_CLOSED: 'the connection closed',
  HPE_INVALID_CONSTANT: 'the server sent a malformed HTTP response',
  CERT_HAS_EXPIRED: 'the TLS certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed TLS certificate (pass --ca-file)',
  SELF_SIGNED_CERT_IN_CHAIN: 'self-signed certificate in the chain (pass --ca-file)',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'unable to verify the TLS certificate (pass --ca-file)',
  ERR_TLS_CERT_ALTNAME_INVALID: 'the TLS certificate does not match the host name',
};

function describeNetworkError(code: string, error: unknown): string {
  const known = NETWORK_ERRORS[code];
  if (known) return `${known} (${code})`;
  const message = (error as Error)?.message;
  return message ? `${message.split('\n')[0]} (${code})` : code;
}

/** Waits between attempts; a signal ends the wait at once. */
export function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new InterruptedError());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new InterruptedError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
