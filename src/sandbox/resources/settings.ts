// Instance-level answers: `GET /version`, `GET|PUT /application/settings`
// (storage weights, reference §10).
import type { Ctx } from '../server/context.js';
import { E } from '../server/errors.js';
import { sendJson } from '../server/respond.js';
import { iso } from '../util.js';
import type { Mounts } from './mounts.js';

export function mountSettings({ root }: Mounts): void {
  root.get('/version', { auth: 'user' }, (ctx) => {
    const ee = ctx.core.opts.tier === 'premium';
    sendJson(ctx, 200, {
      version: ee ? '17.8.1-ee' : '17.8.1',
      revision: 'sandbox',
      kas: { enabled: false, externalUrl: null, externalK8sProxyUrl: null, version: null },
      enterprise: ee,
    });
  });

  const settings = (ctx: Ctx) => {
    const w = ctx.world;
    return {
      id: 1,
      default_projects_limit: 100000,
      signup_enabled: false,
      default_project_visibility: 'private',
      default_snippet_visibility: 'private',
      default_group_visibility: 'private',
      max_attachment_size: 100,
      repository_storages_weighted: { ...w.weights },
      repository_storages: [...w.storages],
      max_import_size: 0,
      rate_limiting_response_text: 'Retry later',
      throttle_authenticated_api_enabled: (ctx.core.opts.rateLimit ?? 0) > 0,
      throttle_authenticated_api_requests_per_period: ctx.core.opts.rateLimit || 7200,
      throttle_authenticated_api_period_in_seconds: ctx.core.opts.rateLimit ? 60 : 3600,
      created_at: '2021-01-04T09:00:00.000Z',
      updated_at: iso(Date.now()),
    };
  };
  root.get('/application/settings', { auth: 'admin' }, (ctx) => sendJson(ctx, 200, settings(ctx)));
  root.put('/application/settings', { auth: 'admin' }, (ctx) => {
    const w = ctx.world;
    const v = ctx.params.repository_storages_weighted;
    if (v !== undefined) {
      if (!v || typeof v !== 'object' || Array.isArray(v)) throw E.invalid('repository_storages_weighted');
      const entries = Object.entries(v as Record<string, unknown>);
      const unknown = entries.filter(([k]) => !w.storages.includes(k)).map(([k]) => k);
      if (unknown.length > 0) throw E.validation({ repository_storages_weighted: [`can't include: ${unknown.join(', ')}`] });
      const next: Record<string, number> = {};
      for (const [k, raw] of entries) {
        const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw) : NaN;
        if (!Number.isInteger(n) || n < 0 || n > 100)
          throw E.validation({ [`repository_storages_weighted_${k}`]: ['value must be between 0 and 100'] });
        next[k] = n;
      }
      Object.assign(w.weights, next);
    }
    sendJson(ctx, 200, settings(ctx));
  });
}
