// Test deliveries of webhooks and what they leave behind (lib/api/hooks/trigger_test.rb, test.rb,
// events.rb, services/test_hooks/*, web_hook_service.rb, models/concerns/web_hooks/auto_disabling.rb,
// entities/web_hook_log.rb). `POST …/hooks/:hook_id/test/:trigger` answers `201 {"message":"201 Created"}`
// when the receiver answered 2xx, else 422 with the receiver's body or the connection error; a system
// hook's `POST /hooks/:hook_id` answers 201 with the sample data whatever came back. Every delivery is
// logged (`GET …/hooks/:hook_id/events`, newest first, at most 20 a page). A failure of a project or group
// hook counts towards its back-off: past 3 failures in a row it is `temporarily_disabled` until
// `disabled_until` (1 minute, doubling with each failure, at most a day), past 39 `disabled`; a success clears both.
// The sandbox calls a receiver only on the loopback interface (127.0.0.0/8, ::1, localhost); any other
// host is a failed delivery without a request (README, "Webhooks").
import { ask } from '../engine/ports.js';
import type { Ctx } from '../server/context.js';
import { ApiError, E } from '../server/errors.js';
import { intParam, listParam } from '../server/params.js';
import { pageOf } from '../server/paging.js';
import { sendJson, sendList } from '../server/respond.js';
import type { GroupRec, ProjectRec } from '../store/records.js';
import type { World } from '../store/world.js';
import { iso } from '../util/time.js';
import {
  alertStatus,
  type Delivery,
  EVENTS,
  findHook,
  type HookKind,
  type HookRec,
  hookStore,
  maintainsProject,
  ownsGroup,
  PERMANENT_THRESHOLD,
  TEMPORARY_THRESHOLD,
} from './hooks.js';
import type { Mounts } from './mounts.js';

const INITIAL_BACKOFF_MS = 60_000;
const MAX_BACKOFF_MS = 86_400_000;
/** `gitlab.webhook_timeout`'s default */
const TIMEOUT_MS = 10_000;
const LOG_DAYS = 2;

function afterDelivery(w: World, h: HookRec, ok: boolean): void {
  if (h.kind === 'system') return;
  if (ok) {
    h.recentFailures = 0;
    h.disabledUntil = null;
    return;
  }
  if (alertStatus(w, h) !== 'executable') return;
  // The back-off is reckoned from the failures before this one, as `next_backoff` runs before the count moves.
  const backoff = INITIAL_BACKOFF_MS * 2 ** (h.recentFailures - TEMPORARY_THRESHOLD);
  h.recentFailures = Math.min(h.recentFailures + 1, PERMANENT_THRESHOLD + 1);
  if (h.recentFailures > TEMPORARY_THRESHOLD) h.disabledUntil = w.now() + Math.min(Math.max(backoff, INITIAL_BACKOFF_MS), MAX_BACKOFF_MS);
}

/** A trigger's name in the log (`push_events` → `push_hooks`) and in `X-Gitlab-Event` (`Push Hook`). */
const LOG_NAMES: Readonly<Record<string, string>> = {
  issues_events: 'issue_hooks',
  confidential_issues_events: 'confidential_issue_hooks',
  merge_requests_events: 'merge_request_hooks',
  releases_events: 'release_hooks',
};
const logName = (trigger: string) => LOG_NAMES[trigger] ?? trigger.replace(/_events$/, '_hooks');
const eventHeader = (name: string) =>
  name
    .replace(/_hooks$/, '_hook')
    .split('_')
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join(' ');

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|\[::1\]|localhost)$/i;

interface Answer {
  status: string;
  ok: boolean;
  body: string;
  headers: Record<string, string>;
  /** the connection error, when no answer came */
  error?: string;
}

