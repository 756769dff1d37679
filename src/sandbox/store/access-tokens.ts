// Tokens of every kind (reference endpoints §11): personal, impersonation, project and group access
// tokens share one id sequence, as they are one table in the service; deploy tokens have their own.
// The sandbox's own personal tokens come first (ids 1–4); the seeded ones are derived from
// (seed, owner) and dated from the day the store is first used, so that expiry means something today.
import { randomBytes } from 'node:crypto';
import type { TokenRec } from '../server/context.js';
import type { AccessTokenRec, DeployTokenRec } from './records.js';
import { Table } from './table.js';
import type { World } from './world.js';

const DAY = 86_400_000;
const NAMES = ['ci', 'deploy', 'backup', 'renovate', 'terraform', 'release', 'local-dev', 'monitoring'];
const PERSONAL_SCOPES: readonly string[][] = [['api'], ['read_api'], ['read_repository'], ['api', 'read_user'], ['read_registry']];
const BOT_SCOPES: readonly string[][] = [['api'], ['read_api'], ['read_repository', 'write_repository'], ['read_registry']];
const DEPLOY_SCOPES: readonly string[][] = [['read_repository'], ['read_registry'], ['read_repository', 'read_package_registry']];
const BOT_LEVELS = [10, 20, 30, 40];
/** Bot users of project and group access tokens are not seeded users: their ids sit above every seeded one. */
const BOT_USER_BASE = 1_000_000_000;

/** The sandbox's own tokens as personal access tokens of their users (ids 1–4, in this order). */
export function describeSandboxTokens(creds: Array<[string, TokenRec]>): void {
  const created = Date.UTC(2021, 0, 1);
  creds.forEach(([name, cred], i) => {
    cred.accessToken = {
      id: i + 1,
      kind: 'personal',
      name,
      description: '',
      userId: cred.userId,
      resourceId: null,
      scopes: cred.scopes,
      accessLevel: null,
      createdAt: created,
      expiresAt: null,
      revoked: false,
      lastUsedAt: null,
    };
  });
}

