// The filters of `GET /projects` and the `similarity` ordering. Filters scan
// the viewer's ordered ids once; unfiltered listings stay fully indexed.
import { ACCESS_LEVELS, OWNER, projectRole } from '../access.js';
import type { Ctx } from '../server/context.js';
import { E } from '../server/errors.js';
import { boolParam, enumParam, intParam, listParam, strParam, timeParam } from '../server/params.js';
import type { ProjectRec, UserRec } from '../store/records.js';
import type { World } from '../store/world.js';

/** Shorter searches match a whole name, path or description only, as the service's fuzzy search does. */
const MIN_SEARCH_CHARS = 3;

const VISIBILITIES = ['public', 'internal', 'private'] as const;

/** Seeded stars: a user has starred about one project in ten. */
function isStarred(w: World, user: UserRec, p: ProjectRec): boolean {
  return w.h(97, user.id, p.id) % 10 === 0;
}

function matchesSearch(w: World, p: ProjectRec, query: string, namespaces: boolean): boolean {
  const fields = [p.name, p.path, p.description ?? ''];
  if (namespaces) fields.push(p.fullPath, w.nsName(p));
  if (query.length < MIN_SEARCH_CHARS) return fields.includes(query);
  const q = query.toLowerCase();
  return fields.some((f) => f.toLowerCase().includes(q));
}

/** A predicate for the filters given, or null when none is. */
export function projectFilter(ctx: Ctx): ((p: ProjectRec) => boolean) | null {
  const w = ctx.world;
  const user = ctx.user;
  const tests: Array<(p: ProjectRec) => boolean> = [];
  const archived = boolParam(ctx, 'archived');
  if (archived !== undefined) tests.push((p) => p.archived === archived);
  const visibility = enumParam(ctx, 'visibility', VISIBILITIES);
  if (visibility) tests.push((p) => p.visibility === visibility);
  const minAccess = intParam(ctx, 'min_access_level');
  if (minAccess !== undefined && !(ACCESS_LEVELS as readonly number[]).includes(minAccess)) throw E.notValid('min_access_level');
  // Membership filters only apply to a signed-in caller, as the service ignores them otherwise.
  if (user) {
    if (boolParam(ctx, 'membership')) tests.push((p) => projectRole(w, user, p) > 0);
    if (boolParam(ctx, 'owned')) tests.push((p) => projectRole(w, user, p) === OWNER);
    if (boolParam(ctx, 'starred')) tests.push((p) => isStarred(w, user, p));
    if (minAccess !== undefined) tests.push((p) => projectRole(w, user, p) >= minAccess);
  }
  const after = timeParam(ctx, 'last_activity_after');
  if (after !== undefined) tests.push((p) => p.lastActivityAt >= after);
  const before = timeParam(ctx, 'last_activity_before');
  if (before !== undefined) tests.push((p) => p.lastActivityAt <= before);
  // `topic` is an array parameter: `topic[]=a&topic[]=b` or `topic=a,b`.
  const wanted = listParam(ctx, 'topic')
    ?.map((t) => t.trim().toLowerCase())
    .filter(Boolean);
  if (wanted && wanted.length > 0) {
    tests.push((p) => wanted.every((t) => p.topics.some((x) => x.toLowerCase() === t)));
  }
  const search = strParam(ctx, 'search');
  if (search) {
    const namespaces = boolParam(ctx, 'search_namespaces') === true;
    tests.push((p) => matchesSearch(w, p, search, namespaces));
  }
  if (boolParam(ctx, 'with_issues_enabled')) tests.push((p) => p.issuesEnabled);
  if (boolParam(ctx, 'with_merge_requests_enabled')) tests.push((p) => p.mergeRequestsEnabled);
  if (tests.length === 0) return null;
  return (p) => tests.every((t) => t(p));
}

function closeness(value: string, q: string, weight: number): number {
  const v = value.toLowerCase();
  if (v === q) return weight;
  if (v.startsWith(q)) return weight * 0.5;
  return v.includes(q) ? weight * 0.25 : 0;
}

/**
 * Ids ordered by how closely path, name and description match the search
 * (exact > prefix > substring; path weighs most), most similar first for
 * `desc`; ties by id, newest first.
 */
export function similarityOrder(w: World, ids: readonly number[], search: string, sort: 'asc' | 'desc'): number[] {
  const q = search.toLowerCase();
  const scored = ids.map((id) => {
    const p = w.projects.get(id)!;
    return { id, score: closeness(p.path, q, 1) + closeness(p.name, q, 0.7) + closeness(p.description ?? '', q, 0.2) };
  });
  scored.sort((a, b) => b.score - a.score || b.id - a.id);
  if (sort === 'asc') scored.reverse();
  return scored.map((s) => s.id);
}
