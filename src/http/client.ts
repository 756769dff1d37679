import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import type { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { EnvHttpProxyAgent, type Dispatcher } from 'undici';
import { ExitCode, InterruptedError, SvcError } from '../errors.js';
import { ApiError, createApiError } from './api-error.js';
import { isCredentialHeader } from './credential-headers.js';
import { encodeQuery, type QueryParams } from './encode.js';
import { parseLinkHeader } from './link.js';
import { isRetryable, retryDelayMs, type RetryCause } from './retry-policy.js';

export type TokenType = 'private' | 'oauth' | 'job';

export interface Credentials {
  token: string;
  type: TokenType;
  refreshToken?: string;
  oauthClientId?: string;
}

export interface HttpClientOptions {
  /** Instance URL (scheme, host, optional prefix), without `/api/v4`. */
  baseUrl: string;
  credentials?: Credentials;
  sudo?: string;
  timeoutMs?: number;
  retries?: number;
  /** Upper bound on the time one request may spend waiting between its retries. */
  retryBudgetMs?: number;
  caFile?: string;
  userAgent: string;
  debug?: (line: string) => void;
  warn?: (line: string) => void;
  onCredentialsRefreshed?: (credentials: Credentials) => void | Promise<void>;
  signal?: AbortSignal;
}

export interface RequestBody {
  contentType: string;
  length?: number;
  /** Called once per attempt, so a retried or redirected request re-sends a fresh body. */
  create: () => string | Buffer | Readable;
}

export interface ApiRequest {
  method?: string;
  /** Path under `/api/v4` (already encoded with `apiPath`), or an absolute URL on the same origin. */
  path: string;
  query?: QueryParams;
  json?: unknown;
  body?: RequestBody;
  headers?: Record<string, string>;
  responseType?: 'json' | 'text' | 'stream' | 'buffer' | 'none';
  /** Return these statuses instead of throwing (the generic `svc api` shows every answer). */
  acceptStatus?: (status: number) => boolean;
}

export interface ApiResponse<T> {
  status: number;
  headers: Record<string, string>;
  data: T;
  url: string;
}

export interface Page<T> {
  items: T[];
  headers: Record<string, string>;
  url: string;
  hasNext: boolean;
}

export interface PaginateOptions<T> {
  /** Where to continue with keyset paging after the service refuses an offset past its maximum. */
  keysetFallback?: (lastItem: T) => { path: string; query: QueryParams } | undefined;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;
const LOOPBACK_HOST = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

let sharedDispatcher: { key: string; dispatcher: Dispatcher } | undefined;

/** One keep-alive pool per origin for the whole process, whichever client asks. */
function dispatcherFor(caFile: string | undefined): Dispatcher {
  const key = caFile ?? '';
  if (sharedDispatcher?.key === key) return sharedDispatcher.dispatcher;
  let ca: string[] | undefined;
  if (caFile) {
    let pem: string;
    try {
      pem = readFileSync(caFile, 'utf8');
    } catch (error) {
      throw new SvcError(`cannot read CA file ${caFile}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, ExitCode.usage);
    }
    if (!pem.includes('-----BEGIN CERTIFICATE-----')) {
      throw new SvcError(`CA file ${caFile} holds no PEM certificate`, ExitCode.usage);
    }
    ca = [...rootCertificates, pem];
  }
  // `connect` reaches direct connections; `requestTls` the target behind a CONNECT proxy tunnel.
  const dispatcher = new EnvHttpProxyAgent({
    keepAliveTimeout: 30_000,
    connect: ca ? { ca } : {},
    requestTls: ca ? { ca } : {},
  });
  sharedDispatcher = { key, dispatcher };
  return dispatcher;
}

export function normalizeBaseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new SvcError(`invalid URL '${raw}': expected something like https://gitlab.example.com`, ExitCode.usage);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SvcError(`invalid URL '${raw}': only http and https are supported`, ExitCode.usage);
  }
  if (url.username || url.password) {
    throw new SvcError('invalid URL: put credentials in a token, not in the URL', ExitCode.usage);
  }
  url.search = '';
  url.hash = '';
  url.pathname = url.pathname.replace(/\/+$/, '').replace(/\/api\/v4$/, '');
  return url;
}

/** Origin plus any path prefix, without a trailing slash (a bare origin's pathname is `/`). */
export function instanceRoot(base: URL): string {
  return `${base.origin}${base.pathname.replace(/\/+$/, '')}`;
}

export function redactUrl(url: string): string {
  return url.replace(/([?&](?:private_token|access_token|job_token|refresh_token)=)[^&]*/gi, '$1[redacted]');
}

export class HttpClient {
  readonly baseUrl: URL;
  readonly apiRoot: string;
  private credentials?: Credentials;
  private readonly options: HttpClientOptions;
  private readonly dispatcher: Dispatcher;
  private warnedInsecure = false;
  private requestCount = 0;
  /** One refresh at a time: concurrent requests that all saw the expired token share it. */
  private refreshing?: Promise<void>;

  constructor(options: HttpClientOptions) {
    this.options = options;
    this.baseUrl = normalizeBaseUrl(options.baseUrl);
    this.apiRoot = `${instanceRoot(this.baseUrl)}/api/v4`;
    this.credentials = options.credentials;
    this.dispatcher = dispatcherFor(options.caFile);
  }

  get tokenType(): TokenType | undefined {
    return this.credentials?.type;
  }

  /** Requests sent so far (every attempt counts), for `--debug` figures. */
  get requestsSent(): number {
    return this.requestCount;
  }

  url(path: string, query?: QueryParams): string {
    const base = /^https?:\/\//i.test(path) ? path : `${this.apiRoot}${path.startsWith('/') ? '' : '/'}${path}`;
    const qs = query ? encodeQuery(query) : '';
    if (!qs) return base;
    return `${base}${base.includes('?') ? '&' : '?'}${qs}`;
  }

  async request<T = unknown>(req: ApiRequest): Promise<ApiResponse<T>> {
    const originalMethod = (req.method ?? 'GET').toUpperCase();
    let method = originalMethod;
    let url = new URL(this.url(req.path, req.query));
    this.assertSameOrigin(url, 'request');
    let sendCredentials = true;
    let dropBody = false;
    let hops = 0;
    let attempt = 0;
    let waitedMs = 0;
    let refreshed = false;
    const retries = this.options.retries ?? 4;
    const budget = this.options.retryBudgetMs ?? 120_000;

    for (;;) {
      attempt++;
      this.warnIfInsecure(url, sendCredentials);
      const started = Date.now();
      const tokenSent = this.credentials?.token;
      this.debug(`→ ${method} ${this.loggable(url)} (attempt ${attempt}/${retries + 1})`);
      let res: Dispatcher.ResponseData;
      try {
        res = await this.send(url, method, req, sendCredentials, dropBody);
      } catch (error) {
        this.throwIfAborted();
        const code = networkCode(error);
        this.debug(`← ${code} after ${Date.now() - started} ms (attempt ${attempt})`);
        const cause: RetryCause = { kind: 'network', code };
        if (attempt <= retries && isRetryable(method, cause)) {
          const delay = retryDelayMs({ attempt, nowMs: Date.now() });
          if (waitedMs + delay <= budget) {
            this.debug(`retry ${attempt}/${retries} in ${delay} ms after ${code}`);
            await this.sleep(delay);
            waitedMs += delay;
            continue;
          }
        }
        throw new SvcError(`${method} ${this.display(url)} failed: ${describeNetworkError(error, code)}`, ExitCode.failure);
      }
      const status = res.statusCode;
      const headers = flattenHeaders(res.headers);
      this.debug(`← ${status} in ${Date.now() - started} ms (attempt ${attempt})`);

      if (REDIRECT_STATUSES.has(status) && headers.location) {
        await res.body.dump();
        const next = new URL(headers.location, url);
        hops++;
        if (hops > MAX_REDIRECTS) {
          throw new SvcError(`${originalMethod} ${this.display(url)} failed: more than ${MAX_REDIRECTS} redirects`, ExitCode.failure);
        }
        const readOnly = method === 'GET' || method === 'HEAD';
        if (!readOnly) {
          // Following a redirect must never turn a write into a read, nor carry a write to another host.
          const sameMethod = status === 301 || status === 307 || status === 308;
          if (!sameMethod || next.origin !== url.origin) {
            throw new SvcError(
              `${method} ${this.display(url)} was redirected (${status}) to ${this.loggable(next)}; not followed for a ${method}`,
              ExitCode.failure,
            );
          }
        } else if (status === 303) {
          method = 'GET';
        }
        if (next.origin !== this.baseUrl.origin) sendCredentials = false;
        if (method === 'GET' && originalMethod !== 'GET') dropBody = true;
        this.debug(`redirect ${status} → ${this.loggable(next)}${sendCredentials ? '' : ' (credentials not forwarded)'}`);
        url = next;
        attempt = 0;
        continue;
      }

      const accepted = req.acceptStatus?.(status) ?? false;
      if (status >= 400 && !accepted) {
        const { text, body } = await readErrorBody(res);
        if (status === 401 && !refreshed && this.canRefresh(body)) {
          refreshed = true;
          if (this.credentials?.token === tokenSent) {
            this.refreshing ??= this.refreshOAuth().finally(() => {
              this.refreshing = undefined;
            });
          }
          await this.refreshing;
          attempt = 0;
          continue;
        }
        const cause: RetryCause = { kind: 'status', status };
        if (attempt <= retries && isRetryable(method, cause)) {
          const delay = retryDelayMs({
            attempt,
            retryAfter: headers['retry-after'],
            rateLimitReset: headers['ratelimit-reset'],
            nowMs: Date.now(),
          });
          if (waitedMs + delay <= budget) {
            this.debug(`retry ${attempt}/${retries} in ${delay} ms after ${status}`);
            await this.sleep(delay);
            waitedMs += delay;
            continue;
          }
          this.debug(`not retrying: waiting ${delay} ms would pass the retry budget of ${budget} ms`);
        }
        const error = createApiError(status, body, {
          method: originalMethod,
          path: this.display(url),
          tokenType: this.credentials?.type,
          hasToken: Boolean(this.credentials),
          sudo: this.options.sudo,
        });
        error.headers = headers;
        error.text = text;
        throw error;
      }
      const data = (await this.readBody(res, req.responseType ?? 'json', method, url, headers)) as T;
      // undici frees the connection one turn after the body ends; a request sent sooner opens a second one.
      if (req.responseType !== 'stream') await nextTurn();
      return { status, headers, data, url: url.href };
    }
  }

  /** A request whose answer must be one JSON object (a resource), not a list, text or nothing. */
  async record<T>(req: ApiRequest): Promise<T> {
    const res = await this.request<unknown>(req);
    if (res.data === null || typeof res.data !== 'object' || Array.isArray(res.data)) {
      const method = (req.method ?? 'GET').toUpperCase();
      throw new SvcError(
        `${method} ${this.display(new URL(res.url))} returned ${describeJson(res.data)} where a single record was expected`,
        ExitCode.failure,
      );
    }
    return res.data as T;
  }

  /** Lazily walks `Link: rel="next"` as the server wrote it; the caller stops whenever it has enough. */
  async *pages<T>(path: string, query?: QueryParams, options: PaginateOptions<T> = {}): AsyncGenerator<Page<T>> {
    let next: string | undefined = this.url(path, query);
    let lastItem: T | undefined;
    const seen = new Set<string>();
    while (next) {
      seen.add(next);
      let res: ApiResponse<unknown>;
      try {
        res = await this.request<unknown>({ path: next });
      } catch (error) {
        const fallback = lastItem !== undefined && isMaxOffsetError(error) ? options.keysetFallback?.(lastItem) : undefined;
        if (!fallback) throw error;
        next = this.url(fallback.path, fallback.query);
        this.debug('offset limit reached; continuing with keyset pagination');
        continue;
      }
      if (!Array.isArray(res.data)) {
        throw new SvcError(
          `GET ${this.display(new URL(res.url))} returned ${describeJson(res.data)} where a list was expected`,
          ExitCode.failure,
        );
      }
      const items = res.data as T[];
      if (items.length) lastItem = items[items.length - 1];
      const link = parseLinkHeader(res.headers.link).next;
      let nextUrl: string | undefined;
      if (link && items.length) {
        const resolved = new URL(link, res.url);
        this.assertSameOrigin(resolved, 'pagination link');
        nextUrl = resolved.href;
        if (seen.has(nextUrl)) {
          throw new SvcError(`the server's next-page link repeats a page already read (${redactUrl(nextUrl)})`, ExitCode.failure);
        }
      }
      yield { items, headers: res.headers, url: res.url, hasNext: Boolean(nextUrl) };
      next = nextUrl;
    }
  }

  private async send(
    url: URL,
    method: string,
    req: ApiRequest,
    sendCredentials: boolean,
    dropBody: boolean,
  ): Promise<Dispatcher.ResponseData> {
    this.requestCount++;
    const headers: Record<string, string> = {
      'user-agent': this.options.userAgent,
      accept: 'application/json, */*;q=0.5',
    };
    if (sendCredentials) {
      Object.assign(headers, this.authHeaders());
      if (this.options.sudo) headers.sudo = this.options.sudo;
    }
    let body: string | Buffer | Readable | undefined;
    if (!dropBody && req.json !== undefined) {
      body = JSON.stringify(req.json);
      headers['content-type'] = 'application/json';
    } else if (!dropBody && req.body) {
      body = req.body.create();
      headers['content-type'] = req.body.contentType;
      if (req.body.length !== undefined) headers['content-length'] = String(req.body.length);
    }
    for (const [name, value] of Object.entries(req.headers ?? {})) {
      if (!sendCredentials && isCredentialHeader(name)) continue;
      headers[name.toLowerCase()] = value;
    }
    const timeout = this.options.timeoutMs ?? 30_000;
    return this.dispatcher.request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: method as Dispatcher.HttpMethod,
      headers,
      body,
      headersTimeout: timeout,
      bodyTimeout: timeout,
      signal: this.options.signal,
    });
  }

  private authHeaders(): Record<string, string> {
    const creds = this.credentials;
    if (!creds) return {};
    if (creds.type === 'oauth') return { authorization: `Bearer ${creds.token}` };
    if (creds.type === 'job') return { 'job-token': creds.token };
    return { 'private-token': creds.token };
  }

  private canRefresh(body: unknown): boolean {
    const creds = this.credentials;
    if (creds?.type !== 'oauth' || !creds.refreshToken) return false;
    const record = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
    return record.error === 'invalid_token' && /expired/i.test(String(record.error_description ?? ''));
  }

  private async refreshOAuth(): Promise<void> {
    const creds = this.credentials as Credentials;
    const tokenUrl = `${instanceRoot(this.baseUrl)}/oauth/token`;
    this.debug(`OAuth access token expired; refreshing at ${tokenUrl}`);
    const body: Record<string, string> = { grant_type: 'refresh_token', refresh_token: creds.refreshToken as string };
    if (creds.oauthClientId) body.client_id = creds.oauthClientId;
    let res: Dispatcher.ResponseData;
    try {
      this.requestCount++;
      res = await this.dispatcher.request({
        origin: this.baseUrl.origin,
        path: new URL(tokenUrl).pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': this.options.userAgent, accept: 'application/json' },
        body: JSON.stringify(body),
        headersTimeout: this.options.timeoutMs ?? 30_000,
        bodyTimeout: this.options.timeoutMs ?? 30_000,
        signal: this.options.signal,
      });
    } catch (error) {
      this.throwIfAborted();
      throw new SvcError(`OAuth token refresh failed: ${describeNetworkError(error, networkCode(error))}`, ExitCode.unauthenticated);
    }
    const { body: data } = await readErrorBody(res);
    const record = data && typeof data === 'object' ? (data as Record<string, unknown>) : {};
    if (res.statusCode !== 200 || typeof record.access_token !== 'string') {
      const reason = typeof record.error === 'string' ? record.error : `HTTP ${res.statusCode}`;
      throw new SvcError(
        `the OAuth access token expired and refreshing it failed (${reason}); log in again with \`svc auth login\``,
        ExitCode.unauthenticated,
      );
    }
    this.credentials = {
      ...creds,
      token: record.access_token,
      refreshToken: typeof record.refresh_token === 'string' ? record.refresh_token : creds.refreshToken,
    };
    await this.options.onCredentialsRefreshed?.(this.credentials);
  }

  private async readBody(
    res: Dispatcher.ResponseData,
    type: NonNullable<ApiRequest['responseType']>,
    method: string,
    url: URL,
    headers: Record<string, string>,
  ): Promise<unknown> {
    if (type === 'stream') return res.body;
    if (type === 'buffer') return Buffer.from(await res.body.arrayBuffer());
    const text = await res.body.text();
    if (type === 'none') return undefined;
    if (type === 'text') return text;
    if (method === 'HEAD' || res.statusCode === 204 || text.length === 0) return undefined;
    try {
      return JSON.parse(text);
    } catch {
      const contentType = headers['content-type'] ?? 'no content type';
      const what = /json/i.test(contentType)
        ? 'a truncated or malformed JSON body'
        : `${contentType.split(';')[0]} instead of JSON${/html/i.test(contentType) ? ' (an HTML page, probably from a proxy)' : ''}`;
      throw new SvcError(`${method} ${this.display(url)} returned ${what}`, ExitCode.failure);
    }
  }

  private assertSameOrigin(url: URL, what: string): void {
    if (url.origin !== this.baseUrl.origin) {
      throw new SvcError(
        `the ${what} points to another host (${url.origin}, not ${this.baseUrl.origin}); refusing to send credentials there`,
        ExitCode.failure,
      );
    }
  }

  private warnIfInsecure(url: URL, sendCredentials: boolean): void {
    if (this.warnedInsecure || !sendCredentials || !this.credentials) return;
    if (url.protocol === 'http:' && !LOOPBACK_HOST.test(url.hostname)) {
      this.warnedInsecure = true;
      this.options.warn?.(`warning: ${url.host} is plain http; the token travels unencrypted`);
    }
  }

  /** URLs on other hosts (pre-signed object-storage links) may carry signatures in the query: never log it. */
  private loggable(url: URL): string {
    if (url.origin === this.baseUrl.origin) return redactUrl(url.href);
    return `${url.origin}${url.pathname}${url.search ? '?[redacted]' : ''}`;
  }

  private display(url: URL): string {
    const path = url.href.startsWith(this.apiRoot) ? url.href.slice(this.apiRoot.length) : url.href;
    return redactUrl(path.split('?')[0] || '/');
  }

  private debug(line: string): void {
    this.options.debug?.(line);
  }

  private throwIfAborted(): void {
    if (this.options.signal?.aborted) throw new InterruptedError();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const signal = this.options.signal;
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
}

export function isMaxOffsetError(error: unknown): boolean {
  if (!(error instanceof ApiError) || error.status !== 405) return false;
  const body = error.body as Record<string, unknown> | undefined;
  return typeof body?.error === 'string' && /maximum allowed offset/i.test(body.error);
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

async function readErrorBody(res: Dispatcher.ResponseData): Promise<{ text: string; body: unknown }> {
  let text: string;
  try {
    text = await res.body.text();
  } catch {
    return { text: '', body: undefined };
  }
  if (!text) return { text, body: undefined };
  try {
    return { text, body: JSON.parse(text) };
  } catch {
    return { text, body: text };
  }
}

function networkCode(error: unknown): string {
  const err = error as { code?: string; cause?: { code?: string }; name?: string };
  return err?.code ?? err?.cause?.code ?? err?.name ?? 'network error';
}

function describeNetworkError(error: unknown, code: string): string {
  const known: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ECONNRESET: 'connection reset by the server',
    ENOTFOUND: 'host not found',
    EAI_AGAIN: 'host name lookup failed',
    ETIMEDOUT: 'connection timed out',
    UND_ERR_SOCKET: 'the server closed the connection',
    UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
    UND_ERR_HEADERS_TIMEOUT: 'no answer within the timeout',
    UND_ERR_BODY_TIMEOUT: 'the response stalled past the timeout',
    UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'the response ended early',
    UND_ERR_CLOSED: 'the connection closed',
    CERT_HAS_EXPIRED: 'the TLS certificate has expired',
    DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed TLS certificate (pass --ca-file)',
    SELF_SIGNED_CERT_IN_CHAIN: 'self-signed certificate in the chain (pass --ca-file)',
    UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'unable to verify the TLS certificate (pass --ca-file)',
    ERR_TLS_CERT_ALTNAME_INVALID: "the TLS certificate does not match the host name",
  };
  if (known[code]) return `${known[code]} (${code})`;
  const message = (error as Error)?.message;
  return message ? `${message.split('\n')[0]} (${code})` : code;
}

function describeJson(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'an empty body';
  if (Array.isArray(value)) return 'a JSON array';
  if (typeof value === 'object') return 'a JSON object';
  return `a JSON ${typeof value}`;
}
