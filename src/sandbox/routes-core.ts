// Core routes: projects list/get/create, users, groups, namespaces,
// current user, version, OAuth refresh, application settings.
import { ApiError, type Core, type Ctx, E, sendJson, sendRawJson } from './core.js';
import type { ProjectRec, UserRec, Visibility } from './data.js';
import { userSortValue } from './data.js';
import {
  decodeCursor,
  encodeCursor,
  findProject,
  intParam,
  isKeyset,
  keysetNext,
  keysetNotAvailable,
  offsetPage,
  pageParams,
  sendList,
  strParam,
} from './paging.js';
import { PROJECT_ORDER_KEYS, type ProjectOrderKey } from './project-order.js';
import { iso, lowerBound, slugify, upperBound } from './util.js';

const PROJECT_ORDER = new Set<string>(PROJECT_ORDER_KEYS);
const VISIBILITIES = new Set(['public', 'internal', 'private']);

function boolParam(ctx: Ctx, name: string): boolean {
  const v = ctx.params[name];
  return v === true || v === 'true' || v === '1';
}

function projectsList(ctx: Ctx): void {
  const w = ctx.world;
  const user = ctx.user;
  const orderBy = strParam(ctx, 'order_by');
  if (orderBy !== undefined && !PROJECT_ORDER.has(orderBy)) throw E.notValid('order_by');
  const sort = strParam(ctx, 'sort') ?? 'desc';
  if (sort !== 'asc' && sort !== 'desc') throw E.notValid('sort');
  const keyset = isKeyset(ctx);
  if (keyset && orderBy !== 'id') throw keysetNotAvailable();
  const key = (orderBy ?? 'created_at') as ProjectOrderKey;
  const storage = strParam(ctx, 'repository_storage');
  let ids = w.projectOrders.sorted(key, user, storage !== undefined && user?.isAdmin ? storage : undefined);
  // Optional filters that need a scan; the common paths above stay indexed.
  const search = strParam(ctx, 'search');
  const vis = strParam(ctx, 'visibility');
  if (vis !== undefined && !VISIBILITIES.has(vis)) throw E.notValid('visibility');
  const membership = user && (boolParam(ctx, 'membership') || boolParam(ctx, 'owned'));
  if (search || vis || membership) {
    const s = search?.toLowerCase();
    ids = ids.filter((id) => {
      const p = w.projects[id]!;
      if (s && !p.name.toLowerCase().includes(s) && !p.path.toLowerCase().includes(s)) return false;
      if (vis && p.visibility !== vis) return false;
      if (membership && !w.isProjectMember(user!, p)) return false;
      return true;
    });
  }
  const idAfter = intParam(ctx, 'id_after');
  const idBefore = intParam(ctx, 'id_before');
  if (key !== 'id' && (idAfter !== undefined || idBefore !== undefined)) {
    ids = ids.filter((id) => (idAfter === undefined || id > idAfter) && (idBefore === undefined || id < idBefore));
  }
  let lo = 0;
  let hi = ids.length;
  if (key === 'id' && idAfter !== undefined) lo = upperBound(ids, idAfter);
  if (key === 'id' && idBefore !== undefined) hi = lowerBound(ids, idBefore);
  if (hi < lo) hi = lo;
  const at = (k: number) => (sort === 'asc' ? ids[lo + k]! : ids[hi - 1 - k]!);
  const render = (id: number) => w.projectJsonText(w.projects[id]!, user);
  if (keyset) {
    const { perPage } = pageParams(ctx);
    const n = Math.min(perPage, hi - lo);
    const page: number[] = [];
    for (let k = 0; k < n; k++) page.push(at(k));
    if (page.length > 0) {
      const last = String(page[page.length - 1]);
      keysetNext(ctx, [[sort === 'asc' ? 'id_after' : 'id_before', last]], ['id_after', 'id_before', 'page']);
    }
    sendRawJson(ctx, 200, `[${page.map(render).join(',')}]`);
    return;
  }
  const page = offsetPage(ctx, hi - lo, (off, lim) => {
    const out: number[] = [];
    for (let k = off; k < off + lim; k++) out.push(at(k));
    return out;
  }, 'Project');
  sendRawJson(ctx, 200, `[${page.map(render).join(',')}]`);
}

