// State events of issues and merge requests (lib/api/resource_state_events.rb,
// entities/resource_state_event.rb): each close, reopen or merge through the API is an event `{id, user,
// created_at, resource_type, resource_id, state, source_commit, source_merge_request}`, recorded as the
// write succeeds (an observer, as label events are); read by whoever reads the issuable, oldest first,
// paged; an unknown id is `find`'s `404 Not found` (README, "Label and state events").
import type { Issuable } from '../engine/ports.js';
import type { Ctx } from '../server/context.js';
import type { WriteObserver } from '../server/router.js';
import { storeFor } from '../store/collection.js';
import { iso } from '../util/time.js';
import type { Mounts } from './mounts.js';
import { issuableEventRoutes, routeIssuable } from './issuable-event-routes.js';
import { userBasic } from '../entities/user.js';

interface StateEventRec {
  id: number;
  userId: number;
  at: number;
  type: Issuable['type'];
  resourceId: number;
  state: 'closed' | 'reopened' | 'merged';
}

const stateEvents = storeFor(() => ({ list: [] as StateEventRec[], nextId: 1 }));

/** The writes that can change a state: edits (`state_event`), a merge, and a note's `/close` or `/reopen`. */
const WATCHED: Record<string, Issuable['type']> = {
  'PUT /projects/:id/issues/:issue_iid': 'Issue',
  'POST /projects/:id/issues/:issue_iid/notes': 'Issue',
  'PUT /projects/:id/merge_requests/:merge_request_iid': 'MergeRequest',
  'PUT /projects/:id/merge_requests/:merge_request_iid/merge': 'MergeRequest',
};

export const recordStateEvents: WriteObserver = (ctx) => {
  const type = ctx.route ? WATCHED[`${ctx.method} ${ctx.route.pattern}`] : undefined;
  const p = type ? ctx.world.findProject(ctx.p.id ?? '') : null;
  const before = type && p ? routeIssuable(ctx, p, type) : null;
  if (!type || !p || !before) return undefined;
  // Read now: the handler may change the record the issuable reads.
  const was = before.state;
  return () => {
    const after = routeIssuable(ctx, p, type);
    if (!after || after.state === was || !ctx.user) return;
    const state = after.state === 'merged' ? 'merged' : after.state === 'closed' ? 'closed' : 'reopened';
    const store = stateEvents(ctx.world);
    store.list.push({ id: store.nextId++, userId: ctx.user.id, at: ctx.world.now(), type, resourceId: after.id, state });
  };
};

function eventJson(ctx: Ctx, e: StateEventRec): Record<string, unknown> {
  return {
    id: e.id,
    user: userBasic(ctx.world, ctx.world.users.get(e.userId)!),
    created_at: iso(e.at),
    resource_type: e.type,
    resource_id: e.resourceId,
    state: e.state,
    source_commit: null,
    source_merge_request: null,
  };
}

export function mountResourceStateEvents({ project }: Mounts): void {
  issuableEventRoutes(project, 'resource_state_events', (w) => stateEvents(w).list, eventJson);
}