/** POSTs the payload as the service does; only a loopback receiver is really called. */
async function post(h: HookRec, event: string, payload: unknown): Promise<{ answer: Answer; headers: Record<string, string> }> {
  const url = new URL(h.url.replace(/\{(\w+)\}/g, (whole, name: string) => h.urlVariables[name] ?? whole));
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'User-Agent': 'GitLab/17.8.1',
    'X-Gitlab-Event': event,
    ...(h.token ? { 'X-Gitlab-Token': h.token } : {}),
    ...h.customHeaders,
  };
  const hidden = Object.fromEntries(
    [...Object.keys(h.customHeaders), ...(h.token ? ['X-Gitlab-Token'] : [])].map((k) => [k, '[REDACTED]']),
  );
  const logged = { ...headers, ...hidden };
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  if (!LOOPBACK.test(url.hostname)) {
    const error = `Failed to open TCP connection to ${url.hostname}:${port} (the sandbox delivers only to loopback addresses)`;
    return { answer: { status: 'internal error', ok: false, body: '', headers: {}, error }, headers: logged };
  }
  const auth = url.username
    ? `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`
    : null;
  url.username = '';
  url.password = '';
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { ...headers, ...(auth ? { Authorization: auth } : {}) },
      body: JSON.stringify(payload),
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const body = await res.text();
    const answerHeaders = Object.fromEntries([...res.headers].map(([k, v]) => [k.replace(/(^|-)[a-z]/g, (c) => c.toUpperCase()), v]));
    return { answer: { status: String(res.status), ok: res.status < 400, body, headers: answerHeaders }, headers: logged };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    const message = `Failed to open TCP connection to ${url.hostname}:${port} (${rubyReason(cause, url.hostname, port)})`;
    return { answer: { status: 'internal error', ok: false, body: '', headers: {}, error: message }, headers: logged };
  }
}

/** Net::HTTP's words for what went wrong (Errno and timeout messages), where Node names a code. */
function rubyReason(cause: string, host: string, port: string): string {
  if (cause === 'ECONNREFUSED') return `Connection refused - connect(2) for "${host.replace(/^\[|\]$/g, '')}" port ${port}`;
  if (cause === 'ENOTFOUND') return 'getaddrinfo: Name or service not known';
  if (cause === 'TimeoutError' || cause === 'UND_ERR_CONNECT_TIMEOUT') return 'execution expired';
  return cause;
}

async function deliver(w: World, h: HookRec, trigger: string, event: string, payload: unknown): Promise<Answer> {
  const started = Date.now();
  const { answer, headers } = await post(h, event, payload);
  const delivery: Delivery = {
    id: hookStore(w).nextDeliveryId++,
    url: h.url,
    trigger,
    requestHeaders: headers,
    requestData: payload,
    responseHeaders: answer.headers,
    responseBody: answer.body,
    duration: (Date.now() - started) / 1000,
    status: answer.status,
    at: w.now(),
  };
  h.deliveries.unshift(delivery);
  // A 3xx counts as delivered for the back-off, as the service's `response_category` has it.
  afterDelivery(w, h, answer.ok);
  return answer;
}

/** Why the service has no sample data for a trigger on this project, or null. */
function missingData(w: World, p: ProjectRec | null, trigger: string): string | null {
  if (trigger === 'wiki_page_events') return 'Ensure the wiki is enabled and has pages.';
  if (!p) return null;
  if (trigger === 'issues_events' || trigger === 'confidential_issues_events')
    return ask('issuesOf')(w, p.id).length === 0 ? 'Ensure the project has issues.' : null;
  if (trigger === 'merge_requests_events')
    return ask('mergeRequestsOf')(w, p.id).length === 0 ? 'Ensure the project has merge requests.' : null;
  return null;
}

function sample(ctx: Ctx, p: ProjectRec | null, trigger: string): Record<string, unknown> {
  const kind = trigger.replace(/_events$/, '').replace(/s$/, '');
  return {
    object_kind: kind,
    event_name: kind,
    user_username: ctx.user!.username,
    ...(p ? { project: { id: p.id, name: p.name, path_with_namespace: p.fullPath } } : {}),
  };
}

