// What a handler sees of one request.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AccessTokenRec, UserRec } from '../store/records.js';
import type { World } from '../store/world.js';
import type { FilePart } from '../util/multipart.js';
import type { Params } from '../util/query.js';
import type { RecordedRequest } from '../types.js';
import type { Core } from './core.js';
import type { Route } from './router.js';

export interface TokenRec {
  kind: 'personal' | 'oauth' | 'job';
  userId: number;
  scopes: string[];
  expiresAt?: number;
  revoked?: boolean;
  refresh?: string;
  jobId?: number;
  projectId?: number;
  /** the personal or impersonation token this credential is: its revocation, expiry and last use */
  accessToken?: AccessTokenRec;
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
  out: Array<[string, string]>;
  requestId: string;
  record: RecordedRequest;
  /** the JSON a write answered, for the observers of writes (events) */
  answer?: string;
}
