import { getCurrentUser } from '../../api/users.js';
import { durationOption, intOption } from '../../cli/parsers.js';
import { defineCommand } from '../../cli/spec.js';
import { InterruptedError } from '../../errors.js';
import { auditTokens, requireAdmin, type AuditProgress } from '../../workflows/token-audit/audit.js';
import { readerGone } from '../../output/stream-errors.js';
import { write } from '../../output/writer.js';
import { describeSummary, type AuditRecord } from '../../workflows/token-audit/record.js';
import { ndjsonLines } from '../../output/format.js';

interface AuditFlags {
  expiresWithin?: number;
  unusedFor?: number;
  maxInFlight: number;
}

const DAY_MS = 86_400_000;

export const AUDIT = defineCommand<AuditFlags>({
  name: 'audit',
  description:
    "Stream the instance's tokens as NDJSON (owner, kind, scopes, expiry, last use), all or only expiring or unused ones, with a summary on stderr",
  options: [
    {
      flags: '--expires-within <duration>',
      help: 'print only tokens that stop working within this time (30d, 12w, 48h), or match --unused-for; `expiring` marks them (30d when not given)',
      parse: durationOption('--expires-within'),
    },
    {
      flags: '--unused-for <duration>',
      help: 'print only tokens not used for this long (or never, since they were made), or match --expires-within; `unused` marks them (90d when not given)',
      parse: durationOption('--unused-for'),
    },
    { flags: '--max-in-flight <n>', help: 'requests sent at once', parse: intOption('--max-in-flight', 1, 64), default: 8 },
  ],
  notes:
    "Needs an administrator's token. With neither --expires-within nor --unused-for every token is printed; with either or both, only the tokens that match at least one of them. On a terminal, a line on stderr shows how many projects, groups and users were scanned and tokens found. One record per token and line on stdout: kind (personal, impersonation, project, group, deploy), id, name, owner, owner_id, scopes, access_level (null but for project and group access tokens), active, revoked, expires_at, last_used_at, expiring, unused (null for deploy tokens, whose use the service does not report); every line has these keys in this order.",
  examples: [
    'svc tokens audit > tokens.ndjson',
    'svc tokens audit --expires-within 14d > expiring.ndjson',
    "svc tokens audit --expires-within 14d --unused-for 180d --max-in-flight 16 | jq -r 'select(.unused) | [.kind, .owner, .name] | @tsv'",
  ],
  async run(ctx, _args, opts) {
    const http = await ctx.http({ requireToken: true });
    requireAdmin(await getCurrentUser(http));
    const windows = { now: Date.now(), expiresWithinMs: opts.expiresWithin ?? 30 * DAY_MS, unusedForMs: opts.unusedFor ?? 90 * DAY_MS };
    const asked = [opts.expiresWithin !== undefined && 'expiring', opts.unusedFor !== undefined && 'unused'].filter(
      (mark): mark is 'expiring' | 'unused' => mark !== false,
    );
    const wanted = (r: AuditRecord) => asked.length === 0 || asked.some((mark) => r[mark] === true);
    const spinner = await ctx.spinner(progressText({ projects: 0, groups: 0, users: 0, tokens: 0 }));
    let written = 0;
    const summary = await auditTokens(http, {
      ...windows,
      maxInFlight: opts.maxInFlight,
      warn: (line) => ctx.warn(line),
      progress: (scanned) => spinner.update(progressText(scanned)),
      emit: async (records) => {
        const shown = records.filter(wanted);
        await write(ctx.stdout, ndjsonLines(shown));
        written += shown.length;
        return !readerGone(ctx.stdout);
      },
    })
      .catch((error: unknown) => {
        if (ctx.signal.aborted) throw new InterruptedError(`interrupted: the audit is incomplete; ${written} tokens are on stdout`);
        throw error;
      })
      .finally(() => spinner.stop());
    // The reader went away (`| head`): what it took is all it wants, and a summary of part of a pass would mislead.
    if (!summary) return;
    const printed = asked.length ? `; printed ${written} (${asked.join(' or ')})` : '';
    ctx.info(`${describeSummary(summary, windows, http.requestsSent)}${printed}`);
  },
});

function progressText(s: AuditProgress): string {
  return `tokens audit: ${s.projects} projects, ${s.groups} groups, ${s.users} users scanned; ${s.tokens} tokens found`;
}