async function triggerTest(ctx: Ctx, kind: HookKind, ownerId: number, project: ProjectRec | null): Promise<void> {
  const triggers = ['push_events', 'tag_push_events', 'merge_requests_events', ...EVENTS[kind]];
  const trigger = ctx.p.trigger!;
  if (!triggers.includes(trigger)) throw E.notValid('trigger');
  const hook = findHook(ctx, kind, ownerId);
  const missing = missingData(ctx.world, project, trigger);
  if (missing) throw new ApiError(422, { message: missing });
  const name = logName(trigger);
  const answer = await deliver(ctx.world, hook, name, eventHeader(name), sample(ctx, project, trigger));
  const success = /^2\d\d$/.test(answer.status);
  if (!success) throw new ApiError(422, { message: answer.error ?? answer.body });
  sendJson(ctx, 201, { message: '201 Created' });
}

const SYSTEM_SAMPLE = {
  event_name: 'project_create',
  name: 'Ruby',
  path: 'ruby',
  project_id: 1,
  owner_name: 'Someone',
  owner_email: 'example@gitlabhq.com',
};

const STATUS_GROUPS: Readonly<Record<string, (status: number) => boolean>> = {
  successful: (s) => s >= 200 && s < 400,
  client_failure: (s) => s >= 400 && s < 500,
  server_failure: (s) => s >= 500 || Number.isNaN(s),
};

function events(ctx: Ctx, hook: HookRec): void {
  const perPage = intParam(ctx, 'per_page');
  if (perPage !== undefined && (perPage < 1 || perPage > 20)) throw E.notValid('per_page');
  const wanted = listParam(ctx, 'status');
  if (wanted?.some((s) => !(s in STATUS_GROUPS) && !/^[1-5]\d\d$/.test(s))) throw E.notValid('status');
  const since = ctx.world.now() - LOG_DAYS * 86_400_000;
  const matches = (d: Delivery) => !wanted || wanted.some((s) => (STATUS_GROUPS[s] ? STATUS_GROUPS[s](Number(d.status)) : d.status === s));
  const list = hook.deliveries.filter((d) => d.at >= since && matches(d));
  sendList(
    ctx,
    pageOf(ctx, list).map((d) => ({
      id: d.id,
      url: d.url,
      trigger: d.trigger,
      request_headers: d.requestHeaders,
      request_data: d.requestData,
      response_headers: d.responseHeaders,
      response_body: d.responseBody,
      execution_duration: d.duration,
      response_status: d.status,
      created_at: iso(d.at),
    })),
  );
}

export function mountHookDeliveries({ root, project, group }: Mounts): void {
  const projectGuard = (ctx: Ctx, p: ProjectRec) => {
    if (!maintainsProject(ctx, p)) throw E.forbidden();
  };
  const groupGuard = (ctx: Ctx, g: GroupRec) => {
    if (!ownsGroup(ctx, g)) throw E.forbidden();
  };
  project.post('/hooks/:hook_id/test/:trigger', { auth: 'user' }, async (ctx, p) => {
    projectGuard(ctx, p);
    await triggerTest(ctx, 'project', p.id, p);
  });
  group.post('/hooks/:hook_id/test/:trigger', { auth: 'user', premium: true }, async (ctx, g) => {
    groupGuard(ctx, g);
    const first = ctx.world.allIds.map((id) => ctx.world.projects.get(id)!).find((p) => p.nsKind === 'group' && p.nsOwner === g.id);
    await triggerTest(ctx, 'group', g.id, first ?? null);
  });
  root.post('/hooks/:hook_id', { auth: 'admin' }, async (ctx) => {
    const hook = findHook(ctx, 'system', 0);
    await deliver(ctx.world, hook, 'system_hooks', 'System Hook', SYSTEM_SAMPLE);
    sendJson(ctx, 201, SYSTEM_SAMPLE);
  });
  project.get('/hooks/:hook_id/events', { auth: 'user' }, (ctx, p) => {
    projectGuard(ctx, p);
    events(ctx, findHook(ctx, 'project', p.id));
  });
  group.get('/hooks/:hook_id/events', { auth: 'user', premium: true }, (ctx, g) => {
    groupGuard(ctx, g);
    events(ctx, findHook(ctx, 'group', g.id));
  });
}
