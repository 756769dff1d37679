// A user's secondary emails and status (lib/api/users.rb: `/user/emails`, `/users/:id/emails`,
// `/user/status`, `/users/:id_or_username/status`; entities/email.rb, user_status.rb). Emails: the
// caller's own, or any user's for an administrator; an address any user already has is the model's
// `has already been taken`, a malformed one `is invalid`; an unknown id `404 Email Not Found`; a
// delete answers 204. Status: `PUT` sets every field (the emoji defaults to `speech_balloon`, the
// availability to `not_set`), `PATCH` only those given; `clear_status_after` sets when it ends
// (README, "Emails and status").
import { ask } from '../engine/ports.js';
import type { Ctx } from '../server/context.js';
import { E } from '../server/errors.js';
import { pageOf } from '../server/paging.js';
import { enumParam, strParam } from '../server/params.js';
import { sendJson, sendList } from '../server/respond.js';
import { storeFor } from '../store/collection.js';
import type { UserRec } from '../store/records.js';
import type { World } from '../store/world.js';
import { iso } from '../util/time.js';
import type { Mounts } from './mounts.js';

interface EmailRec {
  id: number;
  userId: number;
  email: string;
  confirmedAt: number | null;
}

interface StatusRec {
  emoji: string;
  message: string | null;
  availability: 'not_set' | 'busy';
  clearAt: number | null;
}

const emailStore = storeFor(() => ({ list: [] as EmailRec[], nextId: 1 }));
const statusStore = storeFor(() => new Map<number, StatusRec>());

const EMAIL = /^[^@\s]+@[^@\s]+$/;
const CLEAR_AFTER: Readonly<Record<string, number>> = {
  '30_minutes': 30 * 60_000,
  '3_hours': 3 * 3_600_000,
  '8_hours': 8 * 3_600_000,
  '1_day': 86_400_000,
  '3_days': 3 * 86_400_000,
  '7_days': 7 * 86_400_000,
  '30_days': 30 * 86_400_000,
};

const emailJson = (e: EmailRec) => ({ id: e.id, email: e.email, confirmed_at: e.confirmedAt === null ? null : iso(e.confirmedAt) });

function userFrom(w: World, key: string): UserRec {
  const u = w.findUser(key);
  if (!u) throw E.notFound('User');
  return u;
}

function addEmail(ctx: Ctx, user: UserRec, confirmed: boolean): void {
  const email = strParam(ctx, 'email');
  if (email === undefined) throw E.missing('email');
  const w = ctx.world;
  if (!EMAIL.test(email)) throw E.validation({ email: ['is invalid'] });
  const lower = email.toLowerCase();
  const taken =
    emailStore(w).list.some((e) => e.email.toLowerCase() === lower) || [...w.users].some((u) => u.email.toLowerCase() === lower);
  if (taken) throw E.validation({ email: ['has already been taken'] });
  const store = emailStore(w);
  const rec: EmailRec = { id: store.nextId++, userId: user.id, email, confirmedAt: confirmed ? w.now() : null };
  store.list.push(rec);
  sendJson(ctx, 201, emailJson(rec));
}

function emailsOf(w: World, user: UserRec): EmailRec[] {
  return emailStore(w).list.filter((e) => e.userId === user.id);
}

function findEmail(w: World, user: UserRec, key: string): EmailRec {
  const found = /^\d+$/.test(key) ? emailsOf(w, user).find((e) => e.id === Number(key)) : undefined;
  if (!found) throw E.notFound('Email');
  return found;
}

function dropEmail(ctx: Ctx, user: UserRec): void {
  const store = emailStore(ctx.world);
  store.list.splice(store.list.indexOf(findEmail(ctx.world, user, ctx.p.email_id!)), 1);
  sendJson(ctx, 204, null);
}

function statusJson(w: World, user: UserRec): Record<string, unknown> {
  const s = statusStore(w).get(user.id);
  const live = s && (s.clearAt === null || s.clearAt > w.now()) ? s : null;
  return {
    emoji: live?.emoji ?? null,
    availability: live?.availability ?? null,
    message: live?.message ?? null,
    message_html: live?.message ? ask('renderMarkdown')(live.message, true) : null,
    clear_status_at: live?.clearAt ? iso(live.clearAt) : null,
  };
}

function setStatus(ctx: Ctx, replace: boolean): void {
  const w = ctx.world;
  const user = ctx.user!;
  const before = replace ? undefined : statusStore(w).get(user.id);
  const availability = enumParam(ctx, 'availability', ['not_set', 'busy'] as const);
  const after = enumParam(ctx, 'clear_status_after', Object.keys(CLEAR_AFTER));
  const next: StatusRec = {
    emoji: strParam(ctx, 'emoji') || before?.emoji || 'speech_balloon',
    message: strParam(ctx, 'message') ?? before?.message ?? null,
    availability: availability ?? before?.availability ?? 'not_set',
    clearAt: after ? w.now() + CLEAR_AFTER[after]! : (before?.clearAt ?? null),
  };
  statusStore(w).set(user.id, next);
  sendJson(ctx, 200, statusJson(w, user));
}

export function mountUserExtras({ root }: Mounts): void {
  root.get('/user/emails', { auth: 'user', scopes: ['read_user'] }, (ctx) => {
    sendList(ctx, pageOf(ctx, emailsOf(ctx.world, ctx.user!)).map(emailJson));
  });
  root.get('/user/emails/:email_id', { auth: 'user', scopes: ['read_user'] }, (ctx) => {
    sendJson(ctx, 200, emailJson(findEmail(ctx.world, ctx.user!, ctx.p.email_id!)));
  });
  root.post('/user/emails', { auth: 'user' }, (ctx) => addEmail(ctx, ctx.user!, false));
  root.delete('/user/emails/:email_id', { auth: 'user' }, (ctx) => dropEmail(ctx, ctx.user!));
  root.get('/users/:user_id/emails', { auth: 'admin' }, (ctx) => {
    sendList(ctx, pageOf(ctx, emailsOf(ctx.world, userFrom(ctx.world, ctx.p.user_id!))).map(emailJson));
  });
  root.post('/users/:user_id/emails', { auth: 'admin' }, (ctx) => {
    const user = userFrom(ctx.world, ctx.p.user_id!);
    addEmail(ctx, user, strParam(ctx, 'skip_confirmation') === 'true');
  });
  root.delete('/users/:user_id/emails/:email_id', { auth: 'admin' }, (ctx) => dropEmail(ctx, userFrom(ctx.world, ctx.p.user_id!)));

  root.get('/user/status', { auth: 'user', scopes: ['read_user'] }, (ctx) => sendJson(ctx, 200, statusJson(ctx.world, ctx.user!)));
  root.put('/user/status', { auth: 'user' }, (ctx) => setStatus(ctx, true));
  root.add('PATCH', '/user/status', { auth: 'user' }, (ctx) => setStatus(ctx, false));
  root.get('/users/:user_id/status', { auth: 'public' }, (ctx) => {
    sendJson(ctx, 200, statusJson(ctx.world, userFrom(ctx.world, ctx.p.user_id!)));
  });
}
