/** Which failures are retried, as data: a request the server may have processed is never repeated blindly. */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);
const TRANSIENT_STATUSES = new Set([500, 502, 503, 504]);

export type RetryCause = { kind: 'status'; status: number } | { kind: 'network'; code: string };

/** Failures that another attempt cannot fix: certificate problems and unknown hosts. */
const PERMANENT_NETWORK = /CERT|UNABLE_TO_VERIFY|^ERR_TLS|^ENOTFOUND$/;

/** The connection never opened, so the server cannot have acted on the request, whatever its method. */
const NOT_SENT = new Set(['ECONNREFUSED', 'UND_ERR_CONNECT_TIMEOUT']);

export function isRetryable(method: string, cause: RetryCause): boolean {
  if (cause.kind === 'status' && cause.status === 429) return true;
  if (cause.kind === 'network' && PERMANENT_NETWORK.test(cause.code)) return false;
  if (cause.kind === 'network' && NOT_SENT.has(cause.code)) return true;
  if (!IDEMPOTENT.has(method.toUpperCase())) return false;
  return cause.kind === 'network' || TRANSIENT_STATUSES.has(cause.status);
}

export interface BackoffInput {
  attempt: number; // 1-based number of the attempt that just failed
  retryAfter?: string | null;
  rateLimitReset?: string | null;
  nowMs: number;
  baseMs?: number;
  capMs?: number;
  random?: () => number;
}

/** Delay before the next attempt: Retry-After (seconds or HTTP date), then RateLimit-Reset, else backoff with jitter. */
export function retryDelayMs(input: BackoffInput): number {
  const fromRetryAfter = parseRetryAfter(input.retryAfter, input.nowMs);
  if (fromRetryAfter !== undefined) return fromRetryAfter;
  if (input.rateLimitReset && /^\d+$/.test(input.rateLimitReset.trim())) {
    // A reset time in the past means the window is already open again.
    return Math.max(0, Number(input.rateLimitReset.trim()) * 1000 - input.nowMs);
  }
  const base = input.baseMs ?? 250;
  const cap = input.capMs ?? 8000;
  const exponential = Math.min(cap, base * 2 ** (input.attempt - 1));
  const random = input.random ?? Math.random;
  return Math.round(exponential / 2 + random() * (exponential / 2));
}

export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

export interface RetryPlanInput {
  method: string;
  cause: RetryCause;
  /** 1-based number of the attempt that just failed. */
  attempt: number;
  retries: number;
  /** Time already spent waiting between this request's attempts. */
  waitedMs: number;
  budgetMs: number;
  retryAfter?: string;
  rateLimitReset?: string;
  nowMs: number;
}

export type RetryPlan = { retry: true; delayMs: number } | { retry: false; overBudgetByWaitingMs?: number };

/** The one decision after any failed attempt, network or status: retry after a delay, or give up. */
export function planRetry(input: RetryPlanInput): RetryPlan {
  if (input.attempt > input.retries || !isRetryable(input.method, input.cause)) return { retry: false };
  const delayMs = retryDelayMs({
    attempt: input.attempt,
    retryAfter: input.retryAfter,
    rateLimitReset: input.rateLimitReset,
    nowMs: input.nowMs,
  });
  if (input.waitedMs + delayMs > input.budgetMs) return { retry: false, overBudgetByWaitingMs: delayMs };
  return { retry: true, delayMs };
}
