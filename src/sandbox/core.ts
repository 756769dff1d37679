// The request pipeline of the sandbox: recording, faults, 414, rate
// limiting, routing on the raw path, body parsing, authentication and sudo,
// response headers. Routes are registered by routes*.ts.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHmac, randomBytes } from 'node:crypto';
import type { UserRec } from './data.js';
import { World } from './data.js';
import { FaultPicker, parseFaultSpec } from './faults.js';
import { MoveEngine } from './moves.js';
import type { RecordedRequest, SandboxOptions, SandboxStats, SandboxTokens } from './types.js';
import { DecodeError, type FilePart, multipartBoundary, nestParams, type Params, parseMultipart, parseQuery, sha256 } from './util.js';

/** Longest raw query string accepted; longer ones get 414. */
export const MAX_QUERY_BYTES = 8192;
/** Largest request body accepted; larger ones get 413. */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;
const MAX_RECORDED_BODY = 256 * 1024;
const MAX_RECORDS = 200_000;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
    readonly contentType = 'application/json',
  ) {
    super(typeof body === 'string' ? body : JSON.stringify(body));
  }
}

export const E = {
  route404: () => new ApiError(404, { error: '404 Not Found' }),
  notFound: (what?: string) => new ApiError(404, { message: what ? `404 ${what} Not Found` : '404 Not Found' }),
  findNotFound: () => new ApiError(404, { message: '404 Not found' }),
  unauthorized: () => new ApiError(401, { message: '401 Unauthorized' }),
  forbidden: (reason?: string) => new ApiError(403, { message: reason ? `403 Forbidden - ${reason}` : '403 Forbidden' }),
  missing: (...names: string[]) => new ApiError(400, { error: names.map((n) => `${n} is missing`).join(', ') }),
  invalid: (name: string) => new ApiError(400, { error: `${name} is invalid` }),
  notValid: (name: string) => new ApiError(400, { error: `${name} does not have a valid value` }),
  validation: (errors: Record<string, unknown>) => new ApiError(400, { message: errors }),
  insufficientScope: (scope: string) =>
    new ApiError(403, { error: 'insufficient_scope', error_description: 'The request requires higher privileges than provided by the access token.', scope }),
};

export interface TokenRec {
  kind: 'personal' | 'oauth' | 'job';
  userId: number;
  scopes: string[];
  expiresAt?: number;
  revoked?: boolean;
  refresh?: string;
  jobId?: number;
  projectId?: number;
}

export type AuthLevel = 'public' | 'user' | 'admin';

export interface Route {
  method: string;
  pattern: string; // display pattern, e.g. /projects/:id
  parts: string[]; // full raw path parts, e.g. ['', 'api', 'v4', 'projects', ':id']
  auth: AuthLevel;
  job: boolean;
  premium: boolean;
  handler: (ctx: Ctx) => void | Promise<void>;
}

export interface Ctx {
  core: Core;
  world: World;
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  rawPath: string;
  rawQuery: string;
  host: string;
  route: Route | null;
  /** decoded route parameters */
  p: Record<string, string>;
  /** raw route parameters and their segment index */
  rawP: Record<string, { raw: string; index: number }>;
  rawPairs: Array<[string, string]>;
  query: Params;
  body: Params;
  params: Params;
  bodyBuf: Buffer;
  files: Record<string, FilePart>;
  user: UserRec | null;
  token: TokenRec | null;
  tokenValue: string | null;
  out: Array<[string, string]>;
  record: RecordedRequest | null;
}

export interface CoreOptions extends Required<Omit<SandboxOptions, 'log' | 'faults' | 'spreadStorages' | 'objectStorageHost' | 'host' | 'port'>> {
  log?: (line: string) => void;
  faults: string;
  spreadStorages: boolean;
}

const WELL_KNOWN_ADMIN = 'sandbox-admin-token-0123456789';

export class Core {
  readonly world: World;
  readonly moves: MoveEngine;
  readonly tokens = new Map<string, TokenRec>();
  readonly refreshTokens = new Map<string, string>(); // refresh → access
  readonly publicTokens: SandboxTokens;
  readonly routes: Route[] = [];
  private readonly routesByLen = new Map<number, Route[]>();
  readonly records: RecordedRequest[] = [];
  readonly stats: SandboxStats;
  readonly faults: FaultPicker;
  readonly opts: CoreOptions;
  readonly objectSecret = randomBytes(16).toString('hex');
  private readonly rateWindows = new Map<string, { start: number; count: number }>();
  private oauthCounter = 0;
  currentOAuthAccess: string;
  objectsBase = '';
  baseUrl = '';
  private reqCounter = 0;

