// Groups: `GET /groups` (offset and keyset), `GET /groups/:id`, its subgroups, descendants and projects
// (its own and those shared with it).
import { canReadGroup, canReadProject } from '../access.js';
import type { Ctx } from '../server/context.js';
import { ApiError, E } from '../server/errors.js';
import { decodeCursor, encodeCursor, isKeyset, keysetNext, keysetNotAvailable, offsetPage, pageParams } from '../server/paging.js';
import { boolParam, enumParam, listParam, SORTS, strParam } from '../server/params.js';
import { sendJson, sendList, sendRawJson } from '../server/respond.js';
import type { GroupRec, ProjectRec, UserRec } from '../store/records.js';
import type { World } from '../store/world.js';
import { iso } from '../util/time.js';
import type { Mounts } from './mounts.js';
import { projectJsonText } from '../entities/project.js';
import { ask, offer } from '../engine/ports.js';

export function groupJson(w: World, g: GroupRec, viewer: UserRec | null): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: g.id,
    web_url: `${w.base()}/groups/${g.fullPath}`,
    name: g.name,
    path: g.path,
    description: g.description,
    visibility: g.visibility,
    share_with_group_lock: false,
    require_two_factor_authentication: false,
    two_factor_grace_period: 48,
    project_creation_level: 'developer',
    auto_devops_enabled: null,
    subgroup_creation_level: 'owner',
    emails_disabled: false,
    emails_enabled: true,
    mentions_disabled: null,
    lfs_enabled: true,
    default_branch: null,
    default_branch_protection: 2,
    avatar_url: null,
    request_access_enabled: false,
    full_name: g.fullName,
    full_path: g.fullPath,
    created_at: iso(g.createdAt),
    parent_id: g.parentId,
    organization_id: 1,
    shared_runners_setting: 'enabled',
    archived: false,
    marked_for_deletion_on: g.markedForDeletionOn ?? null,
  };
  if (viewer?.isAdmin) out.repository_storage = g.storage;
  return out;
}

/**
 * GroupDetail (`GET`, `PUT /groups/:id`, transfer): the group plus the groups it is shared with (the sandbox
 * has no group-to-group shares), and unless `with_projects=false` its own projects and those shared with it,
 * each as the project entity, as many as the caller may see (at most 100, newest first).
 */
export function groupDetailJson(ctx: Ctx, g: GroupRec): Record<string, unknown> {
  const w = ctx.world;
  const out: Record<string, unknown> = {
    ...groupJson(w, g, ctx.user),
    prevent_sharing_groups_outside_hierarchy: false,
    prevent_forking_outside_group: null,
    shared_with_groups: [],
  };
  if (boolParam(ctx, 'with_projects') === false) return out;
  const view = { viewer: ctx.user, basic: false, statistics: false };
  const visible = w.visibleIds(ctx.user);
  const render = (keep: (p: ProjectRec) => boolean) =>
    visible
      .filter((id) => keep(w.projects.get(id)!))
      .reverse()
      .slice(0, 100)
      .map((id) => JSON.parse(projectJsonText(w, w.projects.get(id)!, view)) as unknown);
  out.projects = render((p) => p.nsKind === 'group' && p.nsOwner === g.id);
  out.shared_projects = render((p) => ask('sharesOf')(w, p.id).some((s) => s.groupId === g.id));
  return out;
}

/** `skip_groups[]`: group ids left out of a list (Grape's Array[Integer]). */
function skippedGroups(ctx: Ctx): Set<number> {
  const list = listParam(ctx, 'skip_groups') ?? [];
  if (list.some((v) => !/^\s*\d+\s*$/.test(v))) throw E.invalid('skip_groups');
  return new Set(list.map(Number));
}

function visibleGroupsBy(ctx: Ctx, key: 'name' | 'path'): number[] {
  const w = ctx.world;
  const user = ctx.user;
  if (user?.isAdmin) return w.groupsSortedBy(key);
  return w.groupsSortedBy(key).filter((g) => canReadGroup(w, user, w.groups.get(g)!));
}

