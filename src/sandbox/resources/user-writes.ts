// User administration (reference endpoints §11, `lib/api/users.rb`): create (201) and update (200), the
// state actions (block, unblock, deactivate, activate, ban, unban: 201 with `true`, `false` or `null` as the
// service's handlers return them, or their 403 texts) and a user's personal projects. Admin only, except
// the projects. What each state forbids is enforced at authentication (access.ts `admitAccount`).
import { offer } from '../engine/ports.js';
import { DORMANT_DAYS } from '../access.js';
import type { Ctx } from '../server/context.js';
import { ApiError, E } from '../server/errors.js';
import { boolParam, strParam } from '../server/params.js';
import { offsetPage } from '../server/paging.js';
import { sendJson, sendRawJson } from '../server/respond.js';
import type { UserRec } from '../store/records.js';
import { instanceSettings } from './instance-settings.js';
import type { Mounts } from './mounts.js';
import { projectJsonText } from '../entities/project.js';
import { applyProfile } from './user-profile.js';
import { listTexts, userJson } from './users.js';

const MIN_PASSWORD = 8;

function targetUser(ctx: Ctx): UserRec {
  const id = ctx.p.id!;
  if (!/^\d+$/.test(id)) throw E.invalid('id');
  const user = ctx.world.users.own(Number(id));
  if (!user) throw E.notFound('User');
  return user;
}

/** A change to a user: cached list entries and orderings are rebuilt. */
function userChanged(ctx: Ctx, user: UserRec): void {
  user.updatedAt = Date.now();
  listTexts(ctx.world).clear();
  ctx.world.usersChanged();
}

function checkTaken(ctx: Ctx, email: string | undefined, username: string | undefined, self?: UserRec): void {
  const w = ctx.world;
  if (email !== undefined && [...w.users].some((u) => u !== self && u.email.toLowerCase() === email.toLowerCase())) {
    throw new ApiError(409, { message: 'Email has already been taken' });
  }
  const owner = username === undefined ? undefined : w.usersByName.get(username.toLowerCase());
  if (owner !== undefined && owner !== self?.id) throw new ApiError(409, { message: 'Username has already been taken' });
}

function checkPassword(ctx: Ctx): void {
  const password = strParam(ctx, 'password');
  if (password !== undefined && password.length < MIN_PASSWORD) {
    throw E.validation({ password: [`is too short (minimum is ${MIN_PASSWORD} characters)`] });
  }
}

function createUser(ctx: Ctx): void {
  const errors: string[] = [];
  if (strParam(ctx, 'email') === undefined) errors.push('email is missing');
  if (['password', 'reset_password', 'force_random_password'].every((k) => ctx.params[k] === undefined)) {
    errors.push('password, reset_password, force_random_password are missing, at least one parameter must be provided');
  }
  for (const name of ['name', 'username']) if (strParam(ctx, name) === undefined) errors.push(`${name} is missing`);
  if (errors.length > 0) throw new ApiError(400, { error: errors.join(', ') });
  const email = strParam(ctx, 'email')!;
  const username = strParam(ctx, 'username')!;
  checkTaken(ctx, email, username);
  checkPassword(ctx);
  const profile = applyProfile(ctx);
  const now = Date.now();
  const user = ctx.world.addUser({
    username,
    name: strParam(ctx, 'name')!,
    email,
    state: 'active',
    isAdmin: boolParam(ctx, 'admin') ?? false,
    external: boolParam(ctx, 'external') ?? false,
    createdAt: now,
    updatedAt: now,
  });
  // A new user's limit is the instance default of the moment.
  user.profile = { projects_limit: instanceSettings(ctx.world).default_projects_limit };
  profile(user);
  userChanged(ctx, user);
  sendJson(ctx, 201, userJson(ctx.world, user, ctx.user));
}