export function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export class TokenStore {
  readonly tokens = new Table<AccessTokenRec>();
  readonly deploy = new Table<DeployTokenRec>();
  /** personal and impersonation token ids by user, ascending */
  private readonly byUser = new Map<number, number[]>();
  /** access token ids by `project:<id>` / `group:<id>` */
  private readonly byResource = new Map<string, number[]>();
  private readonly deployByOwner = new Map<string, number[]>();
  private readonly day0: number;

  constructor(
    private readonly w: World,
    private readonly creds: Map<string, TokenRec>,
  ) {
    this.day0 = Math.floor(Date.now() / DAY) * DAY;
    const own = [...creds.values()].flatMap((c) => (c.accessToken ? [c.accessToken] : [])).sort((a, b) => a.id - b.id);
    for (const t of own) this.index(t);
    this.seed();
  }

  personalOf(userId: number): AccessTokenRec[] {
    return (this.byUser.get(userId) ?? []).map((id) => this.tokens.get(id)!);
  }

  ofResource(kind: 'project' | 'group', id: number): AccessTokenRec[] {
    return (this.byResource.get(`${kind}:${id}`) ?? []).map((t) => this.tokens.get(t)!);
  }

  deployOf(kind: 'project' | 'group', id: number): DeployTokenRec[] {
    return (this.deployByOwner.get(`${kind}:${id}`) ?? []).map((t) => this.deploy.get(t)!);
  }

  /** Adds a token made through the API and returns its secret, which is a credential at once. */
  create(
    fields: Omit<AccessTokenRec, 'id' | 'userId' | 'createdAt' | 'revoked' | 'lastUsedAt'> & { userId?: number },
    createdById = 0,
  ): {
    rec: AccessTokenRec;
    token: string;
  } {
    const id = this.tokens.nextId();
    // A new project or group access token gets a new bot user; a rotated one keeps its own.
    const userId = fields.userId ?? (fields.resourceId === null ? 0 : this.addBot(fields, createdById));
    const rec: AccessTokenRec = { ...fields, id, userId, createdAt: Date.now(), revoked: false, lastUsedAt: null };
    this.index(rec);
    const token = `glpat-${randomBytes(15).toString('base64url')}`;
    this.creds.set(token, { kind: 'personal', userId: rec.userId, scopes: rec.scopes, accessToken: rec });
    return { rec, token };
  }

  /**
   * The bot user of a new project or group access token (`ResourceAccessTokens::CreateService`): named after
   * the token, `<kind>_<id>_bot_<hex>`, a direct member of the resource with the token's access level.
   */
  private addBot(fields: Pick<AccessTokenRec, 'kind' | 'name' | 'resourceId' | 'accessLevel' | 'expiresAt'>, createdById: number): number {
    const username = `${fields.kind}_${fields.resourceId}_bot_${randomBytes(16).toString('hex')}`;
    const now = Date.now();
    const bot = this.w.addUser({
      username,
      name: fields.name,
      email: `${username}@noreply.${new URL(this.w.base()).hostname}`,
      state: 'active',
      isAdmin: false,
      createdAt: now,
      updatedAt: now,
      bot: true,
    });
    const level = fields.accessLevel ?? 40;
    const member = { level, expiresAt: fields.expiresAt, createdById, createdAt: now };
    this.w.memberships.set(fields.kind === 'group' ? 'group' : 'project', fields.resourceId!, bot.id, member);
    this.w.accessChanged();
    return bot.id;
  }

  /** Revokes a token and makes its successor with the same name, scopes and level. */
  rotate(old: AccessTokenRec, expiresAt: string): { rec: AccessTokenRec; token: string } {
    old.revoked = true;
    const { id: _id, createdAt: _c, revoked: _r, lastUsedAt: _l, ...fields } = old;
    return this.create({ ...fields, expiresAt });
  }

  createDeploy(fields: Omit<DeployTokenRec, 'id' | 'createdAt' | 'revoked' | 'username'> & { username?: string }): {
    rec: DeployTokenRec;
    token: string;
  } {
    const id = this.deploy.nextId();
    const rec: DeployTokenRec = {
      ...fields,
      id,
      username: fields.username || `gitlab+deploy-token-${id}`,
      createdAt: Date.now(),
      revoked: false,
    };
    this.indexDeploy(rec);
    return { rec, token: `gldt-${randomBytes(15).toString('base64url')}` };
  }

  removeDeploy(t: DeployTokenRec): void {
    this.deploy.remove(t.id);
    const list = this.deployByOwner.get(`${t.ownerKind}:${t.ownerId}`)!;
    list.splice(list.indexOf(t.id), 1);
  }

  private index(t: AccessTokenRec): void {
    this.tokens.insert(t);
    if (t.resourceId === null) push(this.byUser, t.userId, t.id);
    else push(this.byResource, `${t.kind}:${t.resourceId}`, t.id);
  }

  private indexDeploy(t: DeployTokenRec): void {
    this.deploy.insert(t);
    push(this.deployByOwner, `${t.ownerKind}:${t.ownerId}`, t.id);
  }

  private seed(): void {
    const w = this.w;
    // Only users seeded with the world have a history; one made through the API or a scenario has no token yet.
    for (const u of w.users) {
      if (u.id <= 2 || u.id > w.seededUserCount) continue;
      const n = w.h(60, u.id) % 3;
      for (let k = 0; k < n; k++) this.index(this.seeded('personal', u.id, null, w.h(61, u.id, k)));
      if (w.h(62, u.id) % 20 === 0) this.index(this.seeded('impersonation', u.id, null, w.h(63, u.id)));
    }
    for (let pid = 1; pid <= w.seededProjects; pid++) {
      if (!w.projects.get(pid)) continue;
      if (w.h(64, pid) % 3 === 0) this.index(this.seeded('project', 0, pid, w.h(65, pid)));
      if (w.h(66, pid) % 4 === 0) this.indexDeploy(this.seededDeploy('project', pid, w.h(67, pid)));
    }
    for (const g of w.groups) {
      if (g.id % 2 === 1) this.index(this.seeded('group', 0, g.id, w.h(68, g.id)));
      if (g.id % 3 === 0) this.indexDeploy(this.seededDeploy('group', g.id, w.h(69, g.id)));
    }
  }

  private seeded(kind: AccessTokenRec['kind'], userId: number, resourceId: number | null, h: number): AccessTokenRec {
    const id = this.tokens.nextId();
    const bot = resourceId !== null;
    const scopes = bot ? BOT_SCOPES[h % BOT_SCOPES.length]! : PERSONAL_SCOPES[h % PERSONAL_SCOPES.length]!;
    return {
      id,
      kind,
      name: NAMES[(h >>> 4) % NAMES.length]!,
      description: '',
      userId: bot ? BOT_USER_BASE + id : userId,
      resourceId,
      scopes: [...scopes],
      accessLevel: bot ? BOT_LEVELS[(h >>> 24) % BOT_LEVELS.length]! : null,
      createdAt: this.day0 - (300 + ((h >>> 8) % 400)) * DAY + (h % 1000),
      expiresAt: this.seededExpiry(h),
      revoked: (h >>> 20) % 15 === 0,
      lastUsedAt: (h >>> 16) % 5 === 0 ? null : this.day0 - ((h >>> 12) % 240) * DAY - ((h >>> 3) % DAY),
    };
  }

  private seededDeploy(ownerKind: 'project' | 'group', ownerId: number, h: number): DeployTokenRec {
    const id = this.deploy.nextId();
    return {
      id,
      name: `${NAMES[(h >>> 4) % NAMES.length]}-deploy`,
      username: `gitlab+deploy-token-${id}`,
      ownerKind,
      ownerId,
      scopes: [...DEPLOY_SCOPES[h % DEPLOY_SCOPES.length]!],
      createdAt: this.day0 - (300 + ((h >>> 8) % 400)) * DAY,
      expiresAt: this.seededExpiry(h),
      revoked: (h >>> 20) % 15 === 0,
    };
  }

  /** From two months past to a year ahead; one in ten never expires. */
  private seededExpiry(h: number): string | null {
    if ((h >>> 28) % 10 === 0) return null;
    return isoDay(this.day0 + (((h >>> 10) % 425) - 60) * DAY);
  }
}

function push<K>(map: Map<K, number[]>, key: K, id: number): void {
  const list = map.get(key);
  if (list) list.push(id);
  else map.set(key, [id]);
}
