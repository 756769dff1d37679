import { getCurrentUser } from '../../api/users.js';
import { durationOption, intOption } from '../../cli/parsers.js';
import { defineCommand } from '../../cli/spec.js';
import { InterruptedError } from '../../errors.js';
import { auditTokens, requireAdmin } from '../../workflows/token-audit/audit.js';
import { readerGone } from '../../output/stream-errors.js';
import { write } from '../../output/writer.js';
import { describeSummary } from '../../workflows/token-audit/record.js';
import { ndjsonLines } from '../../output/format.js';

interface AuditFlags {
  expiresWithin: number;
  unusedFor: number;
  maxInFlight: number;
}

export const AUDIT = defineCommand<AuditFlags>({
  name: 'audit',
  description: 'Stream every token of the instance as NDJSON (owner, kind, scopes, expiry, last use) with a summary on stderr',
  options: [
    {
      flags: '--expires-within <duration>',
      help: 'mark active tokens that stop working within this time as expiring (30d, 12w, 48h)',
      parse: durationOption('--expires-within'),
      default: 30 * 86_400_000,
      defaultText: '30d',
    },
    {
      flags: '--unused-for <duration>',
      help: 'mark active tokens not used for this long (or never, since they were made) as unused',
      parse: durationOption('--unused-for'),
      default: 90 * 86_400_000,
      defaultText: '90d',
    },
    { flags: '--max-in-flight <n>', help: 'requests sent at once', parse: intOption('--max-in-flight', 1, 64), default: 8 },
  ],
  notes:
    "Needs an administrator's token. One record per token and line on stdout: kind (personal, impersonation, project, group, deploy), id, name, owner, owner_id, scopes, access_level (null but for project and group access tokens), active, revoked, expires_at, last_used_at, expiring, unused (null for deploy tokens, whose use the service does not report); every line has these keys in this order.",
  examples: [
    'svc tokens audit > tokens.ndjson',
    "svc tokens audit --expires-within 14d | jq -c 'select(.expiring)'",
    "svc tokens audit --unused-for 180d --max-in-flight 16 | jq -r 'select(.unused) | [.kind, .owner, .name] | @tsv'",
  ],
  async run(ctx, _args, opts) {
    const http = await ctx.http({ requireToken: true });
    requireAdmin(await getCurrentUser(http));
    const windows = { now: Date.now(), expiresWithinMs: opts.expiresWithin, unusedForMs: opts.unusedFor };
    let written = 0;
    const summary = await auditTokens(http, {
      ...windows,
      maxInFlight: opts.maxInFlight,
      warn: (line) => ctx.warn(line),
      emit: async (records) => {
        await write(ctx.stdout, ndjsonLines(records));
        written += records.length;
        return !readerGone(ctx.stdout);
      },
    }).catch((error: unknown) => {
      if (ctx.signal.aborted) throw new InterruptedError(`interrupted: the audit is incomplete; ${written} tokens are on stdout`);
      throw error;
    });
    // The reader went away (`| head`): what it took is all it wants, and a summary of part of a pass would mislead.
    if (summary) ctx.info(describeSummary(summary, windows, http.requestsSent));
  },
});
