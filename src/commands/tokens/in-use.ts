import type { ConfigStore } from '../../config/store.js';
import type { Context } from '../../context.js';
import { ExitCode, SvcError } from '../../errors.js';

/**
 * After `rotate --self` the token this run authenticated with is revoked: the current profile, if
 * it stores that token, gets the successor; a token given by --token or SVC_TOKEN is replaced there by hand.
 */
export async function replaceRevokedToken(ctx: Context, successor: string): Promise<void> {
  const { token, tokenFromProfile, profileName } = await ctx.target();
  if (!token) return;
  const config = await ctx.config();
  if (tokenFromProfile || storedToken(config, profileName) === token.value) {
    if (await saveOrSay(config, profileName, token.value, successor)) ctx.info(`saved the new token to profile ${profileName}`);
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

/** The old token is revoked already: a failed save must say that the printed successor is the only copy. */
async function saveOrSay(config: ConfigStore, profileName: string, revoked: string, successor: string): Promise<boolean> {
  try {
    return await saveSuccessor(config, profileName, revoked, successor);
  } catch (error) {
    if (!(error instanceof SvcError) || error.exitCode === ExitCode.interrupted) throw error;
    throw new SvcError(
      `the new token (printed on stdout) was NOT saved to profile ${profileName}: ${error.message}; keep it, and save it with \`svc auth login --profile ${profileName}\``,
      ExitCode.failure,
    );
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
