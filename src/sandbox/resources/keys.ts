// Users' SSH and GPG keys (lib/api/users.rb: `/user/keys`, `/users/:id/keys`, `/user/gpg_keys`,
// `/users/:id/gpg_keys`; entities/ssh_key.rb, gpg_key.rb): anyone may list a user's keys, only an
// administrator adds or deletes another's; the caller's own under `/user`. Unknown user `404 User Not
// Found` (a username only where SSH keys are listed: elsewhere `400 id is invalid`), unknown key `404 Key Not Found` (`404 GPG Key Not Found`); deletes answer 204. Validation and
// fingerprints in key-store.ts (README, "SSH, deploy and GPG keys").
import type { Ctx } from '../server/context.js';
import { E } from '../server/errors.js';
import { enumParam, intSeg, strParam } from '../server/params.js';
import { pageOf } from '../server/paging.js';
import { sendJson, sendList } from '../server/respond.js';
import type { UserRec } from '../store/records.js';
import { ask } from '../engine/ports.js';
import { deployKeyJson, gpgKeyJson, type KeyRec, keyStore, newGpgKey, newSshKey, readKeyInput, sshKeyJson } from './key-store.js';
import type { Mounts } from './mounts.js';

const USAGE_TYPES = ['auth', 'signing', 'auth_and_signing'] as const;

/** The `:id` user; only the SSH key listing also takes a username (the other routes declare an Integer id). */
function userOf(ctx: Ctx, username = false): UserRec {
  if (!username) intSeg(ctx, 'id');
  const user = ctx.world.findUser(ctx.p.id!);
  if (!user) throw E.notFound('User');
  return user;
}

const sshKeysOf = (ctx: Ctx, user: UserRec) => keyStore(ctx.world).keys.filter((k) => k.kind === 'user' && k.userId === user.id);
const gpgKeysOf = (ctx: Ctx, user: UserRec) => keyStore(ctx.world).gpg.filter((g) => g.userId === user.id);

function addSsh(ctx: Ctx, user: UserRec): void {
  const rec = newSshKey(ctx, 'user', user, { ...readKeyInput(ctx), usageType: enumParam(ctx, 'usage_type', USAGE_TYPES) });
  keyStore(ctx.world).keys.push(rec);
  sendJson(ctx, 201, sshKeyJson(ctx, rec));
}

function deleteSsh(ctx: Ctx, user: UserRec): void {
  const id = intSeg(ctx, 'key_id');
  const keys = keyStore(ctx.world).keys;
  const at = keys.findIndex((k) => k.kind === 'user' && k.userId === user.id && k.id === id);
  if (at < 0) throw E.notFound('Key');
  keys.splice(at, 1);
  sendJson(ctx, 204, null);
}

function addGpg(ctx: Ctx, user: UserRec): void {
  const key = strParam(ctx, 'key');
  if (key === undefined) throw E.missing('key');
  const rec = newGpgKey(ctx, user, key);
  keyStore(ctx.world).gpg.push(rec);
  sendJson(ctx, 201, gpgKeyJson(rec));
}

function deleteGpg(ctx: Ctx, user: UserRec): void {
  const id = intSeg(ctx, 'key_id');
  const gpg = keyStore(ctx.world).gpg;
  const at = gpg.findIndex((g) => g.userId === user.id && g.id === id);
  if (at < 0) throw E.notFound('GPG Key');
  gpg.splice(at, 1);
  sendJson(ctx, 204, null);
}

/**
 * `GET /keys/:id` and `GET /keys?fingerprint=` (lib/api/keys.rb, administrators and auditors): an SSH key
 * with its owner (SSHKeyWithUser), or by MD5 or `SHA256:` fingerprint a user's or a deploy key (DeployKeyWithUser).
 */
