// The one table of SSH keys that users' keys and deploy keys share (app/models/key.rb, deploy_key.rb,
// deploy_keys_project.rb), so that a key's fingerprint is taken once across both, and users' GPG keys
// (gpg_key.rb). Validation answers as `render_validation_error!` does: `400 {"message":{…}}` with the
// model's attributes in the order its validations add them. README, "SSH, deploy and GPG keys".
import { createHash } from 'node:crypto';
import type { Ctx } from '../server/context.js';
import { E } from '../server/errors.js';
import { strParam, timeParam } from '../server/params.js';
import { storeFor } from '../store/collection.js';
import type { UserRec } from '../store/records.js';
import type { World } from '../store/world.js';
import { gpgFingerprint, parseSshKey, type SshKey } from '../util/public-key.js';
import { iso } from '../util/time.js';

export interface KeyRec {
  id: number;
  kind: 'user' | 'deploy';
  /** the user the key belongs to, or who added the deploy key */
  userId: number;
  title: string;
  /** as given, stripped (the comment kept) */
  text: string;
  parsed: SshKey;
  createdAt: number;
  expiresAt: number | null;
  usageType: string;
  /** a deploy key any project may enable */
  isPublic: boolean;
}

export interface DeployLink {
  projectId: number;
  keyId: number;
  canPush: boolean;
}

export interface GpgKeyRec {
  id: number;
  userId: number;
  text: string;
  fingerprint: string;
  keyId: string;
  createdAt: number;
}

/** What the instance allows by default (`allowed_key_types`: DSA has been forbidden since 16.0). */
const ALLOWED = ['rsa', 'ecdsa', 'ed25519', 'ecdsa_sk', 'ed25519_sk'];
const FORBIDDEN_TYPE = `type is forbidden. Must be ${ALLOWED.slice(0, -1)
  .map((t) => t.toUpperCase())
  .join(', ')}, or ${ALLOWED.at(-1)!.toUpperCase()}`;
const SUPPORTED_PREFIX =
  /^(ssh-rsa|ssh-dss|ecdsa-sha2-nistp\d+|ssh-ed25519|sk-ecdsa-sha2-nistp256@openssh\.com|sk-ssh-ed25519@openssh\.com)/;
const ARMOR = /^-----BEGIN PGP PUBLIC KEY BLOCK-----[\s\S]+-----END PGP PUBLIC KEY BLOCK-----$/;

/** A deterministic ed25519 public key line for seeded records. */
function seededKey(name: string): string {
  const type = Buffer.from('ssh-ed25519');
  const point = createHash('sha256').update(`sandbox-key:${name}`).digest();
  const blob = Buffer.concat([Buffer.from([0, 0, 0, type.length]), type, Buffer.from([0, 0, 0, 32]), point]);
  return `ssh-ed25519 ${blob.toString('base64')} ${name}`;
}

function seeded(w: World, id: number, kind: KeyRec['kind'], userId: number, title: string, isPublic: boolean): KeyRec {
  const text = seededKey(title);
  return {
    id,
    kind,
    userId,
    title,
    text,
    parsed: parseSshKey(text)!,
    createdAt: w.now(),
    expiresAt: null,
    usageType: 'auth_and_signing',
    isPublic,
  };
}

/** jdoe has a key; project 1 has a deploy key, and the instance a public one no project uses yet. */
export const keyStore = storeFor((w) => ({
  keys: [
    seeded(w, 1, 'user', 2, 'jdoe-laptop', false),
    seeded(w, 2, 'deploy', 1, 'ci-deploy', false),
    seeded(w, 3, 'deploy', 1, 'fleet-readonly', true),
  ] as KeyRec[],
  links: [{ projectId: 1, keyId: 2, canPush: false }] as DeployLink[],
  gpg: [] as GpgKeyRec[],
  nextId: 4,
  nextGpgId: 1,
}));

/** `key` and `title` (Grape names every one missing), and `expires_at`. */
export function readKeyInput(ctx: Ctx): { title: string; key: string; expiresAt?: number } {
  const key = strParam(ctx, 'key');
  const title = strParam(ctx, 'title');
  const missing = [key === undefined ? 'key' : null, title === undefined ? 'title' : null].filter((n): n is string => n !== null);
  if (missing.length > 0) throw E.missing(...missing);
  return { key: key!, title: title!, expiresAt: timeParam(ctx, 'expires_at') };
}

