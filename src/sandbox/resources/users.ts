// Users: `GET /user`, `GET /users` (offset and keyset), `GET /users/:id`.
import { userBasic } from '../entities/user.js';
import { offer } from '../engine/ports.js';
import type { Ctx } from '../server/context.js';
import { ApiError, E } from '../server/errors.js';
import { decodeCursor, encodeCursor, isKeyset, keysetNext, keysetNotAvailable, offsetPage, pageParams } from '../server/paging.js';
import { enumParam, SORTS, strParam } from '../server/params.js';
import { sendJson, sendRawJson } from '../server/respond.js';
import { storeFor } from '../store/collection.js';
import type { UserRec } from '../store/records.js';
import { type UserOrderKey, userSortValue, type World } from '../store/world.js';
import { iso } from '../util/time.js';
import type { Mounts } from './mounts.js';
import { adminProfile, privateProfile, publicProfile } from './user-profile.js';

const USER_ORDERS: readonly UserOrderKey[] = ['id', 'name', 'username', 'created_at', 'updated_at'];

// Kept for the resources of branches in flight that import it from here.
export { userBasic } from '../entities/user.js';

/** The full user; admins and the user themself also see the private fields. */
export function userJson(w: World, u: UserRec, viewer: UserRec | null): Record<string, unknown> {
  const out: Record<string, unknown> = {
    ...userBasic(w, u),
    created_at: iso(u.createdAt),
    ...publicProfile(u),
    bot: u.bot === true,
    work_information: null,
  };
  if (viewer && (viewer.isAdmin || viewer.id === u.id)) {
    Object.assign(out, {
      email: u.email,
      is_admin: u.isAdmin,
      last_sign_in_at: iso(u.updatedAt),
      confirmed_at: iso(u.createdAt),
      two_factor_enabled: false,
      external: u.external ?? false,
      namespace_id: w.namespaceId('user', u.id),
      updated_at: iso(u.updatedAt),
      ...privateProfile(u),
    });
  }
  if (viewer?.isAdmin) Object.assign(out, adminProfile(u));
  return out;
}

/** Rendered list entries by `<id>:<a|b>` (every admin sees the same fields); cleared when a user changes. */
export const listTexts = storeFor(() => new Map<string, string>());

/** Lists give admins the full user and everyone else the basic one. */
function listEntity(ctx: Ctx, u: UserRec): string {
  const admin = ctx.user?.isAdmin === true;
  const cache = listTexts(ctx.world);
  const key = `${u.id}:${admin ? 'a' : 'b'}`;
  let text = cache.get(key);
  if (text === undefined) {
    text = JSON.stringify(admin ? userJson(ctx.world, u, ctx.user) : userBasic(ctx.world, u));
    cache.set(key, text);
  }
  return text;
}

function sendUsers(ctx: Ctx, users: UserRec[]): void {
  sendRawJson(ctx, 200, `[${users.map((u) => listEntity(ctx, u)).join(',')}]`);
}

function userKeyset(ctx: Ctx): void {
  const w = ctx.world;
  const orderBy = strParam(ctx, 'order_by') ?? 'id';
  const sort = strParam(ctx, 'sort') ?? 'desc';
  if (!(USER_ORDERS as readonly string[]).includes(orderBy) || (sort !== 'asc' && sort !== 'desc')) throw keysetNotAvailable();
  const key = orderBy as UserOrderKey;
  const list = w.usersSortedBy(key);
  const { perPage } = pageParams(ctx);
  const cursorText = strParam(ctx, 'cursor');
  const val = (u: UserRec): string | number => userSortValue(u, key);
  const cmp = (u: UserRec, cv: string | number, cid: number): number => {
    const a = val(u);
    const c = typeof a === 'number' && typeof cv === 'number' ? a - cv : String(a) < String(cv) ? -1 : String(a) > String(cv) ? 1 : 0;
    return c || u.id - cid;
  };
  /** First index whose (value, id) is above the cursor (`strict`) or not below it. */
  const bound = (cv: string | number, cid: number, strict: boolean): number => {
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const c = cmp(w.users.get(list[mid]!)!, cv, cid);
      if (strict ? c <= 0 : c < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  let start = sort === 'asc' ? 0 : list.length - 1;
  if (cursorText) {
    const c = decodeCursor(cursorText);
    if (!c || c.id === undefined) throw new ApiError(400, { error: 'cursor is invalid' });
    const cid = Number(c.id);
    let cv: string | number = cid;
    if (key === 'name' || key === 'username') cv = String(c[key] ?? '');
    else if (key === 'created_at' || key === 'updated_at') cv = Date.parse(String(c[key] ?? ''));
    start = sort === 'asc' ? bound(cv, cid, true) : bound(cv, cid, false) - 1;
  }
  const page: UserRec[] = [];
  for (let i = start; page.length < perPage && i >= 0 && i < list.length; i += sort === 'asc' ? 1 : -1) page.push(w.users.get(list[i]!)!);
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
  sendUsers(ctx, page);
}

function listUsers(ctx: Ctx): void {
  const w = ctx.world;
  const username = strParam(ctx, 'username');
  // The service lets anonymous callers look a user up by username only.
  if (!ctx.user && username === undefined) throw E.forbidden('Not authorized to access /api/v4/users');
  if (isKeyset(ctx)) return userKeyset(ctx);
  const orderBy = enumParam(ctx, 'order_by', USER_ORDERS, 'id');
  const sort = enumParam(ctx, 'sort', SORTS, 'desc');
  const search = strParam(ctx, 'search')?.toLowerCase();
  let ids: readonly number[] = w.usersSortedBy(orderBy);
  if (username !== undefined) {
    const id = w.usersByName.get(username.toLowerCase());
    ids = id ? [id] : [];
  } else if (search) {
    ids = ids.filter((u) => {
      const r = w.users.get(u)!;
      return (
        r.username.toLowerCase().includes(search) ||
        r.name.toLowerCase().includes(search) ||
        (ctx.user?.isAdmin && r.email.includes(search))
      );
    });
  }
  const n = ids.length;
  const page = offsetPage(
    ctx,
    n,
    (off, lim) => {
      const out: UserRec[] = [];
      for (let k = off; k < off + lim; k++) out.push(w.users.get(ids[sort === 'asc' ? k : n - 1 - k]!)!);
      return out;
    },
    { maxOffsetType: 'User' },
  );
  sendUsers(ctx, page);
}

export function mountUsers({ root }: Mounts): void {
  offer('userJson', userJson);
  root.get('/user', { auth: 'user' }, (ctx) => sendJson(ctx, 200, userJson(ctx.world, ctx.user!, ctx.user)));
  root.get('/users', { auth: 'public' }, listUsers);
  root.get('/users/:id', { auth: 'public' }, (ctx) => {
    const v = ctx.p.id!;
    if (!/^\d+$/.test(v)) throw E.invalid('id');
    const u = ctx.world.users.own(Number(v));
    if (!u) throw E.notFound('User');
    sendJson(ctx, 200, userJson(ctx.world, u, ctx.user));
  });
}