function mountKeyLookups(root: Mounts['root']): void {
  const withUser = (ctx: Ctx, k: KeyRec) => ({
    ...(k.kind === 'deploy' ? deployKeyJson(ctx, k) : sshKeyJson(ctx, k)),
    user: ask('userJson')(ctx.world, ctx.world.users.get(k.userId)!, ctx.user),
  });
  root.get('/keys/:key_id', { auth: 'admin' }, (ctx) => {
    const id = intSeg(ctx, 'key_id');
    const key = keyStore(ctx.world).keys.find((k) => k.id === id);
    // `Key.find`: the RecordNotFound answer.
    if (!key) throw E.findNotFound();
    sendJson(ctx, 200, withUser(ctx, key));
  });
  root.get('/keys', { auth: 'admin' }, (ctx) => {
    const fingerprint = strParam(ctx, 'fingerprint');
    if (fingerprint === undefined) throw E.missing('fingerprint');
    const sha256 = fingerprint.startsWith('SHA256:');
    const key = keyStore(ctx.world).keys.find((k) => (sha256 ? k.parsed.sha256 === fingerprint : k.parsed.md5 === fingerprint));
    if (!key) throw E.notFound('Key');
    sendJson(ctx, 200, withUser(ctx, key));
  });
}

export function mountKeys({ root }: Mounts): void {
  const me = (ctx: Ctx) => ctx.user!;
  root.get('/user/keys', { auth: 'user' }, (ctx) =>
    sendList(
      ctx,
      pageOf(ctx, sshKeysOf(ctx, me(ctx))).map((k) => sshKeyJson(ctx, k)),
    ),
  );
  root.get('/user/keys/:key_id', { auth: 'user' }, (ctx) => {
    const id = intSeg(ctx, 'key_id');
    const key = sshKeysOf(ctx, me(ctx)).find((k) => k.id === id);
    if (!key) throw E.notFound('Key');
    sendJson(ctx, 200, sshKeyJson(ctx, key));
  });
  root.post('/user/keys', { auth: 'user' }, (ctx) => addSsh(ctx, me(ctx)));
  root.delete('/user/keys/:key_id', { auth: 'user' }, (ctx) => deleteSsh(ctx, me(ctx)));
  root.get('/users/:id/keys', { auth: 'public' }, (ctx) =>
    sendList(
      ctx,
      pageOf(ctx, sshKeysOf(ctx, userOf(ctx, true))).map((k) => sshKeyJson(ctx, k)),
    ),
  );
  root.get('/users/:id/keys/:key_id', { auth: 'public' }, (ctx) => {
    const id = intSeg(ctx, 'key_id');
    const key = sshKeysOf(ctx, userOf(ctx)).find((k) => k.id === id);
    if (!key) throw E.notFound('Key');
    sendJson(ctx, 200, sshKeyJson(ctx, key));
  });
  root.post('/users/:id/keys', { auth: 'admin' }, (ctx) => addSsh(ctx, userOf(ctx)));
  root.delete('/users/:id/keys/:key_id', { auth: 'admin' }, (ctx) => deleteSsh(ctx, userOf(ctx)));

  root.get('/user/gpg_keys', { auth: 'user' }, (ctx) => sendList(ctx, pageOf(ctx, gpgKeysOf(ctx, me(ctx))).map(gpgKeyJson)));
  root.get('/user/gpg_keys/:key_id', { auth: 'user' }, (ctx) => {
    const id = intSeg(ctx, 'key_id');
    const key = gpgKeysOf(ctx, me(ctx)).find((g) => g.id === id);
    if (!key) throw E.notFound('GPG Key');
    sendJson(ctx, 200, gpgKeyJson(key));
  });
  root.post('/user/gpg_keys', { auth: 'user' }, (ctx) => addGpg(ctx, me(ctx)));
  root.delete('/user/gpg_keys/:key_id', { auth: 'user' }, (ctx) => deleteGpg(ctx, me(ctx)));
  root.get('/users/:id/gpg_keys', { auth: 'public' }, (ctx) => sendList(ctx, pageOf(ctx, gpgKeysOf(ctx, userOf(ctx))).map(gpgKeyJson)));
  root.get('/users/:id/gpg_keys/:key_id', { auth: 'public' }, (ctx) => {
    const id = intSeg(ctx, 'key_id');
    const key = gpgKeysOf(ctx, userOf(ctx)).find((g) => g.id === id);
    if (!key) throw E.notFound('GPG Key');
    sendJson(ctx, 200, gpgKeyJson(key));
  });
  root.post('/users/:id/gpg_keys', { auth: 'admin' }, (ctx) => addGpg(ctx, userOf(ctx)));
  mountKeyLookups(root);
  root.delete('/users/:id/gpg_keys/:key_id', { auth: 'admin' }, (ctx) => deleteGpg(ctx, userOf(ctx)));
}