/**
 * A new SSH key's record, checked as the model checks it; `prefix` names the attributes for a key
 * created through another record (`deploy_key.` under a deploy keys project).
 */
export function newSshKey(
  ctx: Ctx,
  kind: KeyRec['kind'],
  user: UserRec,
  input: { title: string; key: string; expiresAt?: number; usageType?: string },
  prefix = '',
): KeyRec {
  const text = input.key.trim();
  const parsed = parseSshKey(text);
  const errors: Record<string, string[]> = {};
  const add = (attribute: string, message: string) => (errors[prefix + attribute] ??= []).push(message);
  if (!input.title.trim()) add('title', "can't be blank");
  if (input.title.length > 255) add('title', 'is too long (maximum is 255 characters)');
  if (!text) add('key', "can't be blank");
  else if (text.length > 5000) add('key', 'is too long (maximum is 5000 characters)');
  if (text && !SUPPORTED_PREFIX.test(text)) add('key', 'is invalid');
  if (!parsed) add('fingerprint_sha256', 'cannot be generated');
  else if (keyStore(ctx.world).keys.some((k) => k.parsed.sha256 === parsed.sha256)) add('fingerprint_sha256', 'has already been taken');
  if (!parsed || !ALLOWED.includes(parsed.technology)) add('key', FORBIDDEN_TYPE);
  if (input.expiresAt !== undefined && input.expiresAt <= ctx.world.now()) add('expires_at', 'must be in the future');
  if (Object.keys(errors).length > 0) throw E.validation(errors);
  return {
    id: keyStore(ctx.world).nextId++,
    kind,
    userId: user.id,
    title: input.title,
    text,
    parsed: parsed!,
    createdAt: ctx.world.now(),
    expiresAt: input.expiresAt ?? null,
    usageType: input.usageType ?? 'auth_and_signing',
    isPublic: false,
  };
}

export function newGpgKey(ctx: Ctx, user: UserRec, key: string): GpgKeyRec {
  const text = key.trim();
  const read = ARMOR.test(text) ? gpgFingerprint(text) : null;
  const errors: Record<string, string[]> = {};
  const taken = read && keyStore(ctx.world).gpg.some((g) => g.fingerprint === read.fingerprint);
  if (!text) errors.key = ["can't be blank"];
  else if (!ARMOR.test(text)) errors.key = ['is invalid'];
  if (!read) errors.fingerprint = ["can't be blank"];
  else if (taken) errors.fingerprint = ['has already been taken'];
  if (!read) errors.primary_keyid = ["can't be blank"];
  else if (taken) errors.primary_keyid = ['has already been taken'];
  if (Object.keys(errors).length > 0) throw E.validation(errors);
  return {
    id: keyStore(ctx.world).nextGpgId++,
    userId: user.id,
    text,
    fingerprint: read!.fingerprint,
    keyId: read!.keyId,
    createdAt: ctx.world.now(),
  };
}

/** `Entities::SSHKey`: the key as `publishable_key`, its comment replaced by the owner's name and the host. */
export function sshKeyJson(ctx: Ctx, k: KeyRec): Record<string, unknown> {
  const owner = ctx.world.users.get(k.userId);
  const host = ctx.host.replace(/:\d+$/, '');
  return {
    id: k.id,
    title: k.title,
    created_at: iso(k.createdAt),
    expires_at: k.expiresAt === null ? null : iso(k.expiresAt),
    key: `${k.parsed.publishable} ${owner?.name ?? ''} (${host})`,
    usage_type: k.usageType,
  };
}

/** `Entities::DeployKey`: the key as given, and both fingerprints. */
export function deployKeyJson(ctx: Ctx, k: KeyRec): Record<string, unknown> {
  return { ...sshKeyJson(ctx, k), key: k.text, fingerprint: k.parsed.md5, fingerprint_sha256: k.parsed.sha256 };
}

export function gpgKeyJson(g: GpgKeyRec): Record<string, unknown> {
  return { id: g.id, key: g.text, created_at: iso(g.createdAt) };
}
