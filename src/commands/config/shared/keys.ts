import { resolve } from 'node:path';
import type { Context } from '../../../context.js';
import { UsageError } from '../../../errors.js';
import { parseTokenType, profileNameFor } from '../../../config/resolve.js';
import { SETTABLE_KEYS, type ConfigStore, type SettableKey } from '../../../config/store.js';
import { readTextFile } from '../../shared/local-file.js';
import { hasPemCertificate, PEM_CERTIFICATE } from '../../../http/transport.js';

/** `activeProfile` lives at the top of the file; every other key belongs to a profile. */
export const CONFIG_KEYS = [...SETTABLE_KEYS, 'activeProfile'] as const;
export type ConfigKey = (typeof CONFIG_KEYS)[number];

export function configKey(value: string): ConfigKey {
  if ((CONFIG_KEYS as readonly string[]).includes(value)) return value as ConfigKey;
  if (/token/i.test(value)) {
    throw new UsageError(`'${value}' is not readable or settable here: use \`svc auth login\` and \`svc auth status\``);
  }
  throw new UsageError(`unknown config key '${value}' (keys: ${CONFIG_KEYS.join(', ')})`);
}

export async function profileInUse(ctx: Context): Promise<{ store: ConfigStore; name: string }> {
  const store = await ctx.config();
  return { store, name: profileNameFor(ctx.globals, ctx.env, store) };
}

/** Checks a value before it is saved, so a typo never lands in the file. */
export async function validValue(key: SettableKey, value: string): Promise<string> {
  if (key === 'url') {
    const { normalizeBaseUrl, instanceRoot } = await import('../../../http/client.js');
    return instanceRoot(normalizeBaseUrl(value));
  }
  if (key === 'tokenType') return parseTokenType(value, 'tokenType') as string;
  if (key === 'caFile') return pemCertificateFile(value);
  return value.trim();
}

/** An existing, readable file with at least one PEM certificate, saved as an absolute path. */
async function pemCertificateFile(value: string): Promise<string> {
  const path = resolve(value);
  const text = await readTextFile('caFile', path);
  if (!hasPemCertificate(text)) {
    throw new UsageError(`caFile ${path}: not a PEM certificate bundle (no '${PEM_CERTIFICATE}' line)`);
  }
  return path;
}
