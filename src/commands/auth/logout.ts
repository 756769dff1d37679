import type { Context } from '../../context.js';
import { profileNameFor } from '../../config/resolve.js';
import type { Profile } from '../../config/store.js';
import { existingProfile } from '../shared/profiles.js';
import { defineCommand } from '../../cli/spec.js';

/** What logging out forgets; url, caFile and oauthClientId stay for the next login. */
const CREDENTIAL_KEYS = ['token', 'refreshToken', 'tokenType'] as const satisfies ReadonlyArray<keyof Profile>;

export const LOGOUT = defineCommand({
  name: 'logout',
  description: "Remove a profile's token (and OAuth refresh token) from the config file; its url, caFile and oauthClientId stay",
  notes: 'To change or clear the other settings: svc config set|unset KEY --profile NAME',
  examples: ['svc auth logout', 'svc auth logout --profile work'],
  run: (ctx) => run(ctx),
});

async function run(ctx: Context): Promise<void> {
  const store = await ctx.config();
  const name = profileNameFor(ctx.globals, ctx.env, store);
  const profile = existingProfile(store, name);
  if (CREDENTIAL_KEYS.every((key) => profile[key] === undefined)) {
    ctx.info(`profile '${name}' holds no token; nothing to remove`);
    return;
  }
  await store.updateProfile(name, Object.fromEntries(CREDENTIAL_KEYS.map((key) => [key, undefined])));
  ctx.info(`removed the token of profile '${name}' from ${store.path}; its other settings stay (svc config list)`);
}
