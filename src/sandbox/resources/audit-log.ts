// The audit log: an event for each successful write of the sandbox's own routes to a project,
// a group, a user, their members and tokens (reference endpoints §13 for the shape). A write is
// seen before its handler runs, so a deleted or renamed record is still described as it was.
import type { Ctx } from '../server/context.js';
import { storeFor } from '../store/collection.js';
import type { AuditEntityType, AuditEventRec } from '../store/admin-records.js';
import type { World } from '../store/world.js';

export const auditLog = storeFor(() => ({ events: [] as AuditEventRec[], nextId: 1 }));

interface Entity {
  type: AuditEntityType;
  id: number;
  path: string;
}

const USER_ACTIONS: Record<string, string> = {
  block: 'user_blocked',
  unblock: 'user_unblocked',
  deactivate: 'user_deactivated',
  activate: 'user_activated',
  ban: 'user_banned',
  unban: 'user_unbanned',
  approve: 'user_approved',
  reject: 'user_rejected',
};

const PROJECT_ACTIONS: Record<string, string> = {
  archive: 'project_archived',
  unarchive: 'project_unarchived',
  restore: 'project_restored',
  fork: 'project_forked',
};

/** The event a write makes, from its method and the route's part under the entity (`/members/:`), or none. */
export function eventName(kind: string, method: string, rest: string): string | undefined {
  const verb = method === 'POST' ? 'created' : method === 'DELETE' ? 'destroyed' : 'updated';
  const [, first = '', second, third] = rest.split('/');
  if (rest === '') return `${kind}_${verb}`;
  if (kind === 'user' && USER_ACTIONS[first] && second === undefined) return USER_ACTIONS[first];
  if (kind === 'project' && PROJECT_ACTIONS[first] && second === undefined) return PROJECT_ACTIONS[first];
  if (first === 'transfer') return `${kind}_transferred`;
  if (first === 'share') return method === 'POST' ? `${kind}_group_link_created` : `${kind}_group_link_destroyed`;
  if (first === 'members') return `member_${verb}`;
  const token: Record<string, string> = {
    access_tokens: `${kind}_access_token`,
    deploy_tokens: 'deploy_token',
    personal_access_tokens: 'personal_access_token',
    impersonation_tokens: 'impersonation_token',
  };
  if (token[first]) return `${token[first]}_${third === 'rotate' ? 'rotated' : method === 'DELETE' ? 'revoked' : 'created'}`;
  return undefined;
}

/** The entity a route names, as it is before the write; a creation takes the id the store gives next. */
function entityOf(ctx: Ctx, w: World): { entity: Entity; kind: string; rest: string } | undefined {
  const parts = ctx.route!.pattern.split('/');
  const top = parts[1] ?? '';
  const named = parts[2]?.startsWith(':') ?? false;
  const rest = named ? `/${parts.slice(3).join('/')}`.replace(/\/$/, '') : parts.length > 2 ? '/' + parts.slice(2).join('/') : '';
  const raw = ctx.rawPath.split('/')[4] ?? '';
  const id = named ? decodeURIComponent(raw) : '';
  if (!named && rest !== '' && top !== 'user' && top !== 'personal_access_tokens') return undefined;
  if (top === 'projects') {
    const p = !named ? null : /^\d+$/.test(id) ? w.projects.get(Number(id)) : (w.findProjectByPath(id)?.project ?? null);
    if (named && !p) return undefined;
    const entity: Entity =
      !p || rest === '/fork' ? { type: 'Project', id: w.projects.nextId(), path: '' } : { type: 'Project', id: p.id, path: p.fullPath };
    return { entity, kind: 'project', rest };
  }
  if (top === 'groups') {
    const g = named ? w.findGroup(id) : null;
    if (named && !g) return undefined;
    return {
      entity: g ? { type: 'Group', id: g.id, path: g.fullPath } : { type: 'Group', id: w.groups.nextId(), path: '' },
      kind: 'group',
      rest,
    };
  }
  if (top === 'users') {
    const u = named ? w.findUser(id) : null;
    if (named && !u) return undefined;
    return {
      entity: u ? { type: 'User', id: u.id, path: u.username } : { type: 'User', id: w.users.nextId(), path: '' },
      kind: 'user',
      rest,
    };
  }
  if ((top === 'user' || top === 'personal_access_tokens') && ctx.user) {
    const own = top === 'user' ? rest : `/${parts.slice(1).join('/')}`;
    return { entity: { type: 'User', id: ctx.user.id, path: ctx.user.username }, kind: 'user', rest: own };
  }
  return undefined;
}

/** Seen before a write: returns what records its event once the write succeeded. */
export function auditWrite(ctx: Ctx): (() => void) | undefined {
  const w = ctx.world;
  const author = ctx.user;
  if (!author || !ctx.route) return undefined;
  const found = entityOf(ctx, w);
  if (!found) return undefined;
  const { entity, kind } = found;
  const rest = found.rest.replace(/:[a-z_]+/g, ':');
  const name = eventName(kind, ctx.method, rest);
  if (!name) return undefined;
  // A member is named in the path, or (when added) by the `user_id` parameter.
  const member = rest.startsWith('/members/') ? ctx.rawPath.split('/').pop() : rest === '/members' ? String(ctx.params.user_id ?? '') : '';
  const memberId = member && /^\d+$/.test(member) ? Number(member) : undefined;
  return () => {
    const log = auditLog(w);
    const created = entity.path === '' ? describeCreated(w, entity) : entity.path;
    log.events.push({
      id: log.nextId++,
      authorId: author.id,
      entityId: entity.id,
      entityType: entity.type,
      eventName: name,
      targetId: memberId ?? entity.id,
      targetType: memberId !== undefined ? 'User' : entity.type,
      targetDetails: created,
      createdAt: Date.now(),
    });
  };
}

function describeCreated(w: World, e: Entity): string {
  if (e.type === 'Project') return w.projects.get(e.id)?.fullPath ?? String(e.id);
  if (e.type === 'Group') return w.groups.get(e.id)?.fullPath ?? String(e.id);
  return w.users.get(e.id)?.username ?? String(e.id);
}
