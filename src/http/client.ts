import { setMaxListeners } from 'node:events';
import type { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import { ExitCode, SvcError } from '../errors.js';
import { createApiError } from './api-error.js';
import { assertSendable, CredentialKeeper } from './auth.js';
import { readAnswer, type Answer } from './body.js';
import { credentialKind, isCredentialHeader, isTokenHeader, type CredentialKind } from './credential-headers.js';
import { encodeQuery, type QueryParams } from './encode.js';
import { describeJson, paginate } from './pagination.js';
import { MAX_REDIRECTS, redirectDecision } from './redirect-policy.js';
import { remainingSignal, reportRateLimit } from './rate-limit-signal.js';
import { planRetry, type RetryCause } from './retry-policy.js';
import { Throttle, type ThrottleClock } from './throttle.js';
import { attempt, dispatcherFor, NetworkFailure, pause } from './transport.js';
import {
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_RETRIES,
  DEFAULT_RETRY_BUDGET_MS,
  DEFAULT_TIMEOUT_MS,
  type ApiRequest,
  type ApiResponse,
  type CredentialStore,
  type Credentials,
  type Page,
  type PaginateOptions,
  type TokenType,
} from './types.js';
import {
  displayPath,
  instanceRoot,
  loggableUrl,
  normalizeBaseUrl,
  linkTarget,
  requestTarget,
  resolveReference,
  targetHref,
  type Target,
} from './urls.js';

export type {
  ApiRequest,
  ApiResponse,
  Credentials,
  CredentialStore,
  Page,
  PaginateOptions,
  RequestBody,
  StoredCredentials,
  TokenType,
} from './types.js';
export { isMaxOffsetError } from './api-error.js';
export { instanceRoot, normalizeBaseUrl, redactUrl } from './urls.js';

export interface HttpClientOptions {
  /** Instance URL (scheme, host, optional prefix), without `/api/v4`. */
  baseUrl: string;
  credentials?: Credentials;
  sudo?: string;
  /** Bound on one attempt, headers and whole body (default 30 s). */
  timeoutMs?: number;
  retries?: number;
  /** Upper bound on the time one request may spend waiting between its retries. */
  retryBudgetMs?: number;
  /** Largest JSON or text answer read into memory (default 64 MiB); streamed bodies are not bounded. */
  maxBodyBytes?: number;
  caFile?: string;
  userAgent: string;
  debug?: (line: string) => void;
  warn?: (line: string) => void;
  /** Lines for a person watching: a retry that waits long enough to be noticed. */
  notice?: (line: string) => void;
  /** Shared, serialised storage of OAuth credentials; without it a refresh is reported through `onCredentialsRefreshed`. */
  credentialStore?: CredentialStore;
  onCredentialsRefreshed?: (credentials: Credentials) => void | Promise<void>;
  signal?: AbortSignal;
}

const LOOPBACK_HOST = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/** Retries that wait at least this long are announced (the usual jittered back-off stays quiet). */
const NOTICE_RETRY_MS = 3000;

export class HttpClient {
  readonly baseUrl: URL;
  readonly apiRoot: string;
  private readonly auth: CredentialKeeper;
  private readonly options: HttpClientOptions;
  private readonly dispatcher: Dispatcher;
  /** Origins already judged for the plain-http warning: a listing asks once, not once a page. */
  private readonly judgedOrigins = new Set<string>();
  private requestCount = 0;
  private sharedThrottle?: Throttle;

  constructor(options: HttpClientOptions) {
    this.options = options;
    this.baseUrl = normalizeBaseUrl(options.baseUrl);
    this.apiRoot = `${instanceRoot(this.baseUrl)}/api/v4`;
    this.dispatcher = dispatcherFor(options.caFile);
    // Each attempt and pause listens to the caller's one signal: requests in parallel are no leak.
    if (options.signal) setMaxListeners(0, options.signal);
    assertSendable(undefined, options.sudo === undefined ? {} : { Sudo: options.sudo });
    this.auth = new CredentialKeeper(options.credentials, {
      store: options.credentialStore,
      onRefreshed: options.onCredentialsRefreshed,
      postGrant: (grant) => {
        const tokenUrl = `${instanceRoot(this.baseUrl)}/oauth/token`;
        this.debug(`OAuth access token expired; refreshing at ${tokenUrl}`);
        const target = { origin: this.baseUrl.origin, path: new URL(tokenUrl).pathname };
        return this.exchange<string>(
          target,
          { path: tokenUrl, method: 'POST', json: grant, responseType: 'text', acceptStatus: () => true },
          false,
        );
      },
    });
  }

  get tokenType(): TokenType | undefined {
    return this.auth.credentials?.type;
  }

  /** Requests sent so far (every attempt counts), for `--debug` figures. */
  get requestsSent(): number {
    return this.requestCount;
  }

  /**
   * The client's one throttle, which every run of many requests at once on it takes its slots from
   * (a parallel listing, a pool of deletions, an audit): a 429 slows them all. The first run that
   * asks for it sets its width.
   */
  throttle(maxInFlight: number, clock?: ThrottleClock): Throttle {
    this.sharedThrottle ??= new Throttle(maxInFlight, clock);
    return this.sharedThrottle;
  }

  url(path: string, query?: QueryParams): string {
    const base = /^https?:\/\//i.test(path) ? path : `${this.apiRoot}${path.startsWith('/') ? '' : '/'}${path}`;
    const qs = query ? encodeQuery(query) : '';
    if (!qs) return base;
    return `${base}${base.includes('?') ? '&' : '?'}${qs}`;
  }

  async request<T = unknown>(req: ApiRequest): Promise<ApiResponse<T>> {
    const target = requestTarget(this.url(req.path, req.query), this.apiRoot);
    this.assertSameOrigin(target, 'request');
    assertSendable(undefined, req.headers);
    return this.exchange<T>(target, req, true);
  }

  /** A URL the service handed out (a release link): the token goes with it only to the instance's API. */
  async fetchLink<T = unknown>(url: string, req: Omit<ApiRequest, 'path'>): Promise<ApiResponse<T>> {
    const { target, credentials } = linkTarget(url, this.apiRoot);
    return this.exchange<T>(target, { ...req, path: url }, credentials);
  }

  /** A request whose answer must be one JSON object (a resource), not a list, text or nothing. */
  async record<T>(req: ApiRequest): Promise<T> {
    const res = await this.request<unknown>(req);
    if (res.data === null || typeof res.data !== 'object' || Array.isArray(res.data)) {
      const method = (req.method ?? 'GET').toUpperCase();
      throw new SvcError(
        `${method} ${displayPath(res.url, this.apiRoot)} returned ${describeJson(res.data)} where a single record was expected`,
        ExitCode.failure,
      );
    }
    return res.data as T;
  }

  /** Lazily walks `Link: rel="next"` as the server wrote it; the caller stops whenever it has enough. */
  pages<T>(path: string, query?: QueryParams, options: PaginateOptions<T> = {}): AsyncGenerator<Page<T>> {
    return paginate<T>(
      { apiRoot: this.apiRoot, url: (p, q) => this.url(p, q), request: (r) => this.request(r), debug: (line) => this.debug(line) },
      path,
      query,
      options,
    );
  }

  /** The one loop around attempts: redirects, one OAuth refresh, and retries of network failures and statuses alike. */
  private async exchange<T>(start: Target, req: ApiRequest, withCredentials: boolean): Promise<ApiResponse<T>> {
    const originalMethod = (req.method ?? 'GET').toUpperCase();
    const retries = this.options.retries ?? DEFAULT_RETRIES;
    let method = originalMethod;
    let target = start;
    let sendCredentials = withCredentials;
    let hops = 0;
    let attemptNo = 0;
    let waitedMs = 0;
    let refreshed = false;
    for (;;) {
      attemptNo++;
      this.warnIfInsecure(target, sendCredentials);
      const started = Date.now();
      const tokenSent = sendCredentials ? this.auth.credentials?.token : undefined;
      const where = `${method} ${this.display(target)}`;
      // Debug lines are built only when asked for: redacting a URL is a cost on every page of a listing.
      if (this.options.debug) this.debug(`→ ${method} ${this.loggable(target)} (attempt ${attemptNo}/${retries + 1})`);
      let cause: RetryCause;
      let failure: SvcError;
      let headers: Record<string, string> = {};
      try {
        const answer = await this.send(target, method, req, sendCredentials, method !== originalMethod, where);
        const { status, value, credential } = answer;
        headers = answer.headers;
        if (this.options.debug) this.debug(`← ${status} in ${Date.now() - started} ms (attempt ${attemptNo})`);
        if (value.kind === 'data') {
          const remaining = remainingSignal(headers);
          if (remaining) reportRateLimit(remaining);
          // undici frees the connection one turn after the body ends; a request sent sooner opens a second one.
          if (req.responseType !== 'stream') await nextTurn();
          return { status, headers, data: value.data as T, url: targetHref(target) };
        }
        if (value.kind === 'redirect') {
          ({ target, method, sendCredentials } = this.redirected(status, value.location, {
            target,
            method,
            originalMethod,
            hops,
            sendCredentials,
          }));
          hops++;
          attemptNo = 0;
          continue;
        }
        if (status === 401 && !refreshed && this.auth.canRenew(tokenSent, value.body)) {
          refreshed = true;
          await this.auth.renew(tokenSent);
          attemptNo = 0;
          continue;
        }
        cause = { kind: 'status', status };
        if (status === 429) reportRateLimit({ kind: 'throttled' });
        const apiError = createApiError(status, value.body, {
          method: originalMethod,
          path: this.display(target),
          credential,
          hasToken: Boolean(this.auth.credentials) || Object.keys(req.headers ?? {}).some(isTokenHeader),
          sudo: this.options.sudo,
          secrets: this.auth.secrets(tokenSent, req.headers),
        });
        apiError.headers = headers;
        apiError.text = value.text;
        failure = apiError;
      } catch (error) {
        if (!(error instanceof NetworkFailure)) throw error;
        this.debug(`← ${error.code} after ${Date.now() - started} ms (attempt ${attemptNo})`);
        cause = { kind: 'network', code: error.code };
        failure = new SvcError(`${where} failed: ${error.message}`, ExitCode.failure);
      }
      const budgetMs = this.options.retryBudgetMs ?? DEFAULT_RETRY_BUDGET_MS;
      const plan = planRetry({
        method,
        cause,
        attempt: attemptNo,
        retries,
        waitedMs,
        budgetMs,
        retryAfter: headers['retry-after'],
        rateLimitReset: headers['ratelimit-reset'],
        nowMs: Date.now(),
      });
      if (!plan.retry) {
        if (plan.overBudgetByWaitingMs !== undefined) {
          this.debug(`not retrying: waiting ${plan.overBudgetByWaitingMs} ms would pass the retry budget of ${budgetMs} ms`);
        }
        throw failure;
      }
      const after = cause.kind === 'status' ? String(cause.status) : cause.code;
      this.debug(`retry ${attemptNo}/${retries} in ${plan.delayMs} ms after ${after}`);
      // A wait a person would notice is said, so a rate-limited run is not 50 silent seconds.
      if (plan.delayMs >= NOTICE_RETRY_MS) {
        const why = cause.kind === 'status' && cause.status === 429 ? 'rate limited' : `${where} failed (${after})`;
        this.options.notice?.(`${why}; retrying in ${Math.round(plan.delayMs / 1000)} s`);
      }
      await pause(plan.delayMs, this.options.signal);
      waitedMs += plan.delayMs;
    }
  }

  /** Where a redirect leads, and how, or the one line saying why it is not followed. */
  private redirected(
    status: number,
    location: string,
    from: { target: Target; method: string; originalMethod: string; hops: number; sendCredentials: boolean },
  ): { target: Target; method: string; sendCredentials: boolean } {
    const where = `${from.method} ${this.display(from.target)}`;
    const next = resolveReference(location, from.target);
    if (!next)
      throw new SvcError(`${where} failed: redirected (${status}) to a Location that is not a valid http(s) URL`, ExitCode.failure);
    const decision = redirectDecision({
      status,
      method: from.method,
      hops: from.hops,
      fromOrigin: from.target.origin,
      toOrigin: next.origin,
      instanceOrigin: this.baseUrl.origin,
      sendingCredentials: from.sendCredentials,
    });
    if (!decision.follow) {
      throw new SvcError(
        decision.reason === 'too-many'
          ? `${from.originalMethod} ${this.display(from.target)} failed: more than ${MAX_REDIRECTS} redirects`
          : `${where} was redirected (${status}) to ${this.loggable(next)}; not followed for a ${from.method}`,
        ExitCode.failure,
      );
    }
    this.debug(`redirect ${status} → ${this.loggable(next)}${decision.sendCredentials ? '' : ' (credentials not forwarded)'}`);
    return { target: next, method: decision.method, sendCredentials: decision.sendCredentials };
  }

  private async send(
    target: Target,
    method: string,
    req: ApiRequest,
    sendCredentials: boolean,
    dropBody: boolean,
    where: string,
  ): Promise<{ status: number; headers: Record<string, string>; value: Answer; credential: CredentialKind }> {
    this.requestCount++;
    const headers: Record<string, string> = {
      'user-agent': this.options.userAgent,
      accept: 'application/json, */*;q=0.5',
    };
    if (sendCredentials) {
      Object.assign(headers, this.auth.headers());
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
    const credential = credentialKind(headers);
    const answer = await attempt(
      this.dispatcher,
      { origin: target.origin, path: target.path, method, headers, body },
      { timeoutMs: this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS, signal: this.options.signal },
      (res) =>
        readAnswer(res, {
          method,
          responseType: req.responseType ?? 'json',
          acceptStatus: req.acceptStatus,
          where,
          maxBytes: this.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
        }),
    );
    return { ...answer, credential };
  }

  private assertSameOrigin(target: Target, what: string): void {
    if (target.origin !== this.baseUrl.origin) {
      throw new SvcError(
        `the ${what} points to another host (${target.origin}, not ${this.baseUrl.origin}); refusing to send credentials there`,
        ExitCode.failure,
      );
    }
  }

  private warnIfInsecure(target: Target, sendCredentials: boolean): void {
    if (!sendCredentials || !this.auth.credentials || this.judgedOrigins.has(target.origin)) return;
    this.judgedOrigins.add(target.origin);
    const url = new URL(target.origin);
    if (url.protocol === 'http:' && !LOOPBACK_HOST.test(url.hostname)) {
      this.options.warn?.(`warning: ${url.host} is plain http; the token travels unencrypted`);
    }
  }

  private loggable(target: Target): string {
    return loggableUrl(target, this.baseUrl.origin);
  }

  private display(target: Target): string {
    return displayPath(targetHref(target), this.apiRoot);
  }

  /** Every credential this client holds, and any in `headers`, for output that must never show one. */
  secrets(headers: Record<string, string> = {}): string[] {
    return this.auth.secrets(undefined, headers);
  }

  private debug(line: string): void {
    this.options.debug?.(line);
  }
}
