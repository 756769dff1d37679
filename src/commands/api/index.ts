import { STATUS_CODES } from 'node:http';
import type { Context } from '../../context.js';
import { SvcError, UsageError } from '../../errors.js';
import { ApiError } from '../../http/api-error.js';
import { redactSecrets } from '../../http/redact.js';
import { displayUrl } from '../../http/urls.js';
import type { ApiResponse, RequestBody } from '../../http/client.js';
import { isCredentialHeader } from '../../http/credential-headers.js';
import type { OutputFormat } from '../../output/formats.js';
import { write, writeList, writeRecord } from '../../output/writer.js';
import { collect } from '../../cli/parsers.js';
import { parseJson } from '../../json.js';
import { readLocalFile, readTextFile } from '../shared/local-file.js';
import { addParam, parseHeader, splitField, typedValue, type Params } from './params.js';
import type { LeafSpec } from '../../cli/spec.js';

interface ApiOptions {
  method?: string;
  rawField?: string[];
  field?: string[];
  header?: string[];
  input?: string;
  paginate?: boolean;
  include?: boolean;
}

/** Bodies printed as text, where a secret is redacted; other types are files, printed as they are. */
const TEXT_TYPE = /^\s*(text\/|application\/(xml|x-www-form-urlencoded|javascript)\b|[^;]*\+xml\b)/i;

const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** The description is the registry's summary of the command. */
export const command: LeafSpec<ApiOptions> = {
  name: 'api',
  args: [{ name: 'path', help: 'endpoint path such as projects/42/issues; encode path parameters yourself (group%2Fproject)' }],
  options: [
    { flags: '-X, --method <method>', help: 'HTTP method (default GET, or POST when fields or --input are given)' },
    { flags: '-f, --raw-field <key=value>', help: 'string parameter (repeatable); name[], name[key] and name[][key] nest', parse: collect },
    {
      flags: '-F, --field <key=value>',
      help: 'typed parameter: true, false, null, numbers; @file reads a file, @- stdin (repeatable)',
      parse: collect,
    },
    { flags: '-H, --header <header>', help: "extra request header 'Name: value' (repeatable)", parse: collect },
    { flags: '--input <file>', help: "raw request body from a file, or '-' for stdin (fields then go to the query string)" },
    { flags: '--paginate', help: 'follow every next page and merge JSON arrays into one (stream them with -o ndjson)' },
    { flags: '-i, --include', help: 'print the status line and response headers before the body (credential headers never shown)' },
  ],
  examples: [
    'svc api user',
    'svc api projects/my-group%2Fmy-project',
    'svc api projects --paginate -f order_by=id -f per_page=100 -o ndjson',
    'svc api projects/42/pipeline -X POST -f ref=main -f "variables[][key]=DEPLOY" -f "variables[][value]=yes"',
    'svc api -i projects/42',
  ],
  run: (ctx, [path], opts) => run(ctx, path as string, opts),
};

async function run(ctx: Context, rawPath: string, opts: ApiOptions): Promise<void> {
  const params = await collectParams(ctx, opts);
  const hasParams = Object.keys(params).length > 0;
  const writes = !opts.paginate && (hasParams || opts.input !== undefined);
  const method = (opts.method ?? (writes ? 'POST' : 'GET')).toUpperCase();
  if (!HTTP_METHODS.includes(method)) {
    throw new UsageError(`-X '${opts.method}': not an HTTP method (expected one of ${HTTP_METHODS.join(', ')})`);
  }
  if (opts.paginate && method !== 'GET') throw new UsageError('--paginate works with GET requests only');
  if (opts.paginate && opts.include) throw new UsageError('--paginate and --include cannot be combined');
  const format: OutputFormat = ctx.globals.output ?? 'json';
  if ((format === 'table' || format === 'tsv') && !ctx.globals.fields) {
    throw new UsageError(`-o ${format} needs --fields to know the columns (or use -o json / -o ndjson)`);
  }
  const headers = Object.fromEntries((opts.header ?? []).map(parseHeader));
  const path = /^https?:\/\//i.test(rawPath) ? rawPath : `/${rawPath.replace(/^\/+/, '')}`;
  const inQuery = method === 'GET' || method === 'HEAD' || opts.input !== undefined;
  const http = await ctx.http();
  // The caller's token, as sent and as refreshed, never reaches the screen in a header or a body.
  const secrets = [...http.secrets(headers), (await ctx.target()).token?.value];

  if (opts.paginate) {
    const pages = http.pages<unknown>(path, params);
    async function* records() {
      for await (const page of pages) for (const item of page.items) yield redactValue(item, secrets);
    }
    await writeList(ctx.stdout, { ...ctx.output, format }, records(), ctx.globals.fields ?? []);
    return;
  }

  let response: ApiResponse<Buffer>;
  try {
    response = await http.request<Buffer>({
      method,
      path,
      query: inQuery ? params : undefined,
      json: !inQuery && hasParams ? params : undefined,
      body: opts.input !== undefined ? await inputBody(ctx, opts.input) : undefined,
      headers,
      responseType: 'buffer',
    });
  } catch (error) {
    if (opts.include && error instanceof ApiError) {
      await writeHead(ctx, error.status, error.headers, secrets);
      const text = redactSecrets(error.text ?? '', secrets);
      if (text) await write(ctx.stdout, text.endsWith('\n') ? text : `${text}\n`);
    }
    if (error instanceof ApiError && error.status === 405 && opts.method === undefined && method === 'POST') {
      throw new ApiError(
        error.status,
        error.body,
        `${error.message} (fields make the request a POST; add -X GET to send them as the query of a GET)`,
        error.exitCode,
      );
    }
    throw error;
  }
  if (opts.include) await writeHead(ctx, response.status, response.headers, secrets);
  await writeBody(ctx, format, response, secrets);
}

