import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { redactToken } from '../../config/resolve.js';
import { writeList } from '../../output/writer.js';
import { withExamples } from '../../cli/build.js';
import type { Runtime } from '../../runtime.js';

const COLUMNS = ['profile', 'active', 'url', 'tokenType', 'token', 'caFile', 'oauthClientId'];

export function register(parent: Command, runtime: Runtime): void {
  const command = parent.command('list').description('List every profile with its settings (tokens redacted)');
  withExamples(command, ['svc config list', 'svc config list -o json']);
  command.action(runtime.action((ctx) => run(ctx)));
}

export async function run(ctx: Context): Promise<void> {
  const store = await ctx.config();
  async function* rows() {
    for (const name of store.profileNames()) {
      const profile = store.profile(name) ?? {};
      yield {
        profile: name,
        active: name === store.activeProfile,
        url: profile.url ?? null,
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