  constructor(opts: CoreOptions) {
    this.opts = opts;
    this.world = new World({ projects: opts.projects, storages: opts.storages, seed: opts.seed, spreadStorages: opts.spreadStorages });
    this.world.base = () => this.baseUrl;
    this.moves = new MoveEngine(this.world, {
      moveMs: opts.moveMs,
      concurrency: Math.max(1, opts.moveConcurrency),
      failureRate: opts.moveFailureRate,
      skipRate: opts.bulkSkipRate,
      seed: opts.seed,
      log: opts.log,
    });
    this.faults = new FaultPicker(parseFaultSpec(opts.faults), opts.faultSeed);
    this.stats = {
      requests: { total: 0, byRoute: {}, byMethod: {} },
      connections: { opened: 0, objectsOpened: 0 },
      faults: {},
      moves: { created: 0, byState: {}, maxRunning: 0, maxUnfinished: 0 },
    };
    const admin = opts.adminToken || WELL_KNOWN_ADMIN;
    const t = (name: string) => `sandbox-${name}-${sha256(`${opts.seed}:${name}`).slice(0, 20)}`;
    const jobId = 7; // build job of pipeline 4, project 2 (private, the regular user is a member)
    this.publicTokens = {
      admin,
      adminNoSudo: t('admin-nosudo'),
      user: t('user'),
      readApi: t('read-api'),
      job: `sandbox-job-${sha256(`${opts.seed}:job`).slice(0, 20)}`,
      oauth: { access: '', refresh: '' },
    };
    this.tokens.set(admin, { kind: 'personal', userId: 1, scopes: ['api', 'sudo'] });
    this.tokens.set(this.publicTokens.adminNoSudo, { kind: 'personal', userId: 1, scopes: ['api'] });
    this.tokens.set(this.publicTokens.user, { kind: 'personal', userId: 2, scopes: ['api'] });
    this.tokens.set(this.publicTokens.readApi, { kind: 'personal', userId: 2, scopes: ['read_api'] });
    if (this.world.seededProjects >= 2) {
      this.tokens.set(this.publicTokens.job, { kind: 'job', userId: 2, scopes: ['api'], jobId, projectId: 2 });
    }
    const pair = this.issueOAuth();
    this.publicTokens.oauth = pair;
    this.currentOAuthAccess = pair.access;
  }

  issueOAuth(): { access: string; refresh: string } {
    const n = ++this.oauthCounter;
    const access = sha256(`${this.opts.seed}:oauth-access:${n}:${this.objectSecret}`);
    const refresh = sha256(`${this.opts.seed}:oauth-refresh:${n}:${this.objectSecret}`);
    this.tokens.set(access, { kind: 'oauth', userId: 1, scopes: ['api'], expiresAt: Date.now() + this.opts.oauthTtlSeconds * 1000, refresh });
    this.refreshTokens.set(refresh, access);
    this.currentOAuthAccess = access;
    return { access, refresh };
  }

  // ---- routing ---------------------------------------------------------------

  add(method: string, pattern: string, opts: { auth?: AuthLevel; job?: boolean; premium?: boolean; raw?: boolean }, handler: Route['handler']): void {
    const full = opts.raw ? pattern : `/api/v4${pattern}`;
    const route: Route = { method, pattern, parts: full.split('/'), auth: opts.auth ?? 'user', job: !!opts.job, premium: !!opts.premium, handler };
    this.routes.push(route);
    const list = this.routesByLen.get(route.parts.length) ?? [];
    list.push(route);
    this.routesByLen.set(route.parts.length, list);
  }

  match(method: string, rawPath: string): { route: Route | null; allow: string[]; rawParts: string[] } {
    const rawParts = rawPath.split('/');
    const candidates = this.routesByLen.get(rawParts.length) ?? [];
    const allow = new Set<string>();
    let found: Route | null = null;
    const m = method === 'HEAD' ? 'GET' : method;
    for (const r of candidates) {
      if (r.premium && this.opts.tier === 'free') continue;
      let ok = true;
      for (let i = 0; i < r.parts.length; i++) {
        const part = r.parts[i]!;
        const seg = rawParts[i]!;
        if (part.startsWith(':')) {
          if (seg === '') {
            ok = false;
            break;
          }
        } else if (part !== seg) {
          ok = false;
          break;
        }
      }
      if (!ok) continue;
      allow.add(r.method);
      if (!found && r.method === m) found = r;
    }
    return { route: found, allow: [...allow], rawParts };
  }

