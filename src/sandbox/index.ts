// The sandbox: an in-process emulation of the service's API v4.
// See src/sandbox/README.md for the documented rules and the test handle.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { MoveKind } from './moves.js';
import { artifactArchive } from './resources/artifact-archive.js';
import { jobById } from './resources/job-states.js';
import { auditWrite } from './resources/audit-log.js';
import { recordEvent } from './resources/events.js';
import { recordLabelEvents } from './resources/resource-label-events.js';
import { recordStateEvents } from './resources/resource-state-events.js';
import { RESOURCES } from './resources/index.js';
import { mounts } from './resources/mounts.js';
import { Core } from './server/core.js';
import { type JournalEntry, replay } from './server/journal.js';
import type { RecordedRequest, Sandbox, SandboxOptions, SandboxState } from './types.js';

export type { RecordedRequest, Sandbox, SandboxOptions, SandboxState, SandboxStats, SandboxTokens } from './types.js';
export { parseFaultSpec, type FaultSpec, type FaultKind } from './faults.js';
export { MAX_QUERY_BYTES } from './server/core.js';
export { parseScenario } from './scenario/parse.js';
export { STATE_FORMAT, worldIdentity, type JournalEntry, type StateFile } from './server/journal.js';
export { SCENARIO_SCHEMA, type Scenario } from './scenario/schema.js';

export const DEFAULT_ADMIN_TOKEN = 'sandbox-admin-token-0123456789';

function latencyRange(v: SandboxOptions['latencyMs']): { min: number; max: number } {
  if (v === undefined) return { min: 0, max: 0 };
  return Array.isArray(v) ? { min: v[0], max: v[1] } : { min: v, max: v };
}

