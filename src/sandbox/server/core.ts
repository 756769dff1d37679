// The request pipeline of the sandbox: record → fault → 414 → rate limit →
// route on the raw path → body → auth/sudo → handler. Routes are mounted by
// the resource files (see ../resources/index.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHmac, randomBytes } from 'node:crypto';
import { FaultPicker, parseFaultSpec } from '../faults.js';
import { MoveEngine } from '../moves.js';
import { describeSandboxTokens } from '../store/access-tokens.js';
import { World } from '../store/world.js';
import { isJournaled, type JournalEntry, journalEntry } from './journal.js';
import { loadScenario } from '../scenario/load.js';
import type { Scenario } from '../scenario/schema.js';
import type { RecordedRequest, SandboxOptions, SandboxStats, SandboxTokens } from '../types.js';
import { sha256 } from '../util/digest.js';
import { DecodeError, parseQuery } from '../util/query.js';
import { authenticate } from './auth.js';
import { parseBody, readBody } from './body.js';
import type { Ctx, TokenRec } from './context.js';
import { ApiError, E } from './errors.js';
import { faultError, RateLimiter } from './limits.js';
import { sendJson, sendText } from './respond.js';
import { Router } from './router.js';
import { type LatencyRange, Workers } from './workers.js';

/** Longest raw query string accepted; longer ones get 414. */
export const MAX_QUERY_BYTES = 8192;
const MAX_RECORDED_BODY = 256 * 1024;
const MAX_RECORDS = 200_000;

export interface CoreOptions extends Required<
  Omit<
    SandboxOptions,
    | 'log'
    | 'clock'
    | 'faults'
    | 'spreadStorages'
    | 'objectStorageHost'
    | 'host'
    | 'port'
    | 'latencyMs'
    | 'scenario'
    | 'journal'
    | 'createdAt'
  >
> {
  log?: (line: string) => void;
  scenario?: Scenario;
  createdAt?: number;
  clock?: () => number;
  faults: string;
  spreadStorages: boolean;
  latency: LatencyRange;
}

export class Core {
  readonly world: World;
  readonly moves: MoveEngine;
  readonly router = new Router();
  readonly tokens = new Map<string, TokenRec>();
  readonly refreshTokens = new Map<string, string>(); // refresh → access
  readonly publicTokens: SandboxTokens;
  readonly records: RecordedRequest[] = [];
  readonly stats: SandboxStats;
  readonly faults: FaultPicker;
  readonly opts: CoreOptions;
  readonly objectSecret = randomBytes(16).toString('hex');
  readonly rateLimiter: RateLimiter;
  private readonly workers: Workers;
  private oauthCounter = 0;
  currentOAuthAccess: string;
  objectsBase = '';
  baseUrl = '';
  private reqCounter = 0;
  /** Every write answered with success, in order: what `--state` keeps (see journal.ts). */
  readonly journal: JournalEntry[] = [];
  /** When the world was made: a scenario's records date from then. */
  readonly createdAt: number;
  /** While a journal is replayed at start: no faults, delays or rate limit. */
  replaying = false;