export function mountGroups({ root, group }: Mounts): void {
  offer('groupJson', groupJson);
  root.get('/groups', { auth: 'public' }, (ctx) => {
    const w = ctx.world;
    const skip = skippedGroups(ctx);
    if (isKeyset(ctx)) {
      const orderBy = strParam(ctx, 'order_by') ?? 'id';
      const sort = strParam(ctx, 'sort') ?? 'desc';
      if (orderBy !== 'name' || sort !== 'asc') throw keysetNotAvailable();
      const list = visibleGroupsBy(ctx, 'name').filter((id) => !skip.has(id));
      const { perPage } = pageParams(ctx);
      let start = 0;
      const cursorText = strParam(ctx, 'cursor');
      if (cursorText) {
        const c = decodeCursor(cursorText);
        if (!c || c.name === undefined || c.id === undefined) throw new ApiError(400, { error: 'cursor is invalid' });
        const cn = String(c.name);
        const cid = Number(c.id);
        let lo = 0;
        let hi = list.length;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          const g = w.groups.get(list[mid]!)!;
          const after = g.name > cn || (g.name === cn && g.id > cid);
          if (!after) lo = mid + 1;
          else hi = mid;
        }
        start = lo;
      }
      const page = list.slice(start, start + perPage).map((g) => w.groups.get(g)!);
      if (page.length > 0) {
        const last = page[page.length - 1]!;
        keysetNext(ctx, [['cursor', encodeCursor({ name: last.name, id: String(last.id), _kd: 'n' })]], ['page']);
      }
      sendList(
        ctx,
        page.map((g) => groupJson(w, g, ctx.user)),
      );
      return;
    }
    const orderBy = enumParam(ctx, 'order_by', ['name', 'path', 'id', 'similarity'] as const, 'name');
    const sort = enumParam(ctx, 'sort', SORTS, 'asc');
    // `similarity` without a search orders as `name`; with one, by name too (groups are few).
    let list = orderBy === 'id' ? w.visibleGroupIds(ctx.user) : visibleGroupsBy(ctx, orderBy === 'path' ? 'path' : 'name');
    if (skip.size > 0) list = list.filter((id) => !skip.has(id));
    const search = strParam(ctx, 'search')?.toLowerCase();
    if (search)
      list = list.filter(
        (g) => w.groups.get(g)!.fullPath.toLowerCase().includes(search) || w.groups.get(g)!.name.toLowerCase().includes(search),
      );
    const n = list.length;
    const page = offsetPage(
      ctx,
      n,
      (off, lim) => {
        const out = [];
        for (let k = off; k < off + lim; k++) out.push(w.groups.get(sort === 'asc' ? list[k]! : list[n - 1 - k]!)!);
        return out;
      },
      { maxOffsetType: 'Group' },
    );
    sendList(
      ctx,
      page.map((g) => groupJson(w, g, ctx.user)),
    );
  });

  group.get('', { auth: 'public' }, (ctx, g) => sendJson(ctx, 200, groupDetailJson(ctx, g)));
  group.get('/subgroups', { auth: 'public' }, (ctx, g) => sendGroups(ctx, childGroups(ctx.world, g.id)));
  group.get('/descendant_groups', { auth: 'public' }, (ctx, g) => sendGroups(ctx, descendantGroups(ctx.world, g.id)));
  group.get('/projects', { auth: 'public' }, groupProjects);
}

function childGroups(w: World, id: number): number[] {
  return w.groupChildren.get(id) ?? [];
}

export function descendantGroups(w: World, id: number): number[] {
  const out: number[] = [];
  for (const child of childGroups(w, id)) out.push(child, ...descendantGroups(w, child));
  return out.sort((a, b) => a - b);
}

/** Subgroups the caller may see, by name (the service's default order), with `search`. */
function sendGroups(ctx: Ctx, ids: number[]): void {
  const w = ctx.world;
  const search = strParam(ctx, 'search')?.toLowerCase();
  const skip = skippedGroups(ctx);
  const list = ids
    .map((id) => w.groups.get(id)!)
    .filter(
      (g) =>
        !skip.has(g.id) &&
        canReadGroup(w, ctx.user, g) &&
        (!search || g.name.toLowerCase().includes(search) || g.path.toLowerCase().includes(search)),
    )
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id));
  const page = offsetPage(ctx, list.length, (off, lim) => list.slice(off, off + lim));
  sendList(
    ctx,
    page.map((g) => groupJson(w, g, ctx.user)),
  );
}

/** `GET /groups/:id/projects`: newest first; `include_subgroups` (default false), `with_shared` (default true), `archived`. */
function groupProjects(ctx: Ctx, g: GroupRec): void {
  const w = ctx.world;
  const groups = new Set([g.id, ...(boolParam(ctx, 'include_subgroups') === true ? descendantGroups(w, g.id) : [])]);
  const withShared = boolParam(ctx, 'with_shared') !== false;
  const archived = boolParam(ctx, 'archived');
  const inGroup = (p: ProjectRec) =>
    (p.nsKind === 'group' && groups.has(p.nsOwner)) || (withShared && ask('sharesOf')(w, p.id).some((s) => s.groupId === g.id));
  const ids = w.visibleIds(ctx.user).filter((id) => {
    const p = w.projects.get(id)!;
    return inGroup(p) && (archived === undefined || p.archived === archived) && canReadProject(w, ctx.user, p);
  });
  ids.reverse();
  const view = { viewer: ctx.user, basic: boolParam(ctx, 'simple') === true, statistics: false };
  const page = offsetPage(ctx, ids.length, (off, lim) => ids.slice(off, off + lim));
  sendRawJson(ctx, 200, `[${page.map((id) => projectJsonText(w, w.projects.get(id)!, view)).join(',')}]`);
}