  // ---- request pipeline -----------------------------------------------------------

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = process.hrtime.bigint();
    const url = req.url ?? '/';
    const qi = url.indexOf('?');
    const rawPath = qi < 0 ? url : url.slice(0, qi);
    const rawQuery = qi < 0 ? '' : url.slice(qi + 1);
    const method = (req.method ?? 'GET').toUpperCase();
    if (rawPath === '/-/sandbox/stats') {
      drain(req);
      const body = JSON.stringify(this.snapshotStats());
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-store' });
      res.end(body);
      return;
    }
    const ctx: Ctx = {
      core: this,
      world: this.world,
      req,
      res,
      method,
      rawPath,
      rawQuery,
      host: req.headers.host || this.baseUrl.replace(/^http:\/\//, ''),
      route: null,
      p: {},
      rawP: {},
      rawPairs: [],
      query: {},
      body: {},
      params: {},
      bodyBuf: Buffer.alloc(0),
      files: {},
      user: null,
      token: null,
      tokenValue: null,
      out: [],
      record: null,
    };
    const record: RecordedRequest = { method, rawPath, rawQuery, headers: lowerHeaders(req), body: '', status: 0, origin: 'api' };
    ctx.record = record;
    this.pushRecord(record);
    const { route, allow, rawParts } = this.match(method, rawPath);
    ctx.route = route;
    const routeKey = route ? `${method} ${route.pattern}` : allow.length > 0 ? `${method} (method not allowed)` : `${method} (unmatched)`;
    const s = this.stats.requests;
    s.total++;
    s.byMethod[method] = (s.byMethod[method] ?? 0) + 1;
    s.byRoute[routeKey] = (s.byRoute[routeKey] ?? 0) + 1;
    res.on('finish', () => {
      record.status = res.statusCode;
      if (this.opts.log) {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        this.opts.log(`${method} ${rawPath} ${res.statusCode} ${ms.toFixed(1)}ms`);
      }
    });
    try {
      ctx.bodyBuf = await readBody(req);
      if (ctx.bodyBuf.length > 0) {
        record.body = ctx.bodyBuf.subarray(0, MAX_RECORDED_BODY).toString('utf8');
        if (/json/i.test(String(req.headers['content-type'] ?? ''))) {
          try {
            record.bodyJson = JSON.parse(record.body);
          } catch {
            /* recorded as text only */
          }
        }
      }
      const fault = this.faults.draw();
      if (fault) {
        this.stats.faults[fault] = (this.stats.faults[fault] ?? 0) + 1;
        if (fault === 'reset') {
          req.socket.destroy();
          if (this.opts.log) this.opts.log(`${method} ${rawPath} reset (fault)`);
          return;
        }
        if (fault === 'slow') await sleep(this.opts.slowMs);
        else throw faultError(fault, this.opts.rateLimit);
      }
      if (rawPath.startsWith('/api/v3/')) throw new ApiError(410, { error: 'API V3 is no longer supported. Use API V4 instead.' });
      if (Buffer.byteLength(rawQuery) > MAX_QUERY_BYTES) throw new ApiError(414, { message: '414 Request-URI Too Large' });
      this.rateLimit(ctx);
      try {
        const q = parseQuery(rawQuery);
        ctx.rawPairs = q.pairs;
        ctx.query = q.params;
      } catch (e) {
        if (e instanceof DecodeError) throw new ApiError(400, { error: `Invalid query parameters: ${e.message}` });
        throw e;
      }
      if (!route) {
        if (allow.length > 0) {
          if (method === 'OPTIONS') throw new ApiError(204, '', { Allow: allowHeader(allow) });
          throw new ApiError(405, { error: '405 Not Allowed' }, { Allow: allowHeader(allow) });
        }
        throw E.route404();
      }
      for (let i = 0; i < route.parts.length; i++) {
        const part = route.parts[i]!;
        if (part.startsWith(':')) {
          const raw = rawParts[i]!;
          let dec: string;
          try {
            dec = decodeURIComponent(raw);
          } catch {
            throw E.route404();
          }
          ctx.p[part.slice(1)] = dec;
          ctx.rawP[part.slice(1)] = { raw, index: i };
        }
      }
      this.parseBody(ctx);
      ctx.params = { ...ctx.query, ...ctx.body };
      this.authenticate(ctx);
      await route.handler(ctx);
      if (!res.headersSent && !res.writableEnded) throw new Error('handler did not respond');
    } catch (e) {
      if (res.headersSent || res.writableEnded || res.destroyed) return;
      if (e instanceof ApiError) {
        if (e.contentType === 'application/json') sendJson(ctx, e.status, e.body, e.headers);
        else sendText(ctx, e.status, String(e.body), e.contentType, e.headers);
      } else {
        this.opts.log?.(`internal error on ${method} ${rawPath}: ${(e as Error)?.message ?? e}`);
        sendJson(ctx, 500, { message: '500 Internal Server Error' });
      }
    }
  }

