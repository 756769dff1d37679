// Webhooks of a project, a group and the instance (lib/api/project_hooks.rb, ee group_hooks.rb,
// system_hooks.rb, helpers/web_hooks_helpers.rb, services/web_hooks/create_service.rb, entities/hook.rb,
// project_hook.rb, ee group_hook.rb): one store of hooks per owner. Project hooks need a maintainer,
// group hooks an owner (premium), system hooks an administrator. The secret `token` is kept and never
// answered; a list leaves out `url_variables` and `custom_headers` (set and unset one by one, their values
// never answered); an unknown hook is `404 Not found`;
// a url that is no http(s) URL `422 Invalid url given`; an update with no parameter `400 No parameters
// provided`; a new url without a new token drops the token. Test deliveries and the failure state that
// `alert_status` and `disabled_until` show live in hook-deliveries.ts (README, "Webhooks").
import { can, groupRole, OWNER } from '../access.js';
import type { Fields } from '../engine/fields.js';
import { mountPlain, type Records } from '../engine/plain.js';
import type { Ctx } from '../server/context.js';
import { ApiError, E } from '../server/errors.js';
import { intSeg, strParam } from '../server/params.js';
import { sendJson } from '../server/respond.js';
import type { Scope } from '../server/router.js';
import { storeFor } from '../store/collection.js';
import type { GroupRec, ProjectRec } from '../store/records.js';
import type { World } from '../store/world.js';
import { iso } from '../util/time.js';
import type { Mounts } from './mounts.js';

export type HookKind = 'project' | 'group' | 'system';

/** One delivery, as the service logs it (`WebHookLog`). */
export interface Delivery {
  id: number;
  url: string;
  trigger: string;
  requestHeaders: Record<string, string>;
  requestData: unknown;
  responseHeaders: Record<string, string>;
  responseBody: string;
  /** seconds */
  duration: number;
  /** the HTTP status as text, or `internal error` when no answer came */
  status: string;
  at: number;
}

export interface HookRec {
  id: number;
  kind: HookKind;
  /** the project's or the group's id; 0 for a system hook */
  ownerId: number;
  url: string;
  token: string | null;
  name: string | null;
  description: string | null;
  events: Record<string, boolean>;
  enableSsl: boolean;
  branchFilter: string | null;
  strategy: string;
  template: string | null;
  createdAt: number;
  recentFailures: number;
  disabledUntil: number | null;
  deliveries: Delivery[];
  /** `{name}` in the url is replaced by its value when delivering; only the names are answered */
  urlVariables: Record<string, string>;
  /** sent with every delivery; only the names are answered */
  customHeaders: Record<string, string>;
}

/** The event switches every hook shows (`Entities::Hook`). */
const COMMON_EVENTS = ['push_events', 'tag_push_events', 'merge_requests_events', 'repository_update_events'];
/** What a project hook adds (`Entities::ProjectHook`), in its order. */
const PROJECT_EVENTS = [
  'issues_events',
  'confidential_issues_events',
  'note_events',
  'confidential_note_events',
  'pipeline_events',
  'wiki_page_events',
  'deployment_events',
  'feature_flag_events',
  'job_events',
  'releases_events',
  'milestone_events',
  'emoji_events',
  'resource_access_token_events',
];
const GROUP_EVENTS = [...PROJECT_EVENTS, 'subgroup_events', 'member_events', 'project_events'];
export const EVENTS: Record<HookKind, string[]> = {
  project: PROJECT_EVENTS,
  group: GROUP_EVENTS,
  system: [],
};
/** The switches a create or update takes, per kind (`repository_update_events` only for system hooks). */
const SETTABLE: Record<HookKind, string[]> = {
  project: ['push_events', 'tag_push_events', 'merge_requests_events', ...PROJECT_EVENTS],
  group: ['push_events', 'tag_push_events', 'merge_requests_events', ...GROUP_EVENTS],
  system: COMMON_EVENTS,
};
export const TEMPORARY_THRESHOLD = 3;
export const PERMANENT_THRESHOLD = 39;

/** What `alert_status` says: only project and group hooks are ever disabled. */
export function alertStatus(w: World, h: HookRec): 'executable' | 'temporarily_disabled' | 'disabled' {
  if (h.kind === 'system') return 'executable';
  if (h.recentFailures > PERMANENT_THRESHOLD) return 'disabled';
  if (h.recentFailures > TEMPORARY_THRESHOLD && h.disabledUntil !== null && h.disabledUntil >= w.now()) return 'temporarily_disabled';
  return 'executable';
}

const STRATEGIES = ['wildcard', 'regex', 'all_branches'] as const;

