// One pass over the instance's tokens with an administrator's token: every project's and group's
// access and deploy tokens (the service lists those per owner only), then everyone's personal tokens
// from the instance-wide list, where the bots' tokens already seen are skipped and impersonation
// tokens are told apart by one look at each owner's impersonation list. Pages are processed one at
// a time with at most `maxInFlight` requests, so memory holds a page, the usernames and two id sets.
import { checkedPages, type RecordShape } from '../../api/records.js';
import type { AccessToken, TokenKind } from '../../api/tokens.js';
import { ExitCode, SvcError } from '../../errors.js';
import { ApiError } from '../../http/api-error.js';
import { apiPath } from '../../http/encode.js';
import type { HttpClient } from '../../http/client.js';
import type { Throttle } from '../../http/throttle.js';
import { auditRecord, count, emptySummary, type AuditRecord, type AuditSummary, type AuditWindows } from './record.js';

export interface AuditPlan extends AuditWindows {
  maxInFlight: number;
  /** Writes a batch of records (a page's worth) before the next page is read; false when no one reads them any more. */
  emit: (records: AuditRecord[]) => Promise<boolean>;
  /** Said when a project or group is gone (404) between the listing and the read of its tokens: they went with it. */
  warn: (line: string) => void;
  /** Told after every page how far the pass got. */
  progress: (scanned: AuditProgress) => void;
}

export interface AuditProgress {
  projects: number;
  groups: number;
  users: number;
  tokens: number;
}

interface Owner {
  kind: 'project' | 'group';
  id: number;
  path: string;
}

const PAGE = { per_page: 100 };
const ID: RecordShape = { id: 'number' };
/** Ids are told apart by their text: one past 2^53 is parsed as an object holding it (json.ts). */
const idKey = (id: unknown) => String(id);

/** The summary of the pass, or null when it ended early because no one read the records any more. */
export async function auditTokens(http: HttpClient, plan: AuditPlan): Promise<AuditSummary | null> {
  const summary = emptySummary();
  const slots = http.throttle(plan.maxInFlight);
  const botTokens = new Set<string>();
  const scanned: AuditProgress = { projects: 0, groups: 0, users: 0, tokens: 0 };
  const emit = async (records: AuditRecord[]): Promise<boolean> => {
    for (const r of records) count(summary, r);
    scanned.tokens += records.length;
    plan.progress({ ...scanned });
    return records.length === 0 || (await plan.emit(records));
  };
  const projects = http.pages<{ id: number; path_with_namespace: string }>('/projects', {
    ...PAGE,
    simple: true,
    pagination: 'keyset',
    order_by: 'id',
    sort: 'asc',
  });
  for await (const page of checkedPages(projects, 'GET /projects', ID)) {
    const owners = page.items.map((p) => ({ kind: 'project' as const, id: p.id, path: p.path_with_namespace }));
    const records = await ownersTokens(http, slots, owners, botTokens, plan);
    scanned.projects += owners.length;
    if (!(await emit(records))) return null;
  }
  const groups = http.pages<{ id: number; full_path: string }>('/groups', { ...PAGE, all_available: true, order_by: 'id', sort: 'asc' });
  for await (const page of checkedPages(groups, 'GET /groups', ID)) {
    const owners = page.items.map((g) => ({ kind: 'group' as const, id: g.id, path: g.full_path }));
    const records = await ownersTokens(http, slots, owners, botTokens, plan);
    scanned.groups += owners.length;
    if (!(await emit(records))) return null;
  }
  const users = new Map<string, { username: string; bot: boolean }>();
  const userPages = http.pages<{ id: number; username: string; bot?: boolean }>('/users', {
    ...PAGE,
    pagination: 'keyset',
    order_by: 'id',
    sort: 'asc',
  });
  for await (const page of checkedPages(userPages, 'GET /users', ID)) {
    for (const u of page.items) users.set(idKey(u.id), { username: u.username, bot: u.bot === true });
    scanned.users = users.size;
    plan.progress({ ...scanned });
  }
  const lookedUp = new Set<string>();
  const impersonation = new Set<string>();
  for await (const page of checkedPages(http.pages<AccessToken>('/personal_access_tokens', PAGE), 'GET /personal_access_tokens', ID)) {
    const tokens = page.items.filter((t) => !botTokens.has(idKey(t.id)));
    const owners = [...new Map(tokens.map((t) => [idKey(t.user_id), t.user_id as number])).entries()]
      .filter(([key]) => !lookedUp.has(key) && users.get(key)?.bot === false)
      .map(([, id]) => id);
    await pooled(slots, owners, async (userId) => {
      for (const t of await allOf(http, apiPath`/users/${userId}/impersonation_tokens`)) impersonation.add(idKey(t.id));
      lookedUp.add(idKey(userId));
    });
    const records = tokens.map((t) => {
      const userId = t.user_id as number;
      const kind: TokenKind = impersonation.has(idKey(t.id)) ? 'impersonation' : 'personal';
      return auditRecord(kind, t, users.get(idKey(userId))?.username ?? `user ${userId}`, userId, plan);
    });
    if (!(await emit(records))) return null;
  }
  return summary;
}

/** The access and deploy tokens of a page of projects or groups. */
async function ownersTokens(
  http: HttpClient,
  slots: Throttle,
  owners: Owner[],
  botTokens: Set<string>,
  plan: AuditPlan,
): Promise<AuditRecord[]> {
  const records: AuditRecord[] = [];
  await pooled(slots, owners, async (o) => {
    const base = o.kind === 'project' ? apiPath`/projects/${o.id}` : apiPath`/groups/${o.id}`;
    try {
      const access = await allOf(http, `${base}/access_tokens`);
      const deploy = await allOf(http, `${base}/deploy_tokens`);
      for (const t of access) {
        botTokens.add(idKey(t.id));
        records.push(auditRecord(o.kind, t, o.path, o.id, plan));
      }
      for (const t of deploy) records.push(auditRecord('deploy', t, o.path, o.id, plan));
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 404)) throw error;
      plan.warn(`${o.kind} ${o.path} (${o.id}) is gone since it was listed (404); its tokens went with it`);
    }
  });
  return records;
}

async function allOf(http: HttpClient, path: string): Promise<AccessToken[]> {
  const out: AccessToken[] = [];
  for await (const page of checkedPages(http.pages<AccessToken>(path, PAGE), `GET ${path}`, ID)) out.push(...page.items);
  return out;
}

/** Runs `work` for every item, each holding one of the throttle's slots. */
async function pooled<T>(slots: Throttle, items: T[], work: (item: T) => Promise<void>): Promise<void> {
  await Promise.all(items.map((item) => slots.run(() => work(item))));
}

/** The audit reads every user's tokens: a regular user's token is refused before the first request of the pass. */
export function requireAdmin(user: { username: string; is_admin?: boolean }): void {
  if (user.is_admin !== true) {
    // `/user` answered by something else may carry no username: the line still reads.
    const who = typeof user.username === 'string' ? user.username : "the token's user";
    throw new SvcError(
      `tokens audit needs an administrator's token: ${who} is not an administrator (the administrator role is missing)`,
      ExitCode.forbidden,
    );
  }
}