function resolveNamespace(ctx: Ctx, v: unknown): { kind: 'group' | 'user'; owner: number } | null {
  const w = ctx.world;
  const s = typeof v === 'number' ? String(v) : typeof v === 'string' ? v : '';
  if (s === '') return null;
  if (/^\d+$/.test(s)) {
    const id = Number(s);
    const G = w.groups.length - 1;
    if (id >= 1 && id <= G) return { kind: 'group', owner: id };
    const uid = id - G;
    if (uid >= 1 && uid < w.users.length) return { kind: 'user', owner: uid };
    return null;
  }
  const gid = w.groupsByPath.get(s.toLowerCase());
  if (gid) return { kind: 'group', owner: gid };
  const uid = w.usersByName.get(s.toLowerCase());
  return uid ? { kind: 'user', owner: uid } : null;
}

const PATH_RE = /^[a-zA-Z0-9_][a-zA-Z0-9_.-]*$/;
const PATH_MSG = "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'";

/** Create a project (POST /projects and imports). Throws ApiError on invalid input. */
export function createProject(
  ctx: Ctx,
  input: { name?: string; path?: string; namespace?: unknown; description?: string | null; visibility?: string; storage?: string },
): ProjectRec {
  const w = ctx.world;
  const user = ctx.user!;
  let { name, path } = input;
  if (!name && !path) throw new ApiError(400, { error: 'name, path are missing, at least one parameter must be provided' });
  if (!path) path = slugify(name!);
  if (!name) name = path;
  const visibility = input.visibility ?? 'private';
  if (!VISIBILITIES.has(visibility)) throw E.notValid('visibility');
  let ns: { kind: 'group' | 'user'; owner: number };
  if (input.namespace !== undefined && input.namespace !== null && input.namespace !== '') {
    const found = resolveNamespace(ctx, input.namespace);
    if (!found) throw E.notFound('Namespace');
    const allowed = user.isAdmin || (found.kind === 'user' ? found.owner === user.id : w.isMemberOfGroup(user.id, found.owner));
    if (!allowed) throw E.validation({ namespace: ['is not valid'] });
    ns = found;
  } else {
    ns = { kind: 'user', owner: user.id };
  }
  const errors: Record<string, string[]> = {};
  const key = `${ns.kind}:${ns.owner}`;
  if (w.projectNames.has(`${key}\n${name.toLowerCase()}`)) errors.name = ['has already been taken'];
  const nsPath = ns.kind === 'group' ? w.groups[ns.owner]!.fullPath : w.users[ns.owner]!.username;
  if (!PATH_RE.test(path) || path.endsWith('.git') || path.endsWith('.atom')) errors.path = [PATH_MSG];
  else if (w.projectsByPath.has(`${nsPath}/${path}`.toLowerCase())) errors.path = ['has already been taken'];
  if (Object.keys(errors).length > 0) throw E.validation(errors);
  let storage = w.pickStorageByWeight();
  if (input.storage !== undefined && user.isAdmin) {
    if (!w.storages.includes(input.storage)) throw E.validation({ repository_storage: ['is not included in the list'] });
    storage = input.storage;
  }
  const now = Date.now();
  const p: ProjectRec = {
    id: w.nextProjectId(),
    name,
    path,
    nsKind: ns.kind,
    nsOwner: ns.owner,
    fullPath: '',
    visibility: visibility as Visibility,
    storage,
    readOnly: false,
    description: input.description ?? null,
    createdAt: now,
    lastActivityAt: now,
    creatorId: user.id,
    starCount: 0,
    importStatus: 'none',
    seeded: false,
  };
  w.addProject(p);
  return p;
}