function fieldsOf(kind: HookKind, urlRequired: boolean): Fields {
  const fields: Record<string, Fields[string]> = {
    url: { type: 'string', required: urlRequired },
    name: { type: 'string' },
    description: { type: 'string' },
    token: { type: 'string' },
    enable_ssl_verification: { type: 'boolean' },
    push_events_branch_filter: { type: 'string' },
    branch_filter_strategy: { type: 'string', values: STRATEGIES },
  };
  if (kind !== 'system') fields.custom_webhook_template = { type: 'string' };
  for (const event of SETTABLE[kind]) fields[event] = { type: 'boolean' };
  return fields;
}

export const hookStore = storeFor(() => ({ byOwner: new Map<string, HookRec[]>(), nextId: 1, nextDeliveryId: 1 }));

export const ownerKey = (kind: HookKind, ownerId: number) => `${kind}:${ownerId}`;

function hooksOf(w: World, kind: HookKind, ownerId: number): HookRec[] {
  const s = hookStore(w);
  const key = ownerKey(kind, ownerId);
  let list = s.byOwner.get(key);
  if (!list) {
    list = [];
    s.byOwner.set(key, list);
  }
  return list;
}

const invalid = (message: string) => new ApiError(422, { message });

/** The model's validations, as the API words them (`Invalid url given`, `Invalid branch filter given`). */
function validate(h: HookRec): void {
  let url: URL | null;
  try {
    url = new URL(h.url);
  } catch {
    url = null;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw invalid('Invalid url given');
  if (h.strategy === 'regex' && h.branchFilter) {
    try {
      new RegExp(h.branchFilter);
    } catch {
      throw invalid('Invalid branch filter given');
    }
  }
}

function applyInput(h: HookRec, input: Record<string, string | number | boolean>): HookRec {
  const text = (key: string, was: string | null) => (typeof input[key] === 'string' ? (input[key] as string) : was);
  const events = { ...h.events };
  for (const key of Object.keys(events)) if (typeof input[key] === 'boolean') events[key] = input[key] as boolean;
  const url = text('url', h.url) as string;
  return {
    ...h,
    url,
    // The service drops the secret token when the url changes and no new token comes with it.
    token: typeof input.token === 'string' ? input.token : url !== h.url ? null : h.token,
    name: text('name', h.name),
    description: text('description', h.description),
    events,
    enableSsl: typeof input.enable_ssl_verification === 'boolean' ? input.enable_ssl_verification : h.enableSsl,
    branchFilter: text('push_events_branch_filter', h.branchFilter),
    strategy: text('branch_filter_strategy', h.strategy) as string,
    template: text('custom_webhook_template', h.template),
  };
}

export function hookJson(w: World, h: HookRec, list: boolean): Record<string, unknown> {
  const own = (keys: string[]) => Object.fromEntries(keys.map((k) => [k, h.events[k] ?? false]));
  return {
    id: h.id,
    url: h.url,
    name: h.name,
    description: h.description,
    created_at: iso(h.createdAt),
    ...own(COMMON_EVENTS),
    enable_ssl_verification: h.enableSsl,
    ...(h.kind === 'system' ? { organization_id: 1 } : {}),
    alert_status: alertStatus(w, h),
    disabled_until: h.disabledUntil === null ? null : iso(h.disabledUntil),
    ...(list ? {} : { url_variables: Object.keys(h.urlVariables).map((key) => ({ key })) }),
    push_events_branch_filter: h.branchFilter,
    branch_filter_strategy: h.strategy,
    custom_webhook_template: h.template,
    ...(list ? {} : { custom_headers: Object.keys(h.customHeaders).map((key) => ({ key })) }),
    ...(h.kind === 'project' ? { project_id: h.ownerId } : h.kind === 'group' ? { group_id: h.ownerId } : {}),
    ...own(EVENTS[h.kind]),
  };
}

/** The hook `:hook_id` names under an owner: a non-integer is Grape's 400, an unknown one `404 Not found`. */
export function findHook(ctx: Ctx, kind: HookKind, ownerId: number): HookRec {
  const id = intSeg(ctx, 'hook_id');
  const hook = hooksOf(ctx.world, kind, ownerId).find((h) => h.id === id);
  if (!hook) throw E.findNotFound();
  return hook;
}

function records(kind: HookKind): Records<number, HookRec> {
  return {
    list: (ctx, owner) => hooksOf(ctx.world, kind, owner),
    find: (ctx, owner, key) => {
      if (!/^\d+$/.test(key)) throw E.invalid('hook_id');
      return hooksOf(ctx.world, kind, owner).find((h) => h.id === Number(key));
    },
    add(ctx, owner, input) {
      const w = ctx.world;
      const events = Object.fromEntries([...COMMON_EVENTS, ...EVENTS[kind]].map((k) => [k, k === 'push_events']));
      const blank: HookRec = {
        id: 0,
        kind,
        ownerId: owner,
        url: '',
        token: null,
        name: null,
        description: null,
        events,
        enableSsl: true,
        branchFilter: null,
        strategy: 'wildcard',
        template: null,
        createdAt: w.now(),
        recentFailures: 0,
        disabledUntil: null,
        deliveries: [],
        urlVariables: {},
        customHeaders: {},
      };
      const hook = applyInput(blank, input);
      validate(hook);
      hook.id = hookStore(w).nextId++;
      hooksOf(w, kind, owner).push(hook);
      return hook;
    },
    change(_ctx, _owner, h, input) {
      if (Object.keys(input).length === 0) throw E.badRequest('No parameters provided');
      const next = applyInput(h, input);
      validate(next);
      Object.assign(h, next);
      return h;
    },
    drop(ctx, owner, h) {
      const list = hooksOf(ctx.world, kind, owner);
      list.splice(list.indexOf(h), 1);
    },
  };
}

/**
 * `PUT|DELETE …/hooks/:hook_id/url_variables/:key` and `…/custom_headers/:key` (lib/api/hooks/url_variables.rb,
 * custom_headers.rb): set (`value` required) or unset one, 204 either way; a key the model refuses → `422
 * {"error":"Illegal key or value"}`.
 */
function mountHookSettings<P>(
  scope: Scope<P>,
  kind: HookKind,
  ownerId: (parent: P) => number,
  may: (ctx: Ctx, parent: P) => boolean,
): void {
  const auth = kind === 'system' ? ('admin' as const) : ('user' as const);
  const settings = [
    ['url_variables', 'urlVariables', /^\w{1,255}$/],
    ['custom_headers', 'customHeaders', /^[A-Za-z0-9_-]{1,255}$/],
  ] as const;
  for (const [path, field, keyFormat] of settings) {
    const hookOf = (ctx: Ctx, parent: P) => {
      if (!may(ctx, parent)) throw E.forbidden();
      return findHook(ctx, kind, ownerId(parent));
    };
    scope.put(`/hooks/:hook_id/${path}/:key`, { auth, premium: kind === 'group' }, (ctx, parent) => {
      const hook = hookOf(ctx, parent);
      const value = strParam(ctx, 'value');
      if (value === undefined) throw E.missing('value');
      if (!keyFormat.test(ctx.p.key!) || value === '') throw new ApiError(422, { error: 'Illegal key or value' });
      hook[field] = { ...hook[field], [ctx.p.key!]: value };
      sendJson(ctx, 204, null);
    });
    scope.delete(`/hooks/:hook_id/${path}/:key`, { auth, premium: kind === 'group' }, (ctx, parent) => {
      const hook = hookOf(ctx, parent);
      hook[field] = Object.fromEntries(Object.entries(hook[field]).filter(([k]) => k !== ctx.p.key));
      sendJson(ctx, 204, null);
    });
  }
}

function mountHooks<P>(scope: Scope<P>, kind: HookKind, ownerId: (parent: P) => number, may: (ctx: Ctx, parent: P) => boolean): void {
  mountHookSettings(scope, kind, ownerId, may);
  const all = { list: may, read: may, create: may, update: may, delete: may };
  mountPlain<P, number, HookRec>({
    scope,
    path: '/hooks',
    key: 'hook_id',
    auth: kind === 'system' ? { read: 'admin', write: 'admin' } : { read: 'user', write: 'user' },
    premium: kind === 'group',
    may: all,
    owner: (_ctx, parent) => ownerId(parent),
    fields: { create: fieldsOf(kind, true), update: fieldsOf(kind, false) },
    records: records(kind),
    notFound: () => E.findNotFound(),
    json: (ctx, _owner, h, action) => hookJson(ctx.world, h, action === 'list'),
    deleted: 204,
  });
}

export const ownsGroup = (ctx: Ctx, g: GroupRec) => ctx.user!.isAdmin || groupRole(ctx.world, ctx.user!.id, g) >= OWNER;
export const maintainsProject = (ctx: Ctx, p: ProjectRec) => can(ctx.world, ctx.user, p, 'admin_web_hook');

export function mountHookResources({ root, project, group }: Mounts): void {
  mountHooks(project, 'project', (p) => p.id, maintainsProject);
  mountHooks(group, 'group', (g) => g.id, ownsGroup);
  mountHooks(
    root,
    'system',
    () => 0,
    () => true,
  );
}
