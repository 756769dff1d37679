import type { ConfigStore } from '../../config/store.js';
import type { Context } from '../../context.js';

/**
 * After `rotate --self` the token this run authenticated with is revoked: the current profile, if
 * it stores that token, gets the successor; a token given by --token or SVC_TOKEN is replaced there by hand.
 */
export async function replaceRevokedToken(ctx: Context, successor: string): Promise<void> {
  const { token, tokenFromProfile, profileName } = await ctx.target();
  if (!token) return;
  const config = await ctx.config();
  if (tokenFromProfile || storedToken(config, profileName) === token.value) {
    if (await saveSuccessor(config, profileName, token.value, successor)) ctx.info(`saved the new token to profile ${profileName}`);
    else ctx.warn(`profile ${profileName} holds another token now; it was left as it is`);
  }
  if (!tokenFromProfile)
    ctx.warn(`the token just revoked came from ${token.source}: replace it there with the new value printed on stdout`);
}

/** The profile's token as last read; a config file that cannot be read stores none (the run warned already). */
function storedToken(config: ConfigStore, profileName: string): string | undefined {
  try {
    return config.profile(profileName)?.token;
  } catch {
    return undefined;
  }
}

/** Through the store OAuth refreshes use: under the file's lock, and only over the revoked token. */
async function saveSuccessor(config: ConfigStore, profileName: string, revoked: string, successor: string): Promise<boolean> {
  let saved = false;
  await config.credentialStore(profileName).update(async (current) => {
    if (current?.token !== revoked) return undefined;
    saved = true;
    return { ...current, token: successor };
  });
  return saved;
}