  private pushRecord(r: RecordedRequest): void {
    if (this.records.length >= MAX_RECORDS) this.records.splice(0, MAX_RECORDS / 10);
    this.records.push(r);
  }

  recordObjects(r: RecordedRequest): void {
    this.pushRecord(r);
  }

  snapshotStats(): SandboxStats {
    const byState: Record<string, number> = {};
    for (const [k, v] of Object.entries(this.moves.byState)) if (v > 0) byState[k] = v;
    return {
      requests: {
        total: this.stats.requests.total,
        byRoute: { ...this.stats.requests.byRoute },
        byMethod: { ...this.stats.requests.byMethod },
      },
      connections: { ...this.stats.connections },
      faults: { ...this.stats.faults },
      moves: { created: this.moves.created, byState, maxRunning: this.moves.running.max, maxUnfinished: this.moves.unfinished.max },
    };
  }

  private parseBody(ctx: Ctx): void {
    const buf = ctx.bodyBuf;
    if (buf.length === 0) return;
    const ct = String(ctx.req.headers['content-type'] ?? '').toLowerCase();
    if (ct.includes('json')) {
      let v: unknown;
      try {
        v = JSON.parse(buf.toString('utf8'));
      } catch (e) {
        throw new ApiError(400, { error: `The request body is not valid JSON: ${(e as Error).message}` });
      }
      if (v && typeof v === 'object' && !Array.isArray(v)) ctx.body = v as Params;
      else throw new ApiError(400, { error: 'The request body must be a JSON object' });
    } else if (ct.startsWith('multipart/form-data')) {
      const boundary = multipartBoundary(String(ctx.req.headers['content-type']));
      if (!boundary) throw new ApiError(400, { error: 'multipart body without a boundary' });
      try {
        const { fields, files } = parseMultipart(buf, boundary);
        ctx.body = nestParams(fields);
        ctx.files = files;
      } catch (e) {
        if (e instanceof DecodeError) throw new ApiError(400, { error: e.message });
        throw e;
      }
    } else {
      // form-encoded, or no content type (treated as a form like Rack does)
      try {
        ctx.body = parseQuery(buf.toString('utf8')).params;
      } catch (e) {
        if (e instanceof DecodeError) throw new ApiError(400, { error: `Invalid request parameters: ${e.message}` });
        throw e;
      }
    }
  }

  // ---- rate limiting ---------------------------------------------------------------

  private rateLimit(ctx: Ctx): void {
    const limit = this.opts.rateLimit;
    if (!limit || limit <= 0) return;
    const cred = extractCredential(ctx.req, ctx.rawQuery);
    const key = cred ? `t:${cred.value}` : `ip:${ctx.req.socket.remoteAddress ?? ''}`;
    const name = cred ? 'throttle_authenticated_api' : 'throttle_unauthenticated_api';
    const nowSec = Math.floor(Date.now() / 1000);
    const start = nowSec - (nowSec % 60);
    let w = this.rateWindows.get(key);
    if (!w || w.start !== start) {
      w = { start, count: 0 };
      this.rateWindows.set(key, w);
    }
    w.count++;
    const reset = start + 60;
    const headers: Array<[string, string]> = [
      ['RateLimit-Name', name],
      ['RateLimit-Limit', String(limit)],
      ['RateLimit-Observed', String(w.count)],
      ['RateLimit-Remaining', String(Math.max(limit - w.count, 0))],
      ['RateLimit-Reset', String(reset)],
    ];
    if (w.count > limit) {
      const h: Record<string, string> = Object.fromEntries(headers);
      h['RateLimit-ResetTime'] = new Date(reset * 1000).toUTCString();
      h['Retry-After'] = String(60 - (nowSec % 60));
      throw new ApiError(429, 'Retry later', h, 'text/plain');
    }
    ctx.out.push(...headers);
  }