function hostForUrl(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (e: Error) => {
      server.off('listening', onListening);
      reject(e);
    };
    const onListening = () => {
      server.off('error', onError);
      const addr = server.address();
      resolve(typeof addr === 'object' && addr ? addr.port : port);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

function track(server: Server, sockets: Set<Socket>, onOpen: () => void): void {
  server.on('connection', (s: Socket) => {
    onOpen();
    s.setNoDelay(true);
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.requestTimeout = 0;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const host = options.host ?? '127.0.0.1';
  const storages = options.storages && options.storages.length > 0 ? options.storages : ['default', 'storage2'];
  const seed = options.seed ?? 1;
  const core = new Core({
    projects: options.scenario ? 0 : (options.projects ?? 50),
    users: options.users ?? 0,
    storages,
    spreadStorages: options.spreadStorages ?? false,
    seed,
    adminToken: options.adminToken ?? DEFAULT_ADMIN_TOKEN,
    moveMs: options.moveMs ?? 200,
    moveConcurrency: options.moveConcurrency ?? 10,
    moveFailureRate: options.moveFailureRate ?? 0,
    bulkSkipRate: options.bulkSkipRate ?? 0,
    tier: options.tier ?? 'premium',
    faults: options.faults ?? '',
    faultSeed: options.faultSeed ?? seed,
    slowMs: options.slowMs ?? 300,
    rateLimit: options.rateLimit ?? 0,
    captcha: options.captcha ?? false,
    oauthTtlSeconds: options.oauthTtlSeconds ?? 7200,
    maxOffset: options.maxOffset ?? 50_000,
    latency: latencyRange(options.latencyMs),
    maxConcurrency: options.maxConcurrency ?? 0,
    runners: options.runners ?? 10,
    exportStepMs: options.exportStepMs ?? 100,
    log: options.log,
    clock: options.clock,
    scenario: options.scenario,
    createdAt: options.createdAt,
  });
  const scopes = mounts(core.router);
  core.router.observeWrites(auditWrite);
  core.router.observeWrites(recordEvent);
  core.router.observeWrites(recordLabelEvents);
  core.router.observeWrites(recordStateEvents);
  for (const mount of RESOURCES) mount(scopes);

  const apiSockets = new Set<Socket>();
  const objSockets = new Set<Socket>();
  const api = createServer({ maxHeaderSize: 64 * 1024 }, (req, res) => {
    core.handle(req, res).catch(() => {
      if (!res.headersSent) {
        res.statusCode = 500;
        res.end('{"message":"500 Internal Server Error"}');
      }
    });
  });
  api.on('clientError', (_err, socket) => {
    if (socket.writable)
      socket.end('HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n{"error":"400 Bad Request"}');
    else socket.destroy();
  });
  track(api, apiSockets, () => core.stats.connections.opened++);
  const objects = createServer((req, res) => serveObject(core, req, res));
  track(objects, objSockets, () => core.stats.connections.objectsOpened++);

  const port = await listen(api, options.port ?? 0, host);
  core.baseUrl = `http://${hostForUrl(host)}:${port}`;
  let objHost = options.objectStorageHost ?? '127.0.0.2';
  let objPort: number;
  try {
    objPort = await listen(objects, 0, objHost);
  } catch {
    objHost = host;
    try {
      objPort = await listen(objects, 0, objHost);
    } catch (e) {
      api.closeAllConnections();
      api.close();
      throw e;
    }
  }
  core.objectsBase = `http://${hostForUrl(objHost)}:${objPort}`;
  const replayRefused = options.journal ? await replayJournal(core, options.journal) : 0;

  const w = core.world;
  // The regular user's tokens are the ones handed out; their first listing should not pay for a scan.
  const regular = w.users.get(2);
  const stopWarming = w.projectOrders.warm(regular ? [regular] : []);
  const state: SandboxState = {
    fixtures: {
      adminId: 1,
      userId: 2,
      publicProjectId: 1,
      privateProjectId: 2,
      internalProjectId: 3,
      jobId: 7,
      jobProjectId: 2,
      renamed: w.renamed.map((r) => ({ ...r })),
      userMemberGroupId: 1,
    },
    project(v) {
      if (typeof v === 'number') return w.projects.get(v);
      const f = w.findProjectByPath(v);
      return f && !f.redirected ? f.project : null;
    },
    group(v) {
      const id = typeof v === 'number' ? v : w.groupsByPath.get(v.toLowerCase());
      return id ? w.groups.get(id) : null;
    },
    snippet: (id) => w.snippets.get(id),
    user: (v) => w.findUser(String(v)),
    projectCount: () => w.allIds.length,
    projectIdsOnStorage: (s) => [...(w.storageIdx.get(s) ?? [])],
    setProjectStorage: (id, s) => w.setProjectStorage(id, s),
    setReadOnly: (kind: MoveKind, id, ro) => core.moves.setReadOnly(kind, id, ro),
    moves: (kind) => core.moves.moves[kind].map((m) => ({ ...m, history: [...m.history] })),
    skippedMoves: () => [...core.moves.skipped],
    bulkInProgress: () => core.moves.bulkInProgress,
    storageWeights: () => ({ ...w.weights }),
  };

  let closed: Promise<void> | null = null;
  const closeServer = (s: Server, sockets: Set<Socket>) =>
    new Promise<void>((resolve) => {
      s.close(() => resolve());
      s.closeAllConnections();
      for (const sock of sockets) sock.destroy();
    });

  return {
    url: core.baseUrl,
    objectsUrl: core.objectsBase,
    tokens: core.publicTokens,
    stats: () => core.snapshotStats(),
    requests: () => [...core.records],
    clearRequests: () => {
      core.records.length = 0;
    },
    expireOAuth: () => {
      const t = core.tokens.get(core.currentOAuthAccess);
      if (t) t.expiresAt = Date.now() - 1000;
    },
    state,
    journal: () => [...core.journal],
    replayRefused,
    createdAt: core.createdAt,
    close: () => {
      if (!closed) {
        stopWarming();
        core.moves.close();
        closed = Promise.all([closeServer(api, apiSockets), closeServer(objects, objSockets)]).then(() => undefined);
      }
      return closed;
    },
  };
}

/** Replays an earlier run's writes, each with the clock at its time, then gives the clock back. */
async function replayJournal(core: Core, entries: JournalEntry[]): Promise<number> {
  const w = core.world;
  const now = w.now;
  core.replaying = true;
  try {
    return await replay(core.baseUrl, core.opts.adminToken, entries, (at) => (w.now = () => at));
  } finally {
    w.now = now;
    core.replaying = false;
  }
}

const S3_HEADERS = { 'Content-Type': 'application/xml', 'x-amz-request-id': 'SANDBOX' };

function serveObject(core: Core, req: IncomingMessage, res: ServerResponse): void {
  const url = req.url ?? '/';
  const qi = url.indexOf('?');
  const rawPath = qi < 0 ? url : url.slice(0, qi);
  const rawQuery = qi < 0 ? '' : url.slice(qi + 1);
  const method = (req.method ?? 'GET').toUpperCase();
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
  const record: RecordedRequest = { method, rawPath, rawQuery, headers, body: '', status: 0, origin: 'objects' };
  core.pushRecord(record);
  const s = core.stats.requests;
  const routeKey = `${method} objects:/sandbox-artifacts/:project_id/:job_id/artifacts.zip`;
  s.total++;
  s.byMethod[method] = (s.byMethod[method] ?? 0) + 1;
  s.byRoute[routeKey] = (s.byRoute[routeKey] ?? 0) + 1;
  req.resume();
  res.on('finish', () => {
    record.status = res.statusCode;
    core.opts.log?.(`objects ${method} ${rawPath} ${res.statusCode}`);
  });
  const xml = (status: number, code: string, message: string) => {
    const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;
    res.writeHead(status, { ...S3_HEADERS, 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  };
  const m = /^\/sandbox-artifacts\/(\d+)\/(\d+)\/artifacts\.zip$/.exec(rawPath);
  if (!m || (method !== 'GET' && method !== 'HEAD')) return xml(404, 'NoSuchKey', 'The specified key does not exist.');
  const verdict = core.verifyObjectUrl(rawPath, new URLSearchParams(rawQuery));
  if (verdict === 'bad')
    return xml(403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided.');
  if (verdict === 'expired') return xml(403, 'AccessDenied', 'Request has expired');
  const jobId = Number(m[2]);
  const job = jobById(core.world, jobId);
  if (!job?.hasArtifacts || job.projectId !== Number(m[1])) return xml(404, 'NoSuchKey', 'The specified key does not exist.');
  const data = artifactArchive(core.world, jobId);
  res.writeHead(200, {
    'Content-Type': 'application/zip',
    'Content-Length': data.length,
    'Content-Disposition': 'attachment; filename="artifacts.zip"',
    ETag: `"${jobId.toString(16)}-${data.length.toString(16)}"`,
    'Accept-Ranges': 'none',
  });
  res.end(data);
}
