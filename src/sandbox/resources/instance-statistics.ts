// Instance statistics and the license. `GET /application/statistics` (lib/api/statistics.rb, admin): counts of
// the sandbox's world as Entities::ApplicationStatistics renders them, each a string with thousands
// delimiters (`number_with_delimiter`). `GET /license` (ee/lib/api/license.rb, admin) exists only in the
// premium tier, which answers the license it runs on (EE::API::Entities::GitlabLicenseWithActiveUsers);
// the free tier (Community Edition) has no such route.
import { ask } from '../engine/ports.js';
import type { Ctx } from '../server/context.js';
import { isGhost } from '../entities/user.js';
import { sendJson } from '../server/respond.js';
import type { World } from '../store/world.js';
import { iso } from '../util/time.js';
import { keyStore } from './key-store.js';
import type { Mounts } from './mounts.js';

const delimited = (n: number) => n.toLocaleString('en-US');

/** `User.active`: active accounts that are neither the ghost user nor bots. */
function activeUsers(w: World): number {
  return w.users.filter((u) => u.state === 'active' && u.bot !== true && !isGhost(u)).length;
}

function statistics(w: World): Record<string, string> {
  const { issues, notes } = ask('issueTotals')(w);
  return {
    forks: delimited(ask('forkTotal')(w)),
    issues: delimited(issues),
    merge_requests: delimited(ask('mergeRequestTotal')(w)),
    notes: delimited(notes),
    snippets: delimited(w.snippets.size),
    ssh_keys: delimited(keyStore(w).keys.length),
    milestones: delimited(ask('milestoneTotal')(w)),
    users: delimited(w.users.size),
    projects: delimited(w.projects.size),
    groups: delimited(w.groups.size),
    active_users: delimited(activeUsers(w)),
  };
}

const LICENSE_START = Date.UTC(2026, 0, 1);

function license(ctx: Ctx): Record<string, unknown> {
  const active = activeUsers(ctx.world);
  const seats = 500;
  return {
    id: 1,
    plan: 'premium',
    created_at: iso(LICENSE_START),
    starts_at: '2026-01-01',
    expires_at: '2027-01-01',
    historical_max: active,
    maximum_user_count: active,
    licensee: { Name: 'Sandbox Admin', Email: 'admin@example.com', Company: 'Sandbox' },
    add_ons: {},
    expired: ctx.world.now() >= Date.UTC(2027, 0, 1),
    overage: Math.max(0, active - seats),
    user_limit: seats,
    active_users: active,
  };
}

export function mountInstanceStatistics({ root }: Mounts): void {
  root.get('/application/statistics', { auth: 'admin' }, (ctx) => sendJson(ctx, 200, statistics(ctx.world)));
  root.get('/license', { auth: 'admin', premium: true }, (ctx) => sendJson(ctx, 200, license(ctx)));
}
