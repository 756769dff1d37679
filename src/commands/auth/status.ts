import { getCurrentUser } from '../../api/users.js';
import type { Context } from '../../context.js';
import { ExitCode, SvcError } from '../../errors.js';
import { redactToken } from '../../config/resolve.js';
import { displayUrl } from '../../http/urls.js';
import { describeUser, type CurrentUser } from './shared/verify.js';
import { defineCommand } from '../../cli/spec.js';

const STATUS_FIELDS = ['profile', 'url', 'url_source', 'token', 'token_type', 'token_source', 'check'];

export const STATUS = defineCommand({
  name: 'status',
  description: 'Show which URL and token would be used, where each came from, and whether the token works',
  examples: ['svc auth status', 'svc auth status -o json', 'SVC_PROFILE=work svc auth status'],
  run: (ctx) => run(ctx),
});

/** Exit 0 when the token works (or is a job token, which GET /user cannot check), else the failure's code. */
async function run(ctx: Context): Promise<void> {
  const target = await ctx.target();
  const status = {
    profile: target.profileName,
    url: target.url ? displayUrl(target.url.value) : null,
    url_source: target.url?.source ?? null,
    token: target.token ? redactToken(target.token.value) : null,
    token_type: target.token?.type ?? null,
    token_source: target.token?.source ?? null,
    user: null as CurrentUser | null,
    check: '',
  };
  let failure: SvcError | undefined;
  if (!target.url) {
    failure = new SvcError('no service URL: pass --url, set SVC_URL, or run `svc auth login --url URL`', ExitCode.usage);
  } else if (!target.token) {
    failure = new SvcError('no token: set SVC_TOKEN, pass --token, or run `svc auth login`', ExitCode.usage);
  } else if (target.token.type === 'job') {
    status.check = 'not checked: job tokens cannot call GET /user';
  } else {
    try {
      const http = await ctx.http();
      status.user = await getCurrentUser(http);
      status.check = `ok: ${describeUser(status.user)}`;
    } catch (error) {
      if (!(error instanceof SvcError) || error.exitCode === ExitCode.interrupted) throw error;
      failure = error;
    }
  }
  if (failure) status.check = `failed: ${ctx.redact(failure.message)}`;
  await ctx.printRecord(status, STATUS_FIELDS);
  if (failure) throw failure;
}
