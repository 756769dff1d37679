import type { AccessToken, TokenKind } from '../../api/tokens.js';

const DAY_MS = 86_400_000;

/** One line of the audit: whose token, what it may do, and whether it needs attention. */
export interface AuditRecord {
  kind: TokenKind;
  id: number;
  name: string;
  /** username, or the project's or group's full path */
  owner: string;
  owner_id: number;
  scopes: string[];
  /** project and group access tokens; null for the others */
  access_level: number | null;
  active: boolean;
  revoked: boolean;
  expires_at: string | null;
  last_used_at: string | null;
  /** active and ending within the window */
  expiring: boolean;
  /** active and not used within the window (null for deploy tokens, whose use the service does not report) */
  unused: boolean | null;
}

export interface AuditWindows {
  now: number;
  expiresWithinMs: number;
  unusedForMs: number;
}

export interface AuditSummary {
  byKind: Record<TokenKind, number>;
  expiring: number;
  unused: number;
}

export function emptySummary(): AuditSummary {
  return { byKind: { personal: 0, impersonation: 0, project: 0, group: 0, deploy: 0 }, expiring: 0, unused: 0 };
}

/** Deploy tokens report `expired` instead of `active`; both report `revoked`. */
export function auditRecord(kind: TokenKind, token: AccessToken, owner: string, ownerId: number, w: AuditWindows): AuditRecord {
  const active = token.active ?? (!token.revoked && token.expired !== true);
  const expiresAt = token.expires_at === null ? null : token.expires_at.slice(0, 10);
  const lastUsed = token.last_used_at ?? null;
  const expiring = active && expiresAt !== null && Date.parse(`${expiresAt}T00:00:00Z`) <= w.now + w.expiresWithinMs;
  // A token never used counts from its creation, so that one made yesterday is not stale.
  const usedOrMade = lastUsed ?? token.created_at ?? null;
  const unused = kind === 'deploy' ? null : active && (usedOrMade === null || Date.parse(usedOrMade) < w.now - w.unusedForMs);
  return {
    kind,
    id: token.id,
    name: token.name,
    owner,
    owner_id: ownerId,
    scopes: token.scopes,
    access_level: token.access_level ?? null,
    active,
    revoked: token.revoked,
    expires_at: expiresAt,
    last_used_at: lastUsed,
    expiring,
    unused,
  };
}

export function count(summary: AuditSummary, r: AuditRecord): void {
  summary.byKind[r.kind]++;
  if (r.expiring) summary.expiring++;
  if (r.unused) summary.unused++;
}

export function describeSummary(s: AuditSummary, w: AuditWindows, requests: number): string {
  const total = Object.values(s.byKind).reduce((a, b) => a + b, 0);
  const kinds = (Object.entries(s.byKind) as Array<[TokenKind, number]>).map(([k, n]) => `${n} ${k}`).join(', ');
  return (
    `audited ${total} tokens (${kinds}) in ${requests} requests: ` +
    `${s.expiring} active expire within ${spanText(w.expiresWithinMs)}, ${s.unused} active unused for ${spanText(w.unusedForMs)}`
  );
}

/** A window in the largest unit that divides it, so that 90m is not "0 days". */
function spanText(ms: number): string {
  const units: Array<[string, number]> = [
    ['days', DAY_MS],
    ['hours', 3_600_000],
  ];
  const [unit, size] = units.find(([, n]) => ms % n === 0) ?? ['minutes', 60_000];
  return `${ms / size} ${unit}`;
}
