// The runners of a sandbox (reference endpoints §12): ten fixed ones covering every status and
// owner kind, then `runners - 10` derived from the seed, all timed from the moment the store
// is first used, so each status holds for the whole run.
import { groupRole, projectRole } from '../access.js';
import type { Ctx } from '../server/context.js';
import type { RunnerRec, RunnerType } from '../store/admin-records.js';
import type { GroupRec, UserRec } from '../store/records.js';
import type { World } from '../store/world.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Contact within this window is `online`. */
export const ONLINE_WINDOW_MS = 2 * HOUR;
/** No contact (or none since creation) for this long is `stale`. */
export const STALE_AFTER_MS = 7 * DAY;
const MAINTAINER = 40;
const TAGS = ['docker', 'linux', 'windows', 'gpu', 'arm64'];

export interface RunnerStore {
  byId: Map<number, RunnerRec>;
  /** The time every seeded `contacted_at` is relative to. */
  now: number;
}

const stores = new WeakMap<World, RunnerStore>();

export function runnerStore(ctx: Ctx): RunnerStore {
  let store = stores.get(ctx.world);
  if (!store) {
    store = seedRunners(ctx.world, ctx.core.opts.runners, Date.now());
    stores.set(ctx.world, store);
  }
  return store;
}

interface Fixed {
  type: RunnerType;
  owner?: number[];
  /** ms before now of the last contact; null: never */
  contactedAgo: number | null;
  createdAgo: number;
  paused?: boolean;
  tags: string[];
}

const FIXED: Fixed[] = [
  { type: 'instance_type', contactedAgo: 5 * MINUTE, createdAgo: 300 * DAY, tags: ['docker', 'linux'] },
  { type: 'instance_type', contactedAgo: 5 * HOUR, createdAgo: 300 * DAY, tags: ['docker'] },
  { type: 'instance_type', contactedAgo: 120 * DAY, createdAgo: 400 * DAY, tags: ['windows'] },
  { type: 'instance_type', contactedAgo: null, createdAgo: DAY, tags: [] },
  { type: 'instance_type', contactedAgo: 10 * MINUTE, createdAgo: 200 * DAY, paused: true, tags: ['gpu'] },
  { type: 'group_type', owner: [1], contactedAgo: 20 * MINUTE, createdAgo: 100 * DAY, tags: ['docker'] },
  { type: 'group_type', owner: [3], contactedAgo: 30 * DAY, createdAgo: 100 * DAY, tags: ['linux'] },
  { type: 'project_type', owner: [2], contactedAgo: 15 * MINUTE, createdAgo: 50 * DAY, tags: ['docker', 'linux'] },
  { type: 'project_type', owner: [1, 2], contactedAgo: 200 * DAY, createdAgo: 365 * DAY, tags: [] },
  { type: 'project_type', owner: [3], contactedAgo: null, createdAgo: 30 * DAY, tags: ['arm64'] },
];

function seedRunners(w: World, count: number, now: number): RunnerStore {
  const byId = new Map<number, RunnerRec>();
  const projects = Math.max(1, w.seededProjects);
  const groups = Math.max(1, w.groups.size);
  for (let id = 1; id <= count; id++) {
    const spec = FIXED[id - 1] ?? derived(w, id, projects, groups);
    const owner = (spec.owner ?? []).map((o) => ((o - 1) % (spec.type === 'group_type' ? groups : projects)) + 1);
    byId.set(id, {
      id,
      description: `${spec.type.replace('_type', '')}-runner-${id}`,
      runnerType: spec.type,
      paused: spec.paused ?? false,
      contactedAt: spec.contactedAgo === null ? null : now - spec.contactedAgo,
      createdAt: now - spec.createdAgo,
      tagList: spec.tags,
      runUntagged: spec.tags.length === 0,
      locked: spec.type === 'project_type',
      accessLevel: 'not_protected',
      maximumTimeout: null,
      maintenanceNote: null,
      version: `17.${id % 12}.0`,
      projectIds: spec.type === 'project_type' ? [...new Set(owner)] : [],
      groupId: spec.type === 'group_type' ? (owner[0] ?? null) : null,
    });
  }
  return { byId, now };
}

/** Past the fixed ones: 40% stale after a contact, 10% stale never contacted, 30% online, 20% offline; 1 in 10 paused. */
function derived(w: World, id: number, projects: number, groups: number): Fixed {
  const h = w.h(90, id);
  const kind = h % 10;
  const type: RunnerType = kind < 5 ? 'project_type' : kind < 8 ? 'group_type' : 'instance_type';
  const owner = type === 'project_type' ? [((h >>> 4) % projects) + 1] : type === 'group_type' ? [((h >>> 8) % groups) + 1] : undefined;
  const bucket = (h >>> 12) % 20;
  const spread = (h >>> 16) % 400;
  const tags = TAGS.filter((_t, i) => ((h >>> (24 + i)) & 1) === 1);
  const paused = (h >>> 20) % 10 === 0;
  if (bucket < 8) return { type, owner, contactedAgo: (8 + spread) * DAY, createdAgo: (38 + spread) * DAY, paused, tags };
  if (bucket < 10) return { type, owner, contactedAgo: null, createdAgo: (10 + (spread % 300)) * DAY, paused, tags };
  if (bucket < 16) return { type, owner, contactedAgo: (spread % 100) * MINUTE, createdAgo: (30 + spread) * DAY, paused, tags };
  return { type, owner, contactedAgo: 3 * HOUR + (spread % 100) * HOUR, createdAgo: (30 + spread) * DAY, paused, tags };
}

/** The REST `status` (§12): stale, else never_contacted, else paused, else online or offline. */
export function runnerStatus(r: RunnerRec, now: number): string {
  if (isStale(r, now)) return 'stale';
  if (r.contactedAt === null) return 'never_contacted';
  if (r.paused) return 'paused';
  return isOnline(r, now) ? 'online' : 'offline';
}

export function isOnline(r: RunnerRec, now: number): boolean {
  return r.contactedAt !== null && now - r.contactedAt < ONLINE_WINDOW_MS;
}

export function isStale(r: RunnerRec, now: number): boolean {
  return now - (r.contactedAt ?? r.createdAt) > STALE_AFTER_MS;
}

/** Who may read and change a group or project runner: an administrator, or a maintainer of its group or one of its projects. */
export function managesRunner(w: World, user: UserRec, r: RunnerRec): boolean {
  if (user.isAdmin) return true;
  if (r.runnerType === 'group_type') {
    const g = r.groupId === null ? null : w.groups.get(r.groupId);
    return !!g && maintainsGroup(w, user, g);
  }
  if (r.runnerType === 'project_type') {
    return r.projectIds.some((id) => {
      const p = w.projects.get(id);
      return !!p && projectRole(w, user, p) >= MAINTAINER;
    });
  }
  return false;
}

/** A maintainer of the group (directly or through an ancestor), or an administrator. */
export function maintainsGroup(w: World, user: UserRec, g: GroupRec): boolean {
  return user.isAdmin || groupRole(w, user.id, g) >= MAINTAINER;
}