function updateUser(ctx: Ctx): void {
  const user = targetUser(ctx);
  const email = strParam(ctx, 'email');
  const username = strParam(ctx, 'username');
  checkTaken(ctx, email, username, user);
  checkPassword(ctx);
  const profile = applyProfile(ctx);
  const w = ctx.world;
  if (username !== undefined) {
    w.usersByName.delete(user.username.toLowerCase());
    user.username = username;
    w.usersByName.set(username.toLowerCase(), user.id);
  }
  if (email !== undefined) user.email = email;
  user.name = strParam(ctx, 'name') ?? user.name;
  user.isAdmin = boolParam(ctx, 'admin') ?? user.isAdmin;
  user.external = boolParam(ctx, 'external') ?? user.external;
  profile(user);
  userChanged(ctx, user);
  sendJson(ctx, 200, userJson(w, user, ctx.user));
}

const isBlocked = (u: UserRec) => u.state === 'blocked' || u.state === 'banned';

/** One state action: what it answers, and the state it leaves (undefined: unchanged). */
type StateAction = (ctx: Ctx, user: UserRec) => { body: boolean | null; state?: UserRec['state'] };

const ACTIONS: Record<string, StateAction> = {
  block(ctx, user) {
    if (user.id === ctx.user!.id) throw E.forbidden('The API initiating user cannot be blocked by the API');
    return isBlocked(user) ? { body: null } : { body: true, state: 'blocked' };
  },
  unblock(_ctx, user) {
    if (user.state === 'deactivated') throw E.forbidden('Deactivated users cannot be unblocked by the API');
    return isBlocked(user) ? { body: true, state: 'active' } : { body: false };
  },
  deactivate(_ctx, user) {
    if (user.state === 'deactivated') return { body: null };
    if (isBlocked(user)) throw new ApiError(403, { message: 'Error occurred. A blocked user cannot be deactivated' });
    const lastActive = user.lastActivityAt ?? user.createdAt;
    if (Date.now() - lastActive < DORMANT_DAYS * 86_400_000) {
      throw new ApiError(403, {
        message: `The user you are trying to deactivate has been active in the past ${DORMANT_DAYS} days and cannot be deactivated`,
      });
    }
    return { body: true, state: 'deactivated' };
  },
  activate(_ctx, user) {
    if (isBlocked(user)) throw E.forbidden('A blocked user must be unblocked to be activated');
    return user.state === 'deactivated' ? { body: true, state: 'active' } : { body: false };
  },
  ban(_ctx, user) {
    if (user.state !== 'active') throw new ApiError(403, { message: `You cannot ban ${user.state} users.` });
    return { body: true, state: 'banned' };
  },
  unban(_ctx, user) {
    if (user.state !== 'banned') throw new ApiError(403, { message: `You cannot unban ${user.state} users.` });
    return { body: true, state: 'active' };
  },
};

/** `GET /users/:user_id/projects` (id or username): the user's personal projects the caller may see, newest first. */
function userProjects(ctx: Ctx): void {
  const w = ctx.world;
  const user = w.findUser(ctx.p.user_id!);
  if (!user) throw E.notFound('User');
  const ids = w
    .visibleIds(ctx.user)
    .filter((id) => {
      const p = w.projects.get(id)!;
      return p.nsKind === 'user' && p.nsOwner === user.id;
    })
    .reverse();
  const view = { viewer: ctx.user, basic: boolParam(ctx, 'simple') === true, statistics: false };
  const page = offsetPage(ctx, ids.length, (off, lim) => ids.slice(off, off + lim));
  sendRawJson(ctx, 200, `[${page.map((id) => projectJsonText(w, w.projects.get(id)!, view)).join(',')}]`);
}

export function mountUserWrites({ root }: Mounts): void {
  offer('targetUser', targetUser);
  offer('userChanged', userChanged);
  root.post('/users', { auth: 'admin' }, createUser);
  root.put('/users/:id', { auth: 'admin' }, updateUser);
  for (const [name, action] of Object.entries(ACTIONS)) {
    root.post(`/users/:id/${name}`, { auth: 'admin' }, (ctx) => {
      const user = targetUser(ctx);
      const outcome = action(ctx, user);
      if (outcome.state) {
        user.state = outcome.state;
        userChanged(ctx, user);
      }
      sendJson(ctx, 201, outcome.body);
    });
  }
  root.get('/users/:user_id/projects', { auth: 'public' }, userProjects);
}
