// The journal behind `svc sandbox --state`: every write the sandbox answered with success (method,
// raw path and query, body, the acting user, the sandbox clock's time). Replayed in order against a
// fresh world (the same seed or scenario) with the clock at each write's time, it rebuilds the same
// records with the same ids and times, since every id and time the sandbox gives comes from them.
import { createHash } from 'node:crypto';
import type { Ctx } from './context.js';

export interface JournalEntry {
  method: string;
  /** raw path and query, as received */
  url: string;
  contentType?: string;
  /** base64 */
  body?: string;
  /** the acting user (after sudo); null: anonymous */
  user: number | null;
  /** the sandbox clock when the request came in (ms since the epoch) */
  at: number;
}

export const STATE_FORMAT = 'svc-sandbox-state/1';

export interface StateFile {
  format: typeof STATE_FORMAT;
  /** what world the journal was written against (see worldIdentity) */
  world: string;
  /** when the world was made (the sandbox clock), so that a scenario's records keep their times */
  createdAt: number;
  journal: JournalEntry[];
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function isJournaled(method: string, status: number): boolean {
  return !READS.has(method) && status >= 200 && status < 400;
}

/** Credentials in the query: never kept (the replay sends its own). */
const CREDENTIAL_PARAM = /^(private_token|access_token|job_token)=/;

export function journalEntry(ctx: Ctx, at: number): JournalEntry {
  const contentType = ctx.req.headers['content-type'];
  const query = ctx.rawQuery
    .split('&')
    .filter((pair) => pair && !CREDENTIAL_PARAM.test(pair))
    .join('&');
  return {
    method: ctx.method,
    url: query ? `${ctx.rawPath}?${query}` : ctx.rawPath,
    ...(contentType ? { contentType } : {}),
    ...(ctx.bodyBuf.length > 0 ? { body: ctx.bodyBuf.toString('base64') } : {}),
    user: ctx.user?.id ?? null,
    at,
  };
}

/** Names the world a journal applies to: the seed and sizes, or a digest of the scenario. */
export function worldIdentity(o: { seed: number; projects: number; users: number; storages: string[]; scenario?: unknown }): string {
  if (o.scenario !== undefined)
    return `scenario sha256:${createHash('sha256').update(JSON.stringify(o.scenario)).digest('hex').slice(0, 16)}`;
  return `seed ${o.seed}, ${o.projects} projects, ${o.users || 'default'} users, storages ${o.storages.join(',')}`;
}

/** Sends each entry to the sandbox as its user (the admin token with `Sudo`); answers how many were refused. */
export async function replay(
  baseUrl: string,
  adminToken: string,
  entries: readonly JournalEntry[],
  setClock: (at: number) => void,
): Promise<number> {
  let refused = 0;
  for (const e of entries) {
    setClock(e.at);
    const headers: Record<string, string> = {};
    if (e.user !== null) headers['private-token'] = adminToken;
    if (e.user !== null && e.user !== 1) headers.sudo = String(e.user);
    if (e.contentType) headers['content-type'] = e.contentType;
    const res = await fetch(`${baseUrl}${e.url}`, {
      method: e.method,
      headers,
      body: e.body === undefined ? undefined : Buffer.from(e.body, 'base64'),
      redirect: 'manual',
    });
    await res.arrayBuffer();
    if (res.status >= 400) refused++;
  }
  return refused;
}