  // ---- authentication ---------------------------------------------------------------

  private authenticate(ctx: Ctx): void {
    const route = ctx.route!;
    const cred = extractCredential(ctx.req, ctx.rawQuery, ctx.body);
    if (cred) {
      const rec = this.tokens.get(cred.value);
      if (!rec) throw E.unauthorized();
      if (cred.via === 'job' && rec.kind !== 'job') throw E.unauthorized();
      if (cred.via === 'private' && rec.kind !== 'personal') throw E.unauthorized();
      if (cred.via === 'bearer' && rec.kind === 'job') throw E.unauthorized();
      if (rec.kind === 'job' && !route.job) throw E.unauthorized();
      if (rec.kind === 'oauth') {
        if (rec.revoked) throw invalidToken('Token was revoked. You have to re-authorize from the user.');
        if (rec.expiresAt !== undefined && rec.expiresAt <= Date.now()) {
          throw invalidToken('Token is expired. You can either do re-authorization or token refresh.');
        }
      }
      const isRead = ctx.method === 'GET' || ctx.method === 'HEAD';
      if (!rec.scopes.includes('api') && !(isRead && rec.scopes.includes('read_api'))) throw E.insufficientScope('api');
      ctx.token = rec;
      ctx.tokenValue = cred.value;
      ctx.user = this.world.users[rec.userId] ?? null;
    }
    const sudo = sudoIdentifier(ctx);
    if (sudo !== null) {
      if (!ctx.user || !ctx.token) throw E.unauthorized();
      // A job token can never sudo, whoever the job runs as.
      if (ctx.token.kind === 'job') throw E.forbidden('Must be authenticated using an OAuth or Personal Access Token to use sudo');
      if (!ctx.user.isAdmin) throw E.forbidden('Must be admin to use sudo');
      if (!ctx.token.scopes.includes('sudo')) throw E.insufficientScope('sudo');
      const target = this.world.findUser(sudo);
      if (!target) throw new ApiError(404, { message: `404 User with ID or username '${sudo}' Not Found` });
      ctx.user = target;
    }
    if (route.auth !== 'public' && !ctx.user) throw E.unauthorized();
    if (route.auth === 'admin' && !ctx.user!.isAdmin) throw E.forbidden();
  }

  signObjectUrl(projectId: number, jobId: number): string {
    const expires = Math.floor(Date.now() / 1000) + 300;
    const path = `/sandbox-artifacts/${projectId}/${jobId}/artifacts.zip`;
    const sig = createHmac('sha256', this.objectSecret).update(`${path}:${expires}`).digest('hex');
    return `${this.objectsBase}${path}?X-Amz-Expires=300&X-Amz-Date=${expires}&X-Amz-Signature=${sig}`;
  }

  verifyObjectUrl(path: string, query: URLSearchParams): 'ok' | 'expired' | 'bad' {
    const expires = Number(query.get('X-Amz-Date'));
    const sig = query.get('X-Amz-Signature') ?? '';
    const want = createHmac('sha256', this.objectSecret).update(`${path}:${expires}`).digest('hex');
    if (sig !== want) return 'bad';
    if (expires < Date.now() / 1000) return 'expired';
    return 'ok';
  }

  nextRequestId(): string {
    return `sbx${(++this.reqCounter).toString(36).padStart(8, '0')}`;
  }
}

function invalidToken(desc: string): ApiError {
  return new ApiError(
    401,
    { error: 'invalid_token', error_description: desc },
    { 'WWW-Authenticate': `Bearer realm="Protected by OAuth 2.0", error="invalid_token", error_description="${desc}"` },
  );
}

function allowHeader(methods: string[]): string {
  const set = new Set(methods);
  if (set.has('GET')) set.add('HEAD');
  set.add('OPTIONS');
  return [...set].join(', ');
}

