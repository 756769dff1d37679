// The application settings the sandbox models (`PUT /application/settings`, lib/api/settings.rb): each is
// kept, shown by GET and acted on where the sandbox has the behaviour (reference behaviour §3.1 for the
// throttles, §10 for the storage weights). Grape ignores parameters a route does not declare, and the
// sandbox declares only these: anything else changes nothing and is not shown.
import type { Ctx } from '../server/context.js';
import { E } from '../server/errors.js';
import { boolParam, enumParam, intParam, strParam } from '../server/params.js';
import { storeFor } from '../store/collection.js';
import type { Visibility } from '../store/records.js';
import type { World } from '../store/world.js';

export interface InstanceSettings {
  default_projects_limit: number;
  default_project_visibility: Visibility;
  default_group_visibility: Visibility;
  default_snippet_visibility: Visibility;
  signup_enabled: boolean;
  max_attachment_size: number;
  max_import_size: number;
}

export const instanceSettings = storeFor((): InstanceSettings => ({
  default_projects_limit: 100000,
  default_project_visibility: 'private',
  default_group_visibility: 'private',
  default_snippet_visibility: 'private',
  signup_enabled: false,
  max_attachment_size: 100,
  max_import_size: 0,
}));

const VISIBILITY = ['private', 'internal', 'public'] as const;
const THROTTLES = ['authenticated', 'unauthenticated'] as const;

/** Every setting `PUT /application/settings` takes in the sandbox, in the order of its at-least-one message. */
export const SETTING_NAMES = [
  'default_projects_limit',
  'default_project_visibility',
  'default_group_visibility',
  'default_snippet_visibility',
  'signup_enabled',
  'max_attachment_size',
  'max_import_size',
  'rate_limiting_response_text',
  ...THROTTLES.flatMap((t) => [
    `throttle_${t}_api_enabled`,
    `throttle_${t}_api_requests_per_period`,
    `throttle_${t}_api_period_in_seconds`,
  ]),
  'repository_storages_weighted',
];

function positive(ctx: Ctx, name: string, errors: Record<string, string[]>): number | undefined {
  const v = intParam(ctx, name);
  if (v !== undefined && v <= 0) errors[name] = ['must be greater than 0'];
  return v;
}

/** Checks every setting of the request, then applies them all; nothing changes when one is refused. */
export function updateInstanceSettings(ctx: Ctx, applyWeights: () => void): void {
  const w: World = ctx.world;
  const errors: Record<string, string[]> = {};
  const s = instanceSettings(w);
  const next: Partial<InstanceSettings> = {};
  const limit = intParam(ctx, 'default_projects_limit');
  if (limit !== undefined && limit < 0) errors.default_projects_limit = ['must be greater than or equal to 0'];
  if (limit !== undefined) next.default_projects_limit = limit;
  const project = enumParam(ctx, 'default_project_visibility', VISIBILITY);
  if (project !== undefined) next.default_project_visibility = project;
  const group = enumParam(ctx, 'default_group_visibility', VISIBILITY);
  if (group !== undefined) next.default_group_visibility = group;
  const snippet = enumParam(ctx, 'default_snippet_visibility', VISIBILITY);
  if (snippet !== undefined) next.default_snippet_visibility = snippet;
  const signup = boolParam(ctx, 'signup_enabled');
  if (signup !== undefined) next.signup_enabled = signup;
  for (const name of ['max_attachment_size', 'max_import_size'] as const) {
    const v = intParam(ctx, name);
    if (v !== undefined) next[name] = v;
  }
  const text = strParam(ctx, 'rate_limiting_response_text');
  const throttles = THROTTLES.map((t) => ({
    t,
    enabled: boolParam(ctx, `throttle_${t}_api_enabled`),
    limit: positive(ctx, `throttle_${t}_api_requests_per_period`, errors),
    period: positive(ctx, `throttle_${t}_api_period_in_seconds`, errors),
  }));
  if (Object.keys(errors).length > 0) throw E.validation(errors);
  applyWeights();
  Object.assign(s, next);
  const limiter = ctx.core.rateLimiter;
  if (text !== undefined) limiter.responseText = text;
  for (const { t, enabled, limit: l, period } of throttles) {
    const th = limiter.throttles[t];
    th.enabled = enabled ?? th.enabled;
    th.limit = l ?? th.limit;
    th.period = period ?? th.period;
  }
  if (throttles.some((x) => x.enabled !== undefined || x.limit !== undefined || x.period !== undefined)) limiter.reset();
}
