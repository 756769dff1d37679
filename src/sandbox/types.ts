// Public types of the sandbox's programmatic API.
import type { GroupRec, ProjectRec, SnippetRec, UserRec } from './store/records.js';
import type { MoveKind, MoveRec } from './moves.js';
import type { Scenario } from './scenario/schema.js';
import type { JournalEntry } from './server/journal.js';

export interface SandboxOptions {
  host?: string;
  port?: number;
  projects?: number;
  /** Seeded users (at least 2: root and jdoe); default 12 + projects/50. */
  users?: number;
  storages?: string[];
  spreadStorages?: boolean;
  seed?: number;
  adminToken?: string;
  moveMs?: number;
  moveConcurrency?: number;
  moveFailureRate?: number;
  bulkSkipRate?: number;
  tier?: 'free' | 'premium';
  faults?: string;
  faultSeed?: number;
  slowMs?: number;
  rateLimit?: number;
  captcha?: boolean;
  oauthTtlSeconds?: number;
  maxOffset?: number;
  log?: (line: string) => void;
  objectStorageHost?: string;
  /** Delay of every API answer in ms: a fixed value, or `[min, max]` drawn uniformly from the seed. */
  latencyMs?: number | [number, number];
  /** Requests handled at once, like a server with this many workers; more wait in order (0: no limit). */
  maxConcurrency?: number;
  /** Runners to seed (default 10: one of each status and owner kind; more are derived from the seed). */
  runners?: number;
  /** Each step of a project export (queued → started → finished) takes this long (default 100 ms). */
  exportStepMs?: number;
  /** Now in ms since the epoch as pipelines and jobs see it (default `Date.now`): with its own clock a test decides when they move on. */
  clock?: () => number;
  /** The world to serve instead of the seeded one (see scenario/schema.ts); `projects` and `users` are then not seeded. */
  scenario?: Scenario;
  /** Writes of an earlier run (`--state`) to replay at start, each at its own clock time. */
  journal?: JournalEntry[];
  /** When the world was made (default: now on the clock); a restart with `journal` passes the first run's, so a scenario's pipelines keep their times. */
  createdAt?: number;
}

export interface SandboxTokens {
  admin: string;
  adminNoSudo: string;
  user: string;
  readApi: string;
  job: string;
  oauth: { access: string; refresh: string };
}

export interface RecordedRequest {
  method: string;
  rawPath: string;
  rawQuery: string;
  headers: Record<string, string>;
  body: string;
  bodyJson?: unknown;
  status: number;
  origin: 'api' | 'objects';
}

export interface SandboxStats {
  requests: { total: number; byRoute: Record<string, number>; byMethod: Record<string, number> };
  connections: { opened: number; objectsOpened: number };
  faults: Record<string, number>;
  latency: { minMs: number; maxMs: number; delayed: number; totalDelayMs: number };
  concurrency: {
    /** 0: no limit */
    limit: number;
    /** most requests in progress at once */
    maxActive: number;
    /** requests that had to wait for a worker */
    queued: number;
    /** most requests waiting at once */
    maxQueued: number;
  };
  moves: {
    created: number;
    byState: Record<string, number>;
    /** Most moves a worker held at once (`started`/`replicated`); bounded by `moveConcurrency`. */
    maxRunning: number;
    /** Most moves not final at once (`scheduled`/`started`/`replicated`), queued ones included. */
    maxUnfinished: number;
  };
}

/** Test handle into the sandbox's state (see src/sandbox/README.md). */
export interface SandboxState {
  /** Ids of well-known seeded objects. */
  readonly fixtures: {
    adminId: number;
    userId: number;
    publicProjectId: number;
    privateProjectId: number;
    internalProjectId: number;
    jobId: number;
    jobProjectId: number;
    renamed: Array<{ projectId: number; oldFullPath: string }>;
    userMemberGroupId: number;
  };
  project(idOrPath: number | string): ProjectRec | null;
  group(idOrPath: number | string): GroupRec | null;
  snippet(id: number): SnippetRec | null;
  user(idOrUsername: number | string): UserRec | null;
  projectCount(): number;
  /** Sorted ids of the projects on a storage (live index). */
  projectIdsOnStorage(storage: string): number[];
  setProjectStorage(id: number, storage: string): void;
  setReadOnly(kind: MoveKind, id: number, readOnly: boolean): void;
  moves(kind: MoveKind): MoveRec[];
  /** Lines logged by the bulk scheduler for containers it skipped. */
  skippedMoves(): string[];
  /** Number of bulk schedulers still creating moves. */
  bulkInProgress(): number;
  storageWeights(): Record<string, number>;
}

export interface Sandbox {
  url: string;
  objectsUrl: string;
  tokens: SandboxTokens;
  stats(): SandboxStats;
  requests(): RecordedRequest[];
  clearRequests(): void;
  expireOAuth(): void;
  state: SandboxState;
  /** The writes answered with success since the world was made (replayed ones first): what `--state` saves. */
  journal(): JournalEntry[];
  /** Journal entries of `options.journal` the sandbox refused on replay. */
  replayRefused: number;
  /** When the world was made (see `SandboxOptions.createdAt`). */
  createdAt: number;
  close(): Promise<void>;
}
