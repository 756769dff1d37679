import { STATUS_CODES } from 'node:http';
import { ExitCode, SvcError } from '../errors.js';
import type { CredentialKind } from './credential-headers.js';
import { redactSecrets } from './redact.js';

/** What the HTTP layer knew about the request when the server refused it; used for hints. */
export interface ErrorContext {
  method: string;
  path: string;
  /** Whose credential the refused request carried, as sent (a job token's refusals mean something else). */
  credential: CredentialKind;
  hasToken: boolean;
  sudo?: string;
  /** Credentials the request carried: a server that echoes one back never gets it printed. */
  secrets?: string[];
}

/** A non-success HTTP answer, rendered to one line, carrying the exit code scripts rely on. */
export class ApiError extends SvcError {
  readonly status: number;
  readonly body: unknown;
  /** Whose credential the refused request carried; `none` for errors not made from an answer. */
  credential: CredentialKind = 'none';
  /** The service refused the request's Sudo, not what it asked for: no role would change that. */
  sudoRefused = false;
  /** The response as received, for `svc api --include`. */
  headers: Record<string, string> = {};
  text = '';

  constructor(status: number, body: unknown, message: string, exitCode: number) {
    super(message, exitCode);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }
}

export function exitCodeForStatus(status: number): number {
  if (status === 401) return ExitCode.unauthenticated;
  if (status === 403) return ExitCode.forbidden;
  if (status === 404) return ExitCode.notFound;
  if (status === 429) return ExitCode.rateLimited;
  if ([400, 405, 409, 412, 413, 414, 422].includes(status)) return ExitCode.rejected;
  return ExitCode.failure;
}

/**
 * Renders any error body the service sends to one line: `{"message": "..."}`, `{"error": "..."}`,
 * `{"error": ..., "error_description": ...}`, `{"message": {"error": "..."}}` and validation
 * objects `{"message": {"name": ["has already been taken"], "embed": {"prop": [...]}}}`.
 */
export function renderErrorBody(body: unknown): string | undefined {
  if (body === null || body === undefined) return undefined;
  if (typeof body === 'string') return renderTextBody(body);
  if (typeof body !== 'object' || Array.isArray(body)) return undefined;
  const rendered = renderRecord(body as Record<string, unknown>);
  // A message may carry another server's answer (a webhook receiver's error page): never printed whole.
  return rendered === undefined ? undefined : (htmlSummary(rendered) ?? rendered);
}

/** `an HTML page ("its title")` for a text that is an HTML page, else undefined. */
function htmlSummary(text: string): string | undefined {
  const trimmed = text.trim();
  if (!/^<(!doctype|html|head|body|title|h1)\b/i.test(trimmed)) return undefined;
  const heading = /<title[^>]*>([^<]*)<\/title>/i.exec(trimmed)?.[1] ?? /<h1[^>]*>([^<]*)<\/h1>/i.exec(trimmed)?.[1];
  const title = heading?.replace(/\s+/g, ' ').trim().slice(0, 100);
  return title ? `an HTML page ("${title}")` : 'an HTML page';
}

function renderRecord(record: Record<string, unknown>): string | undefined {
  if ('message' in record) {
    const rendered = renderMessage(record.message);
    if (rendered) return rendered;
  }
  if (typeof record.error === 'string') {
    const description = typeof record.error_description === 'string' ? record.error_description : '';
    return description ? `${record.error}: ${description}` : record.error;
  }
  return undefined;
}

function renderMessage(message: unknown): string | undefined {
  if (typeof message === 'string') return message.trim() || undefined;
  if (Array.isArray(message)) return message.map(String).join('; ');
  if (message && typeof message === 'object') {
    const entries = flattenValidation(message as Record<string, unknown>, '');
    return entries.length ? entries.join('; ') : undefined;
  }
  return undefined;
}

function flattenValidation(node: Record<string, unknown>, prefix: string): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(node)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (Array.isArray(value)) {
      const messages = value.map(String).join(', ');
      out.push(key === 'error' || key === 'base' ? messages : `${name}: ${messages}`);
    } else if (value && typeof value === 'object') {
      out.push(...flattenValidation(value as Record<string, unknown>, name));
    } else if (value !== null && value !== undefined) {
      out.push(key === 'error' || key === 'base' ? String(value) : `${name}: ${String(value)}`);
    }
  }
  return out;
}