async function collectParams(ctx: Context, opts: ApiOptions): Promise<Params> {
  const params: Params = {};
  for (const arg of opts.rawField ?? []) {
    const { key, value } = splitField('-f', arg);
    addParam(params, key, value);
  }
  for (const arg of opts.field ?? []) {
    const { key, value } = splitField('-F', arg);
    addParam(params, key, value.startsWith('@') ? await readValueFile(ctx, value.slice(1)) : typedValue(value));
  }
  return params;
}

async function readValueFile(ctx: Context, source: string): Promise<string> {
  if (source === '-') return (await ctx.readStdin()).toString('utf8');
  return readTextFile('-F', source, ctx.signal);
}

async function inputBody(ctx: Context, source: string): Promise<RequestBody> {
  const content = source === '-' ? await ctx.readStdin() : await readLocalFile('--input', source, ctx.signal);
  // A -H 'Content-Type: …' given by the user replaces this default.
  return { contentType: 'application/json', length: content.length, create: () => content };
}

type Secrets = Array<string | undefined>;

/** A parsed JSON answer with every string holding a secret redacted. */
function redactValue(value: unknown, secrets: Secrets): unknown {
  if (typeof value === 'string') return redactSecrets(value, secrets);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, secrets));
  // Kept big numbers (LosslessNumber) are leaves, not records.
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactValue(item, secrets)]));
}

async function writeHead(ctx: Context, status: number, headers: Record<string, string>, secrets: Secrets): Promise<void> {
  const lines = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`.trimEnd()];
  for (const [name, value] of Object.entries(headers)) {
    if (!isCredentialHeader(name)) lines.push(`${name}: ${displayUrl(redactSecrets(value, secrets))}`);
  }
  await write(ctx.stdout, `${lines.join('\n')}\n\n`);
}

/**
 * JSON is re-printed in the chosen format, and only when whole: a body that says it is JSON but
 * does not parse (cut short) prints nothing. Other text goes out with the caller's secrets
 * redacted; anything else (a file) byte for byte.
 */
async function writeBody(ctx: Context, format: OutputFormat, response: ApiResponse<Buffer>, secrets: Secrets): Promise<void> {
  const raw = response.data ?? Buffer.alloc(0);
  if (raw.length === 0) return;
  const contentType = response.headers['content-type'] ?? '';
  if (!/json/i.test(contentType)) {
    const text = TEXT_TYPE.test(contentType) ? raw.toString('utf8') : undefined;
    const redacted = text === undefined ? undefined : redactSecrets(text, secrets);
    return write(ctx.stdout, redacted === text ? raw : (redacted as string));
  }
  let data: unknown;
  try {
    data = redactValue(parseJson(raw.toString('utf8')), secrets);
  } catch {
    throw new SvcError(`the answer (${response.status}) says it is JSON but is truncated or malformed; nothing printed`);
  }
  const settings = { ...ctx.output, format };
  if (!Array.isArray(data)) return writeRecord(ctx.stdout, settings, data, ctx.globals.fields ?? []);
  async function* records() {
    yield* data as unknown[];
  }
  await writeList(ctx.stdout, settings, records(), ctx.globals.fields ?? []);
}
