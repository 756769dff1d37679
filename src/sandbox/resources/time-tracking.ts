// Time tracking on issues and merge requests (lib/api/helpers/time_tracking_endpoints via
// issues.rb/merge_requests.rb, Gitlab::TimeTrackingFormatter, entities/issuable_time_stats.rb):
// `time_estimate` and `add_spent_time` take a `duration` (`1mo 2w 3d 4h 5m 6s`, a day being 8 hours,
// a week 5 days and a month 4 weeks); `time_estimate`, `reset_time_estimate` and `reset_spent_time`
// answer 200, `add_spent_time` 201, each the time stats. Changing them takes the role that updates the
// issuable; reading them, the one that reads it. A duration that does not parse (or a negative
// estimate) is the model's validation error (README, "Time tracking").
import { can } from '../access.js';
import { ask, offer, type Issuable, type TrackedTime } from '../engine/ports.js';
import type { Ctx } from '../server/context.js';
import { E } from '../server/errors.js';
import { strParam } from '../server/params.js';
import { sendJson } from '../server/respond.js';
import type { Scope } from '../server/router.js';
import { storeFor } from '../store/collection.js';
import type { ProjectRec } from '../store/records.js';
import type { World } from '../store/world.js';
import { parseDuration, timeStatsJson } from '../util/duration.js';
import type { Mounts } from './mounts.js';

const tracked = storeFor(() => new Map<string, TrackedTime>());

function timeOf(w: World, type: Issuable['type'], id: number): TrackedTime {
  const key = `${type}:${id}`;
  let t = tracked(w).get(key);
  if (!t) {
    t = { estimate: 0, spent: 0 };
    tracked(w).set(key, t);
  }
  return t;
}

function duration(ctx: Ctx, field: 'time_estimate' | 'time_spent'): number {
  const text = strParam(ctx, 'duration');
  if (text === undefined) throw E.missing('duration');
  const seconds = parseDuration(text);
  if (seconds === undefined || (field === 'time_estimate' && seconds < 0))
    throw E.validation({ [field]: ['must have a valid format and be greater than or equal to zero'] });
  return seconds;
}

function mountOn(
  scope: Scope<ProjectRec>,
  base: string,
  find: (ctx: Ctx, p: ProjectRec) => Issuable,
  read: 'read_issue' | 'read_merge_request',
  write: 'update_issue' | 'update_merge_request',
): void {
  const target = (ctx: Ctx, p: ProjectRec, ability: typeof read | typeof write) => {
    if (!can(ctx.world, ctx.user, p, read)) throw E.notFound('Project');
    const issuable = find(ctx, p);
    if (ability === write && !can(ctx.world, ctx.user, p, write)) throw E.forbidden();
    return timeOf(ctx.world, issuable.type, issuable.id);
  };
  scope.get(`${base}/time_stats`, { auth: 'public' }, (ctx, p) => sendJson(ctx, 200, timeStatsJson(target(ctx, p, read))));
  scope.post(`${base}/time_estimate`, { auth: 'user' }, (ctx, p) => {
    const t = target(ctx, p, write);
    t.estimate = duration(ctx, 'time_estimate');
    sendJson(ctx, 200, timeStatsJson(t));
  });
  scope.post(`${base}/reset_time_estimate`, { auth: 'user' }, (ctx, p) => {
    const t = target(ctx, p, write);
    t.estimate = 0;
    sendJson(ctx, 200, timeStatsJson(t));
  });
  scope.post(`${base}/add_spent_time`, { auth: 'user' }, (ctx, p) => {
    const t = target(ctx, p, write);
    const seconds = duration(ctx, 'time_spent');
    if (t.spent + seconds < 0) throw E.validation({ time_spent: ['must have a valid format and be greater than or equal to zero'] });
    t.spent += seconds;
    sendJson(ctx, 201, timeStatsJson(t));
  });
  scope.post(`${base}/reset_spent_time`, { auth: 'user' }, (ctx, p) => {
    const t = target(ctx, p, write);
    t.spent = 0;
    sendJson(ctx, 200, timeStatsJson(t));
  });
}

export function mountTimeTracking({ project }: Mounts): void {
  offer('trackedTime', (w, type, id) => tracked(w).get(`${type}:${id}`) ?? { estimate: 0, spent: 0 });
  mountOn(project, '/issues/:issue_iid', (ctx, p) => ask('issueOf')(ctx, p), 'read_issue', 'update_issue');
  mountOn(
    project,
    '/merge_requests/:merge_request_iid',
    (ctx, p) => ask('mergeRequestOf')(ctx, p),
    'read_merge_request',
    'update_merge_request',
  );
}
