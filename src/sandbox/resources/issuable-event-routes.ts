// The routes every resource event kind shares (resource_label_events, resource_state_events): a list
// and one event by id, under an issue and under a merge request, each reading the issuable first so an
// unknown or hidden one answers its own 404.
import { ask, type Issuable } from '../engine/ports.js';
import type { Ctx } from '../server/context.js';
import { ApiError, E } from '../server/errors.js';
import { pageOf } from '../server/paging.js';
import { sendJson, sendList } from '../server/respond.js';
import type { World } from '../store/world.js';
import type { ProjectRec } from '../store/records.js';
import type { Mounts } from './mounts.js';

/** The issue or merge request the write's route names, or null when the caller cannot read it (its 404). */
export function routeIssuable(ctx: Ctx, p: ProjectRec, type: Issuable['type']): Issuable | null {
  try {
    return (type === 'Issue' ? ask('issueOf') : ask('mergeRequestOf'))(ctx, p);
  } catch (error) {
    if (error instanceof ApiError) return null;
    throw error;
  }
}

interface IssuableEvent {
  id: number;
  type: Issuable['type'];
  resourceId: number;
}

export function issuableEventRoutes<T extends IssuableEvent>(
  project: Mounts['project'],
  name: string,
  events: (w: World) => readonly T[],
  json: (ctx: Ctx, e: T) => Record<string, unknown>,
): void {
  const kinds = [
    { base: '/issues/:issue_iid', find: (ctx: Ctx, p: ProjectRec) => ask('issueOf')(ctx, p) },
    { base: '/merge_requests/:merge_request_iid', find: (ctx: Ctx, p: ProjectRec) => ask('mergeRequestOf')(ctx, p) },
  ];
  for (const { base, find } of kinds) {
    const of = (ctx: Ctx, p: ProjectRec) => {
      const i = find(ctx, p);
      return events(ctx.world).filter((e) => e.type === i.type && e.resourceId === i.id);
    };
    project.get(`${base}/${name}`, { auth: 'public' }, (ctx, p) => {
      sendList(
        ctx,
        pageOf(ctx, of(ctx, p)).map((e) => json(ctx, e)),
      );
    });
    project.get(`${base}/${name}/:event_id`, { auth: 'public' }, (ctx, p) => {
      const e = of(ctx, p).find((x) => String(x.id) === ctx.p.event_id);
      if (!e) throw E.findNotFound();
      sendJson(ctx, 200, json(ctx, e));
    });
  }
}
