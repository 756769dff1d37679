// Label events of issues and merge requests (lib/api/resource_label_events.rb, entities/resource_label_event.rb):
// each label added or removed by creating or updating one is an event `{id, user, created_at,
// resource_type, resource_id, label, action}`, recorded as the write succeeds (an observer, as the
// audit log is); read by whoever reads the issuable, oldest first, paged; an unknown id is `find`'s
// `404 Not found` (README, "Label and state events").
import { ask, type Issuable } from '../engine/ports.js';
import type { Ctx } from '../server/context.js';
import type { WriteObserver } from '../server/router.js';
import { storeFor } from '../store/collection.js';
import type { ProjectRec } from '../store/records.js';
import { iso } from '../util/time.js';
import type { Mounts } from './mounts.js';
import { issuableEventRoutes, routeIssuable } from './issuable-event-routes.js';
import { userBasic } from '../entities/user.js';

interface LabelEventRec {
  id: number;
  userId: number;
  at: number;
  type: Issuable['type'];
  resourceId: number;
  label: { id: number; name: string; color: string; description: string | null };
  action: 'add' | 'remove';
}

const labelEvents = storeFor(() => ({ list: [] as LabelEventRec[], nextId: 1 }));

const WATCHED: Record<string, Issuable['type']> = {
  'POST /projects/:id/issues': 'Issue',
  'PUT /projects/:id/issues/:issue_iid': 'Issue',
  'POST /projects/:id/merge_requests': 'MergeRequest',
  'PUT /projects/:id/merge_requests/:merge_request_iid': 'MergeRequest',
};

function projectOf(ctx: Ctx): ProjectRec | null {
  const key = ctx.p.id ?? '';
  return ctx.world.findProject(key);
}

/** The issuable's labels before the write, or none for a creation or one the caller cannot read. */
function labelsBefore(ctx: Ctx, p: ProjectRec, type: Issuable['type']): readonly string[] {
  if (ctx.method === 'POST') return [];
  return routeIssuable(ctx, p, type)?.labels ?? [];
}

export const recordLabelEvents: WriteObserver = (ctx) => {
  const type = ctx.route ? WATCHED[`${ctx.method} ${ctx.route.pattern}`] : undefined;
  const p = type ? projectOf(ctx) : null;
  if (!type || !p) return undefined;
  const before = labelsBefore(ctx, p, type);
  return () => {
    const answer = ctx.answer ? (JSON.parse(ctx.answer) as { id?: number; labels?: string[] }) : {};
    if (answer.id === undefined || !Array.isArray(answer.labels) || !ctx.user) return;
    const after = answer.labels;
    const store = labelEvents(ctx.world);
    const changes = [
      ...after.filter((l) => !before.includes(l)).map((name) => ['add', name] as const),
      ...before.filter((l) => !after.includes(l)).map((name) => ['remove', name] as const),
    ];
    for (const [action, name] of changes) {
      const label = ask('labelNamed')(ctx, p, name);
      if (!label) continue;
      store.list.push({ id: store.nextId++, userId: ctx.user.id, at: ctx.world.now(), type, resourceId: answer.id, label, action });
    }
  };
};

function eventJson(ctx: Ctx, e: LabelEventRec): Record<string, unknown> {
  return {
    id: e.id,
    user: userBasic(ctx.world, ctx.world.users.get(e.userId)!),
    created_at: iso(e.at),
    resource_type: e.type,
    resource_id: e.resourceId,
    label: e.label,
    action: e.action,
  };
}

export function mountResourceLabelEvents({ project }: Mounts): void {
  issuableEventRoutes(project, 'resource_label_events', (w) => labelEvents(w).list, eventJson);
}
