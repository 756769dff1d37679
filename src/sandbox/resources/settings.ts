// Instance-level answers: `GET /version`, `GET|PUT /application/settings`
// (the settings of instance-settings.ts; storage weights, reference §10).
import type { Ctx } from '../server/context.js';
import { E } from '../server/errors.js';
import { sendJson } from '../server/respond.js';
import { iso } from '../util/time.js';
import { instanceSettings, SETTING_NAMES, updateInstanceSettings } from './instance-settings.js';
import type { Mounts } from './mounts.js';

/** `repository_storages_weighted` as a JSON object or `repository_storages_weighted[name]=w`: checked, then a function applying it. */
function readWeights(ctx: Ctx): () => void {
  const w = ctx.world;
  const v = ctx.params.repository_storages_weighted;
  if (v === undefined) return () => {};
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
  return () => Object.assign(w.weights, next);
}

export function mountSettings({ root }: Mounts): void {
  // `/metadata` (lib/api/metadata.rb) and the older `/version` answer the same entity; a token with only
  // `read_user` may read them.
  for (const path of ['/version', '/metadata']) {
    root.get(path, { auth: 'user', scopes: ['read_user'] }, (ctx) => {
      const ee = ctx.core.opts.tier === 'premium';
      sendJson(ctx, 200, {
        version: ee ? '17.8.1-ee' : '17.8.1',
        revision: 'sandbox',
        kas: { enabled: false, externalUrl: null, externalK8sProxyUrl: null, version: null },
        enterprise: ee,
      });
    });
  }

  const settings = (ctx: Ctx) => {
    const w = ctx.world;
    const { authenticated: auth, unauthenticated: anon } = ctx.core.rateLimiter.throttles;
    return {
      id: 1,
      ...instanceSettings(w),
      repository_storages_weighted: { ...w.weights },
      repository_storages: [...w.storages],
      rate_limiting_response_text: ctx.core.rateLimiter.responseText,
      throttle_authenticated_api_enabled: auth.enabled,
      throttle_authenticated_api_requests_per_period: auth.limit,
      throttle_authenticated_api_period_in_seconds: auth.period,
      throttle_unauthenticated_api_enabled: anon.enabled,
      throttle_unauthenticated_api_requests_per_period: anon.limit,
      throttle_unauthenticated_api_period_in_seconds: anon.period,
      created_at: '2021-01-04T09:00:00.000Z',
      updated_at: iso(Date.now()),
    };
  };
  root.get('/application/settings', { auth: 'admin' }, (ctx) => sendJson(ctx, 200, settings(ctx)));
  root.put('/application/settings', { auth: 'admin' }, (ctx) => {
    if (!SETTING_NAMES.some((k) => ctx.params[k] !== undefined)) throw E.atLeastOne(...SETTING_NAMES);
    updateInstanceSettings(ctx, readWeights(ctx));
    sendJson(ctx, 200, settings(ctx));
  });
}