  constructor(opts: CoreOptions) {
    this.opts = opts;
    this.world = new World({
      projects: opts.projects,
      users: opts.users,
      storages: opts.storages,
      seed: opts.seed,
      spreadStorages: opts.spreadStorages,
      bare: opts.scenario !== undefined,
    });
    this.world.base = () => this.baseUrl;
    if (opts.clock) this.world.now = opts.clock;
    this.createdAt = opts.createdAt ?? this.world.now();
    if (opts.scenario) loadScenario(this.world, opts.scenario, this.createdAt);
    this.moves = new MoveEngine(this.world, {
      moveMs: opts.moveMs,
      concurrency: Math.max(1, opts.moveConcurrency),
      failureRate: opts.moveFailureRate,
      skipRate: opts.bulkSkipRate,
      seed: opts.seed,
      log: opts.log,
    });
    this.faults = new FaultPicker(parseFaultSpec(opts.faults), opts.faultSeed);
    this.rateLimiter = new RateLimiter(opts.rateLimit);
    this.workers = new Workers(opts.maxConcurrency, opts.latency, opts.seed);
    this.stats = {
      requests: { total: 0, byRoute: {}, byMethod: {} },
      connections: { opened: 0, objectsOpened: 0 },
      faults: {},
      latency: { minMs: opts.latency.min, maxMs: opts.latency.max, delayed: 0, totalDelayMs: 0 },
      concurrency: { limit: opts.maxConcurrency, maxActive: 0, queued: 0, maxQueued: 0 },
      moves: { created: 0, byState: {}, maxRunning: 0, maxUnfinished: 0 },
    };
    const admin = opts.adminToken;
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
    describeSandboxTokens([
      ['sandbox-admin', this.tokens.get(admin)!],
      ['sandbox-admin-nosudo', this.tokens.get(this.publicTokens.adminNoSudo)!],
      ['sandbox-user', this.tokens.get(this.publicTokens.user)!],
      ['sandbox-read-api', this.tokens.get(this.publicTokens.readApi)!],
    ]);
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
    this.tokens.set(access, {
      kind: 'oauth',
      userId: 1,
      scopes: ['api'],
      expiresAt: Date.now() + this.opts.oauthTtlSeconds * 1000,
      refresh,
    });
    this.refreshTokens.set(refresh, access);
    this.currentOAuthAccess = access;
    return { access, refresh };
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = process.hrtime.bigint();
    const url = req.url ?? '/';
    const qi = url.indexOf('?');
    const rawPath = qi < 0 ? url : url.slice(0, qi);
    const rawQuery = qi < 0 ? '' : url.slice(qi + 1);
    const method = (req.method ?? 'GET').toUpperCase();
    let at = 0;
    if (rawPath === '/-/sandbox/stats') {
      req.resume();
      const body = JSON.stringify(this.snapshotStats());
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-store' });
      res.end(body);
      return;
    }
    const record: RecordedRequest = { method, rawPath, rawQuery, headers: lowerHeaders(req), body: '', status: 0, origin: 'api' };
    this.pushRecord(record);
    const { route, allow, rawParts } = this.router.match(method, rawPath, this.opts.tier !== 'free');
    const ctx: Ctx = {
      core: this,
      world: this.world,
      req,
      res,
      method,
      rawPath,
      rawQuery,
      host: req.headers.host || this.baseUrl.replace(/^http:\/\//, ''),
      route,
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
      out: [],
      requestId: `sbx${(++this.reqCounter).toString(36).padStart(8, '0')}`,
      record,
    };
    const routeKey = route ? `${method} ${route.pattern}` : allow.length > 0 ? `${method} (method not allowed)` : `${method} (unmatched)`;
    const s = this.stats.requests;
    s.total++;
    s.byMethod[method] = (s.byMethod[method] ?? 0) + 1;
    s.byRoute[routeKey] = (s.byRoute[routeKey] ?? 0) + 1;
    res.on('finish', () => {
      record.status = res.statusCode;
      if (route && isJournaled(method, res.statusCode)) this.journal.push(journalEntry(ctx, at));
      if (this.opts.log) {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        this.opts.log(`${method} ${rawPath} ${res.statusCode} ${ms.toFixed(1)}ms`);
      }
    });
    let working = false;
    try {
      ctx.bodyBuf = await readBody(req);
      await this.workers.acquire();
      working = true;
      const delay = this.replaying ? 0 : this.workers.nextDelay();
      if (delay > 0) await sleep(delay);
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
      const fault = this.replaying ? null : this.faults.draw();
      if (fault) {
        this.stats.faults[fault] = (this.stats.faults[fault] ?? 0) + 1;
        if (fault === 'reset') {
          req.socket.destroy();
          this.opts.log?.(`${method} ${rawPath} reset (fault)`);
          return;
        }
        if (fault === 'slow') await sleep(this.opts.slowMs);
        else throw faultError(fault, this.opts.rateLimit);
      }
      if (rawPath.startsWith('/api/v3/')) throw new ApiError(410, { error: 'API V3 is no longer supported. Use API V4 instead.' });
      if (Buffer.byteLength(rawQuery) > MAX_QUERY_BYTES) throw new ApiError(414, { message: '414 Request-URI Too Large' });
      if (!this.replaying) this.rateLimiter.check(ctx);
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
        if (!part.startsWith(':')) continue;
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
      parseBody(ctx);
      ctx.params = { ...ctx.query, ...ctx.body };
      authenticate(ctx, this.tokens);
      at = this.world.now();
      await this.atTime(at, method, () => route.handler(ctx));
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
    } finally {
      if (working) this.workers.release();
    }
  }

  /**
   * A write runs (up to its first await) with the clock standing at `at`, the time its journal entry
   * keeps, so that replaying it at that time gives its records the same times.
   */
  private atTime(at: number, method: string, run: () => Promise<void> | void): Promise<void> | void {
    if (!isJournaled(method, 200)) return run();
    const now = this.world.now;
    this.world.now = () => at;
    try {
      return run();
    } finally {
      this.world.now = now;
    }
  }

  pushRecord(r: RecordedRequest): void {
    if (this.records.length >= MAX_RECORDS) this.records.splice(0, MAX_RECORDS / 10);
    this.records.push(r);
  }

  snapshotStats(): SandboxStats {
    const byState: Record<string, number> = {};
    for (const [k, v] of Object.entries(this.moves.byState)) if (v > 0) byState[k] = v;
    const w = this.workers.stats;
    return {
      requests: {
        total: this.stats.requests.total,
        byRoute: { ...this.stats.requests.byRoute },
        byMethod: { ...this.stats.requests.byMethod },
      },
      connections: { ...this.stats.connections },
      faults: { ...this.stats.faults },
      latency: { minMs: this.opts.latency.min, maxMs: this.opts.latency.max, delayed: w.delayed, totalDelayMs: w.totalDelayMs },
      concurrency: { limit: this.opts.maxConcurrency, maxActive: w.maxActive, queued: w.queued, maxQueued: w.maxQueued },
      moves: { created: this.moves.created, byState, maxRunning: this.moves.running.max, maxUnfinished: this.moves.unfinished.max },
    };
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
}

function allowHeader(methods: string[]): string {
  const set = new Set(methods);
  if (set.has('GET')) set.add('HEAD');
  set.add('OPTIONS');
  return [...set].join(', ');
}

function lowerHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined) continue;
    out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms).unref());
}