function userKeyset(ctx: Ctx): void {
  const w = ctx.world;
  const orderBy = strParam(ctx, 'order_by') ?? 'id';
  const sort = strParam(ctx, 'sort') ?? 'desc';
  if (!['id', 'name', 'username', 'created_at', 'updated_at'].includes(orderBy) || (sort !== 'asc' && sort !== 'desc')) throw keysetNotAvailable();
  const key = orderBy as 'id' | 'name' | 'username' | 'created_at' | 'updated_at';
  const list = w.usersSortedBy(key);
  const { perPage } = pageParams(ctx);
  const cursorText = strParam(ctx, 'cursor');
  const val = (u: UserRec): string | number => userSortValue(u, key);
  const cmp = (u: UserRec, cv: string | number, cid: number): number => {
    const a = val(u);
    const c = typeof a === 'number' && typeof cv === 'number' ? a - cv : String(a) < String(cv) ? -1 : String(a) > String(cv) ? 1 : 0;
    return c || u.id - cid;
  };
  let start = sort === 'asc' ? 0 : list.length - 1;
  if (cursorText) {
    const c = decodeCursor(cursorText);
    if (!c || c.id === undefined) throw new ApiError(400, { error: 'cursor is invalid' });
    const cid = Number(c.id);
    let cv: string | number = cid;
    if (key === 'name' || key === 'username') cv = String(c[key] ?? '');
    else if (key === 'created_at' || key === 'updated_at') cv = Date.parse(String(c[key] ?? ''));
    // first index whose (value, id) > cursor
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cmp(w.users[list[mid]!]!, cv, cid) <= 0) lo = mid + 1;
      else hi = mid;
    }
    if (sort === 'asc') start = lo;
    else {
      // last index whose (value, id) < cursor
      let l2 = 0;
      let h2 = list.length;
      while (l2 < h2) {
        const mid = (l2 + h2) >>> 1;
        if (cmp(w.users[list[mid]!]!, cv, cid) < 0) l2 = mid + 1;
        else h2 = mid;
      }
      start = l2 - 1;
    }
  }
  const page: UserRec[] = [];
  for (let i = start; page.length < perPage && i >= 0 && i < list.length; i += sort === 'asc' ? 1 : -1) page.push(w.users[list[i]!]!);
  if (page.length > 0) {
    const last = page[page.length - 1]!;
    const cur: Record<string, string> = {};
    if (key !== 'id') {
      const v = val(last);
      cur[key] = typeof v === 'number' ? iso(v) : v;
    }
    cur.id = String(last.id);
    cur._kd = 'n';
    keysetNext(ctx, [['cursor', encodeCursor(cur)]], ['page']);
  }
  sendList(ctx, page.map((u) => w.userJson(u, ctx.user)));
}

function visibleGroupsByName(ctx: Ctx): number[] {
  const w = ctx.world;
  const user = ctx.user;
  if (user?.isAdmin) return w.groupsByName();
  return w.groupsByName().filter((g) => w.canReadGroup(user, w.groups[g]!));
}

function findGroup(ctx: Ctx, v: string) {
  const w = ctx.world;
  const id = /^\d+$/.test(v) ? Number(v) : w.groupsByPath.get(v.toLowerCase());
  const g = id ? w.groups[id] : undefined;
  if (!g || !w.canReadGroup(ctx.user, g)) throw E.notFound('Group');
  return g;
}

export { findGroup };

