import type { Readable } from 'node:stream';
import type { QueryParams } from './encode.js';

/** Shared by the HTTP layer and the configuration, so that neither imports the other. */
export const TOKEN_TYPES = ['private', 'oauth', 'job'] as const;

export type TokenType = (typeof TOKEN_TYPES)[number];

export interface Credentials {
  token: string;
  type: TokenType;
  refreshToken?: string;
  oauthClientId?: string;
}

/** The part of the credentials an OAuth refresh replaces. */
export interface StoredCredentials {
  token: string;
  refreshToken?: string;
}

/**
 * Where refreshed OAuth credentials live, shared between processes: `update` runs `change` with
 * the current stored pair while no other process can change it, stores what `change` returns and
 * returns that.
 */
export interface CredentialStore {
  update(
    change: (current: StoredCredentials | undefined) => Promise<StoredCredentials | undefined>,
  ): Promise<StoredCredentials | undefined>;
}

/** Per-attempt bound on one request, headers and body (`--timeout`). */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** Retries of a failed attempt when the failure allows it (`--retries`). */
export const DEFAULT_RETRIES = 4;
/** Upper bound on the time one request may spend waiting between its retries. */
export const DEFAULT_RETRY_BUDGET_MS = 120_000;
/** Largest JSON or text answer read into memory; streamed downloads are not bounded. */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024;

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