function faultError(kind: string, rateLimit: number): ApiError {
  switch (kind) {
    case '429': {
      const now = Math.floor(Date.now() / 1000);
      const limit = rateLimit > 0 ? rateLimit : 600;
      return new ApiError(
        429,
        'Retry later',
        {
          'RateLimit-Name': 'throttle_authenticated_api',
          'RateLimit-Limit': String(limit),
          'RateLimit-Observed': String(limit + 1),
          'RateLimit-Remaining': '0',
          'RateLimit-Reset': String(now + 1),
          'RateLimit-ResetTime': new Date((now + 1) * 1000).toUTCString(),
          'Retry-After': '1',
        },
        'text/plain',
      );
    }
    case '500':
      return new ApiError(500, { message: '500 Internal Server Error' });
    case '502':
      return new ApiError(502, '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n', {}, 'text/html');
    default:
      return new ApiError(503, '<html>\r\n<head><title>503 Service Temporarily Unavailable</title></head>\r\n<body>\r\n<center><h1>503 Service Temporarily Unavailable</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n', {}, 'text/html');
  }
}

export function extractCredential(
  req: IncomingMessage,
  rawQuery: string,
  body?: Params,
): { value: string; via: 'private' | 'bearer' | 'job' } | null {
  const h = req.headers;
  const pt = h['private-token'];
  if (typeof pt === 'string' && pt) return { value: pt, via: 'private' };
  const authz = h.authorization;
  if (typeof authz === 'string') {
    const m = /^bearer\s+(.+)$/i.exec(authz.trim());
    if (m) return { value: m[1]!.trim(), via: 'bearer' };
  }
  const jt = h['job-token'];
  if (typeof jt === 'string' && jt) return { value: jt, via: 'job' };
  if (rawQuery.includes('_token=') || body) {
    let q: Params = {};
    try {
      q = parseQuery(rawQuery).params;
    } catch {
      /* ignored here; reported later */
    }
    const pick = (k: string) => {
      const v = q[k] ?? body?.[k];
      return typeof v === 'string' && v ? v : null;
    };
    const p = pick('private_token');
    if (p) return { value: p, via: 'private' };
    const a = pick('access_token');
    if (a) return { value: a, via: 'bearer' };
    const j = pick('job_token');
    if (j) return { value: j, via: 'job' };
  }
  return null;
}

function sudoIdentifier(ctx: Ctx): string | null {
  const h = ctx.req.headers.sudo;
  if (typeof h === 'string' && h !== '') return h;
  const q = ctx.params.sudo;
  if (typeof q === 'string' && q !== '') return q;
  if (typeof q === 'number') return String(q);
  return null;
}

function lowerHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined) continue;
    out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (c: Buffer) => {
      if (failed) return;
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        failed = true;
        reject(new ApiError(413, { message: '413 Request Entity Too Large' }));
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (!failed) resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    });
    req.on('error', (e) => {
      if (!failed) reject(e);
    });
  });
}

function drain(req: IncomingMessage): void {
  req.resume();
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms).unref());
}

function baseHeaders(ctx: Ctx, contentType: string, extra: Record<string, string>): void {
  const res = ctx.res;
  res.setHeader('X-Frame-Options', 'SAMEORIGIN');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Type', contentType);
  res.setHeader('X-Request-Id', ctx.core.nextRequestId());
  res.setHeader('Cache-Control', 'max-age=0, private, must-revalidate');
  for (const [k, v] of ctx.out) res.setHeader(k, v);
  for (const [k, v] of Object.entries(extra)) res.setHeader(k, v);
}

export function sendJson(ctx: Ctx, status: number, body: unknown, extra: Record<string, string> = {}): void {
  const text = status === 204 ? '' : JSON.stringify(body);
  baseHeaders(ctx, 'application/json', extra);
  ctx.res.statusCode = status;
  if (status === 204) {
    ctx.res.end();
    return;
  }
  ctx.res.setHeader('Content-Length', Buffer.byteLength(text));
  ctx.res.end(text);
}

/** Send an already-serialized JSON text. */
export function sendRawJson(ctx: Ctx, status: number, text: string, extra: Record<string, string> = {}): void {
  baseHeaders(ctx, 'application/json', extra);
  ctx.res.statusCode = status;
  ctx.res.setHeader('Content-Length', Buffer.byteLength(text));
  ctx.res.end(text);
}

export function sendText(ctx: Ctx, status: number, text: string | Buffer, contentType: string, extra: Record<string, string> = {}): void {
  baseHeaders(ctx, contentType, extra);
  ctx.res.statusCode = status;
  if (status === 204) {
    ctx.res.end();
    return;
  }
  ctx.res.setHeader('Content-Length', typeof text === 'string' ? Buffer.byteLength(text) : text.length);
  ctx.res.end(text);
}