export function registerCoreRoutes(core: Core): void {
  core.add('GET', '/projects', { auth: 'public' }, projectsList);

  core.add('POST', '/projects', { auth: 'user' }, (ctx) => {
    const p = createProject(ctx, {
      name: strParam(ctx, 'name'),
      path: strParam(ctx, 'path'),
      namespace: ctx.params.namespace_id ?? ctx.params.namespace,
      description: strParam(ctx, 'description') ?? null,
      visibility: strParam(ctx, 'visibility'),
      storage: strParam(ctx, 'repository_storage'),
    });
    sendRawJson(ctx, 201, ctx.world.projectJsonText(p, ctx.user));
  });

  core.add('GET', '/projects/:id', { auth: 'public' }, (ctx) => {
    const p = findProject(ctx);
    sendRawJson(ctx, 200, ctx.world.projectJsonText(p, ctx.user));
  });

  core.add('GET', '/user', { auth: 'user' }, (ctx) => {
    sendJson(ctx, 200, ctx.world.userJson(ctx.user!, ctx.user));
  });

  core.add('GET', '/version', { auth: 'user' }, (ctx) => {
    const ee = ctx.core.opts.tier === 'premium';
    sendJson(ctx, 200, { version: ee ? '17.8.1-ee' : '17.8.1', revision: 'sandbox', kas: { enabled: false, externalUrl: null, externalK8sProxyUrl: null, version: null }, enterprise: ee });
  });

  core.add('GET', '/users', { auth: 'public' }, (ctx) => {
    const w = ctx.world;
    if (isKeyset(ctx)) return userKeyset(ctx);
    const username = strParam(ctx, 'username');
    const search = strParam(ctx, 'search')?.toLowerCase();
    let ids: number[] | null = null;
    if (username !== undefined) {
      const id = w.usersByName.get(username.toLowerCase());
      ids = id ? [id] : [];
    } else if (search) {
      ids = w.usersSortedBy('id').filter((u) => {
        const r = w.users[u]!;
        return r.username.toLowerCase().includes(search) || r.name.toLowerCase().includes(search) || (ctx.user?.isAdmin && r.email.includes(search));
      });
    }
    const total = ids ? ids.length : w.users.length - 1;
    const page = offsetPage(ctx, total, (off, lim) => {
      const out = [];
      for (let k = off; k < off + lim; k++) out.push(w.users[ids ? ids[k]! : k + 1]!);
      return out;
    }, 'User');
    sendList(ctx, page.map((u) => w.userJson(u, ctx.user)));
  });

  core.add('GET', '/users/:user_id', { auth: 'public' }, (ctx) => {
    const v = ctx.p.user_id!;
    if (!/^\d+$/.test(v)) throw E.invalid('user_id');
    const u = ctx.world.users[Number(v)];
    if (!u) throw E.notFound('User');
    sendJson(ctx, 200, ctx.world.userJson(u, ctx.user));
  });

  core.add('GET', '/groups', { auth: 'public' }, (ctx) => {
    const w = ctx.world;
    if (isKeyset(ctx)) {
      const orderBy = strParam(ctx, 'order_by') ?? 'id';
      const sort = strParam(ctx, 'sort') ?? 'desc';
      if (orderBy !== 'name' || sort !== 'asc') throw keysetNotAvailable();
      const list = visibleGroupsByName(ctx);
      const { perPage } = pageParams(ctx);
      let start = 0;
      const cursorText = strParam(ctx, 'cursor');
      if (cursorText) {
        const c = decodeCursor(cursorText);
        if (!c || c.name === undefined || c.id === undefined) throw new ApiError(400, { error: 'cursor is invalid' });
        const cn = String(c.name);
        const cid = Number(c.id);
        let lo = 0;
        let hi = list.length;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          const g = w.groups[list[mid]!]!;
          const after = g.name > cn || (g.name === cn && g.id > cid);
          if (!after) lo = mid + 1;
          else hi = mid;
        }
        start = lo;
      }
      const page = list.slice(start, start + perPage).map((g) => w.groups[g]!);
      if (page.length > 0) {
        const last = page[page.length - 1]!;
        keysetNext(ctx, [['cursor', encodeCursor({ name: last.name, id: String(last.id), _kd: 'n' })]], ['page']);
      }
      sendList(ctx, page.map((g) => w.groupJson(g, ctx.user)));
      return;
    }
    const orderBy = strParam(ctx, 'order_by') ?? 'name';
    if (!['name', 'path', 'id', 'similarity'].includes(orderBy)) throw E.notValid('order_by');
    const sort = strParam(ctx, 'sort') ?? 'asc';
    if (sort !== 'asc' && sort !== 'desc') throw E.notValid('sort');
    let list = orderBy === 'id' ? w.visibleGroupIds(ctx.user) : visibleGroupsByName(ctx);
    const search = strParam(ctx, 'search')?.toLowerCase();
    if (search) list = list.filter((g) => w.groups[g]!.fullPath.toLowerCase().includes(search) || w.groups[g]!.name.toLowerCase().includes(search));
    const n = list.length;
    const page = offsetPage(ctx, n, (off, lim) => {
      const out = [];
      for (let k = off; k < off + lim; k++) out.push(w.groups[sort === 'asc' ? list[k]! : list[n - 1 - k]!]!);
      return out;
    }, 'Group');
    sendList(ctx, page.map((g) => w.groupJson(g, ctx.user)));
  });

  core.add('GET', '/groups/:id', { auth: 'public' }, (ctx) => {
    sendJson(ctx, 200, ctx.world.groupJson(findGroup(ctx, ctx.p.id!), ctx.user));
  });

  core.add('GET', '/namespaces', { auth: 'user' }, (ctx) => {
    const w = ctx.world;
    const user = ctx.user!;
    let ids: number[] | null = user.isAdmin ? null : w.userNamespaceIds(user);
    const search = strParam(ctx, 'search')?.toLowerCase();
    if (search) {
      const all = ids ?? Array.from({ length: w.namespaceCount() }, (_, i) => i + 1);
      ids = all.filter((id) => String(w.namespaceJson(id)!.full_path).toLowerCase().includes(search));
    }
    const total = ids ? ids.length : w.namespaceCount();
    const page = offsetPage(ctx, total, (off, lim) => {
      const out = [];
      for (let k = off; k < off + lim; k++) out.push(w.namespaceJson(ids ? ids[k]! : k + 1)!);
      return out;
    });
    sendList(ctx, page);
  });

  core.add('GET', '/namespaces/:id', { auth: 'user' }, (ctx) => {
    const w = ctx.world;
    const ns = resolveNamespace(ctx, ctx.p.id);
    if (!ns) throw E.notFound('Namespace');
    const user = ctx.user!;
    const ok = user.isAdmin || (ns.kind === 'user' ? ns.owner === user.id : w.isMemberOfGroup(user.id, ns.owner));
    if (!ok) throw E.notFound('Namespace');
    sendJson(ctx, 200, w.namespaceJson(w.namespaceId(ns.kind, ns.owner)));
  });

  core.add('POST', '/oauth/token', { auth: 'public', raw: true }, (ctx) => {
    const grant = strParam(ctx, 'grant_type');
    if (grant !== 'refresh_token') {
      throw new ApiError(400, { error: 'unsupported_grant_type', error_description: 'The authorization grant type is not supported by the authorization server.' });
    }
    const refresh = strParam(ctx, 'refresh_token') ?? '';
    const access = ctx.core.refreshTokens.get(refresh);
    if (!access) {
      throw new ApiError(400, {
        error: 'invalid_grant',
        error_description:
          'The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.',
      });
    }
    ctx.core.refreshTokens.delete(refresh);
    const old = ctx.core.tokens.get(access);
    if (old) old.revoked = true;
    const pair = ctx.core.issueOAuth();
    sendJson(ctx, 200, {
      access_token: pair.access,
      token_type: 'Bearer',
      expires_in: ctx.core.opts.oauthTtlSeconds,
      refresh_token: pair.refresh,
      scope: 'api',
      created_at: Math.floor(Date.now() / 1000),
    });
  });

  const settings = (ctx: Ctx) => {
    const w = ctx.world;
    return {
      id: 1,
      default_projects_limit: 100000,
      signup_enabled: false,
      default_project_visibility: 'private',
      default_snippet_visibility: 'private',
      default_group_visibility: 'private',
      max_attachment_size: 100,
      repository_storages_weighted: { ...w.weights },
      repository_storages: [...w.storages],
      max_import_size: 0,
      rate_limiting_response_text: 'Retry later',
      throttle_authenticated_api_enabled: (ctx.core.opts.rateLimit ?? 0) > 0,
      throttle_authenticated_api_requests_per_period: ctx.core.opts.rateLimit || 7200,
      throttle_authenticated_api_period_in_seconds: ctx.core.opts.rateLimit ? 60 : 3600,
      created_at: '2021-01-04T09:00:00.000Z',
      updated_at: iso(Date.now()),
    };
  };
  core.add('GET', '/application/settings', { auth: 'admin' }, (ctx) => sendJson(ctx, 200, settings(ctx)));
  core.add('PUT', '/application/settings', { auth: 'admin' }, (ctx) => {
    const w = ctx.world;
    const v = ctx.params.repository_storages_weighted;
    if (v !== undefined) {
      if (!v || typeof v !== 'object' || Array.isArray(v)) throw E.invalid('repository_storages_weighted');
      const entries = Object.entries(v as Record<string, unknown>);
      const unknown = entries.filter(([k]) => !w.storages.includes(k)).map(([k]) => k);
      if (unknown.length > 0) throw E.validation({ repository_storages_weighted: [`can't include: ${unknown.join(', ')}`] });
      const next: Record<string, number> = {};
      for (const [k, raw] of entries) {
        const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw) : NaN;
        if (!Number.isInteger(n) || n < 0 || n > 100) throw E.validation({ [`repository_storages_weighted_${k}`]: ['value must be between 0 and 100'] });
        next[k] = n;
      }
      Object.assign(w.weights, next);
    }
    sendJson(ctx, 200, settings(ctx));
  });
}
