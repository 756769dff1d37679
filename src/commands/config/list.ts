import type { Context } from '../../context.js';
import { redactToken } from '../../config/resolve.js';
import { displayUrl } from '../../http/urls.js';
import { writeList } from '../../output/writer.js';
import { defineCommand } from '../../cli/spec.js';

const COLUMNS = ['profile', 'active', 'url', 'tokenType', 'token', 'caFile', 'oauthClientId'];

export const LIST = defineCommand({
  name: 'list',
  description: 'List every profile with its settings (tokens redacted)',
  examples: ['svc config list', 'svc config list -o json'],
  run: (ctx) => run(ctx),
});

async function run(ctx: Context): Promise<void> {
  const store = await ctx.config();
  async function* rows() {
    for (const name of store.profileNames()) {
      const profile = store.profile(name) ?? {};
      yield {
        profile: name,
        active: name === store.activeProfile,
        url: profile.url ? displayUrl(profile.url) : null,
        tokenType: profile.token ? (profile.tokenType ?? 'private') : null,
        token: profile.token ? redactToken(profile.token) : null,
        refreshToken: profile.refreshToken ? redactToken(profile.refreshToken) : null,
        caFile: profile.caFile ?? null,
        oauthClientId: profile.oauthClientId ?? null,
      };
    }
  }
  await writeList(ctx.stdout, ctx.output, rows(), COLUMNS);
}