function renderTextBody(text: string): string | undefined {
  const trimmed = text.trim();
  if (!trimmed) return undefined;
  const html = htmlSummary(trimmed);
  if (html) return `${html}, probably from a proxy`;
  const firstLine = trimmed.split(/\r?\n/, 1)[0] ?? '';
  return firstLine.length > 200 ? `${firstLine.slice(0, 200)}…` : firstLine;
}

export function createApiError(status: number, body: unknown, ctx: ErrorContext): ApiError {
  const error = apiErrorFor(status, body, ctx);
  error.message = redactSecrets(error.message, ctx.secrets ?? []);
  error.credential = ctx.credential;
  return error;
}

export { redactSecrets };

/** The service's refusal of an offset past its maximum, which keyset pagination avoids. */
export function isMaxOffsetError(error: unknown): boolean {
  if (!(error instanceof ApiError) || error.status !== 405) return false;
  const body = error.body as Record<string, unknown> | undefined;
  return typeof body?.error === 'string' && /maximum allowed offset/i.test(body.error);
}

function apiErrorFor(status: number, body: unknown, ctx: ErrorContext): ApiError {
  const rendered = renderErrorBody(body);
  const statusLine = `${status}${STATUS_CODES[status] ? ` ${STATUS_CODES[status]}` : ''}`;
  const where = `${ctx.method} ${ctx.path}`;
  const record = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};

  if (record.needs_captcha_response === true) {
    return new ApiError(status, body, rendered ?? 'the service asks for a CAPTCHA', ExitCode.captcha);
  }
  const sudoMessage = ctx.sudo ? sudoFailure(status, record, rendered, ctx.sudo) : undefined;
  if (sudoMessage) {
    const refused = new ApiError(status, body, sudoMessage, exitCodeForStatus(status));
    refused.sudoRefused = true;
    return refused;
  }

  const base = rendered && !rendered.startsWith(String(status)) ? `${statusLine}: ${rendered}` : (rendered ?? statusLine);
  let message = `${where} failed: ${base}`;
  const hint = hintFor(status, record, ctx);
  if (hint) message += ` (${hint})`;
  return new ApiError(status, body, message, exitCodeForStatus(status));
}

function sudoFailure(status: number, record: Record<string, unknown>, rendered: string | undefined, sudo: string): string | undefined {
  if (status === 403 && typeof rendered === 'string' && /must be admin to use sudo/i.test(rendered)) {
    return `--sudo ${sudo}: the token's user is not an administrator (403 Forbidden - Must be admin to use sudo)`;
  }
  if (status === 403 && /must be authenticated using an oauth or personal access token/i.test(rendered ?? '')) {
    return `--sudo ${sudo}: sudo needs a personal or OAuth token of an administrator, not this kind of token`;
  }
  if (
    status === 403 &&
    record.error === 'insufficient_scope' &&
    String(record.scope ?? '')
      .split(' ')
      .includes('sudo')
  ) {
    return `--sudo ${sudo}: the token lacks the 'sudo' scope (403 insufficient_scope)`;
  }
  if (status === 404 && /user with id or username/i.test(rendered ?? '')) {
    return `--sudo ${sudo}: no user with ID or username '${sudo}' (404)`;
  }
  return undefined;
}

function hintFor(status: number, record: Record<string, unknown>, ctx: ErrorContext): string | undefined {
  if (ctx.credential === 'job' && status === 403 && /job token not allowed from/i.test(String(record.message ?? ''))) {
    return "the target project's CI/CD job token allowlist does not include the job's project";
  }
  if (ctx.credential === 'job' && (status === 401 || status === 403)) {
    return 'job tokens are accepted only on some endpoints, such as job artifacts, releases and packages';
  }
  if (status === 401 && !ctx.hasToken) return 'no token was sent: set SVC_TOKEN or run `svc auth login`';
  if (status === 401 && record.error === 'invalid_token') return 'the token is expired or revoked';
  if (status === 403 && record.error === 'insufficient_scope') {
    return `the token lacks the scope '${String(record.scope ?? '')}'`;
  }
  if (status === 404 && typeof record.error === 'string' && /404 Not Found/.test(record.error)) {
    return "no such endpoint: check the service URL, and encode '/' in namespaced paths, file paths and refs as %2F";
  }
  return undefined;
}
