// Audit events (reference endpoints §13): the instance's (administrators), a group's and a
// project's, licensed (premium tier) only, newest first, offset or keyset (`id desc`) paging.
import { groupRole, OWNER, projectRole } from '../access.js';
import type { Ctx } from '../server/context.js';
import { E } from '../server/errors.js';
import { decodeCursor, encodeCursor, isKeyset, keysetNext, pageOf, pageParams } from '../server/paging.js';
import { enumParam, intParam, intSeg, timeParam } from '../server/params.js';
import { sendJson, sendList } from '../server/respond.js';
import type { AuditEntityType, AuditEventRec } from '../store/admin-records.js';
import type { World } from '../store/world.js';
import { iso } from '../util/time.js';
import { auditLog } from './audit-log.js';
import type { Mounts } from './mounts.js';

const ENTITY_TYPES: readonly AuditEntityType[] = ['Project', 'User', 'Group', 'Gitlab::Audit::InstanceScope'];
const DEVELOPER = 30;
const MAINTAINER = 40;

function eventJson(w: World, e: AuditEventRec): Record<string, unknown> {
  return {
    id: e.id,
    author_id: e.authorId,
    entity_id: e.entityId,
    entity_type: e.entityType,
    event_name: e.eventName,
    details: {
      author_name: w.users.get(e.authorId)?.name ?? 'Deleted User',
      author_class: 'User',
      target_id: e.targetId,
      target_type: e.targetType,
      target_details: e.targetDetails,
      custom_message: e.eventName.replace(/_/g, ' '),
      ip_address: '127.0.0.1',
    },
    created_at: iso(e.createdAt),
  };
}

function requireLicensed(ctx: Ctx): void {
  if (ctx.core.opts.tier !== 'premium') throw E.forbidden();
}

/** Newest first, within `created_after`/`created_before`; offset pages, or keyset pages on `id desc`. */
function sendEvents(ctx: Ctx, keep: (e: AuditEventRec) => boolean): void {
  const after = timeParam(ctx, 'created_after');
  const before = timeParam(ctx, 'created_before');
  const inTime = (e: AuditEventRec) => (after === undefined || e.createdAt >= after) && (before === undefined || e.createdAt <= before);
  const events = auditLog(ctx.world)
    .events.filter((e) => keep(e) && inTime(e))
    .reverse();
  if (!isKeyset(ctx)) {
    sendList(
      ctx,
      pageOf(ctx, events).map((e) => eventJson(ctx.world, e)),
    );
    return;
  }
  const { perPage } = pageParams(ctx);
  const cursor = typeof ctx.params.cursor === 'string' ? decodeCursor(ctx.params.cursor) : null;
  const below = cursor?.id === undefined ? Number.POSITIVE_INFINITY : Number(cursor.id);
  const rest = events.filter((e) => e.id < below);
  const page = rest.slice(0, perPage);
  if (rest.length > perPage) keysetNext(ctx, [['cursor', encodeCursor({ id: String(page[page.length - 1]!.id) })]], ['page']);
  sendList(
    ctx,
    page.map((e) => eventJson(ctx.world, e)),
  );
}

function findEvent(ctx: Ctx, keep: (e: AuditEventRec) => boolean): void {
  const id = intSeg(ctx, 'event_id');
  const e = auditLog(ctx.world).events.find((x) => x.id === id && keep(x));
  if (!e) throw E.findNotFound();
  sendJson(ctx, 200, eventJson(ctx.world, e));
}

export function mountAuditEvents({ root, project, group }: Mounts): void {
  const instance = (ctx: Ctx): ((e: AuditEventRec) => boolean) => {
    requireLicensed(ctx);
    if (!ctx.user!.isAdmin) throw E.forbidden();
    const type = enumParam(ctx, 'entity_type', ENTITY_TYPES);
    const id = type === undefined ? undefined : intParam(ctx, 'entity_id');
    return (e) => (type === undefined || e.entityType === type) && (id === undefined || e.entityId === id);
  };
  root.get('/audit_events', { auth: 'user' }, (ctx) => sendEvents(ctx, instance(ctx)));
  root.get('/audit_events/:event_id', { auth: 'user' }, (ctx) => findEvent(ctx, instance(ctx)));

  // Members who may read a group's events but not administer it see only the events they authored.
  const ofGroup = (ctx: Ctx, id: number): ((e: AuditEventRec) => boolean) => {
    requireLicensed(ctx);
    const user = ctx.user!;
    const role = user.isAdmin ? OWNER : groupRole(ctx.world, user.id, ctx.world.groups.get(id)!);
    if (role < DEVELOPER) throw E.forbidden();
    return (e) => e.entityType === 'Group' && e.entityId === id && (role >= OWNER || e.authorId === user.id);
  };
  group.get('/audit_events', { auth: 'user' }, (ctx, g) => sendEvents(ctx, ofGroup(ctx, g.id)));
  group.get('/audit_events/:event_id', { auth: 'user' }, (ctx, g) => findEvent(ctx, ofGroup(ctx, g.id)));

  const ofProject = (ctx: Ctx, id: number): ((e: AuditEventRec) => boolean) => {
    requireLicensed(ctx);
    const user = ctx.user!;
    const role = user.isAdmin ? OWNER : projectRole(ctx.world, user, ctx.world.projects.get(id)!);
    if (role < DEVELOPER) throw E.forbidden();
    return (e) => e.entityType === 'Project' && e.entityId === id && (role >= MAINTAINER || e.authorId === user.id);
  };
  project.get('/audit_events', { auth: 'user' }, (ctx, p) => sendEvents(ctx, ofProject(ctx, p.id)));
  project.get('/audit_events/:event_id', { auth: 'user' }, (ctx, p) => findEvent(ctx, ofProject(ctx, p.id)));
}
