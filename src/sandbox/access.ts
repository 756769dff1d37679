// Who may do what, in one place: access levels by role (reference
// endpoints §0) and the abilities each role grants on a project.
import type { GroupRec, ProjectRec, SnippetRec, UserRec } from './store/records.js';
import type { World } from './store/world.js';

const GUEST = 10;
const REPORTER = 20;
const DEVELOPER = 30;
const MAINTAINER = 40;
export const OWNER = 50;
export const ACCESS_LEVELS = [GUEST, REPORTER, DEVELOPER, MAINTAINER, OWNER] as const;

/** Least role for each ability on a project; admins may do everything. */
const PROJECT_ABILITY = {
  read_project: GUEST,
  read_issue: GUEST,
  create_issue: GUEST,
  update_issue: REPORTER,
  delete_issue: OWNER,
  read_code: GUEST,
  push_code: DEVELOPER,
  read_merge_request: GUEST,
  create_merge_request: DEVELOPER,
  update_merge_request: DEVELOPER,
  approve_merge_request: DEVELOPER,
  /** merging into a protected branch (`main`); other targets need push_code */
  merge_protected_branch: MAINTAINER,
  delete_merge_request: OWNER,
  read_pipeline: REPORTER,
  create_pipeline: DEVELOPER,
  update_pipeline: DEVELOPER,
  destroy_pipeline: OWNER,
  read_build: REPORTER,
  read_release: GUEST,
  create_release: DEVELOPER,
  admin_project: MAINTAINER,
  archive_project: OWNER,
  change_namespace: OWNER,
  remove_project: OWNER,
} as const;
export type ProjectAbility = keyof typeof PROJECT_ABILITY;

/** What anyone who can see a public (or, signed in, internal) project may do without being a member. */
const NON_MEMBER: ReadonlySet<ProjectAbility> = new Set([
  'read_project',
  'read_issue',
  'read_code',
  'read_merge_request',
  'read_pipeline',
  'read_build',
  'read_release',
]);

const MEMBER_ROLES = [GUEST, REPORTER, DEVELOPER, MAINTAINER, OWNER];

/** A user's role in a group tree (0: not a member). Seeded: a quarter of users belong to each root group. */
export function groupRole(userId: number, g: GroupRec): number {
  if ((g.rootId + userId) % 4 !== 3) return 0;
  return MEMBER_ROLES[(g.rootId * 31 + userId) % MEMBER_ROLES.length]!;
}

/** A user's role in a project (0: not a member): owner of a personal project, maintainer as its creator, else the group role. */
export function projectRole(w: World, user: UserRec | null, p: ProjectRec): number {
  if (!user) return 0;
  if (p.nsKind === 'user') return p.nsOwner === user.id ? OWNER : 0;
  const fromGroup = groupRole(user.id, w.groups.get(p.nsOwner)!);
  return p.creatorId === user.id ? Math.max(MAINTAINER, fromGroup) : fromGroup;
}

export function canReadProject(w: World, user: UserRec | null, p: ProjectRec): boolean {
  if (p.visibility === 'public') return true;
  if (!user) return false;
  if (user.isAdmin || p.visibility === 'internal') return true;
  return projectRole(w, user, p) > 0;
}

/** What an archived project refuses to everyone: it is read-only until unarchived. */
const WRITES: ReadonlySet<ProjectAbility> = new Set([
  'create_issue',
  'update_issue',
  'delete_issue',
  'push_code',
  'create_pipeline',
  'create_release',
]);

export function can(w: World, user: UserRec | null, p: ProjectRec, ability: ProjectAbility): boolean {
  if (p.archived && WRITES.has(ability)) return false;
  if (user?.isAdmin) return true;
  const role = projectRole(w, user, p);
  if (role > 0) return role >= PROJECT_ABILITY[ability];
  return NON_MEMBER.has(ability) && canReadProject(w, user, p);
}

export function canReadGroup(user: UserRec | null, g: GroupRec): boolean {
  if (g.visibility === 'public') return true;
  if (!user) return false;
  if (user.isAdmin || g.visibility === 'internal') return true;
  return groupRole(user.id, g) > 0;
}

export function canReadSnippet(user: UserRec | null, s: SnippetRec): boolean {
  if (s.visibility === 'public') return true;
  if (!user) return false;
  if (user.isAdmin || s.visibility === 'internal') return true;
  return s.authorId === user.id;
}

/** The `permissions` block of an authenticated project read. */
export function permissionsJson(w: World, user: UserRec, p: ProjectRec): Record<string, unknown> {
  const direct = p.nsKind === 'user' ? (p.nsOwner === user.id ? OWNER : 0) : p.creatorId === user.id ? MAINTAINER : 0;
  const inherited = p.nsKind === 'group' ? groupRole(user.id, w.groups.get(p.nsOwner)!) : 0;
  const level = (n: number) => (n > 0 ? { access_level: n, notification_level: 3 } : null);
  return { project_access: level(direct), group_access: level(inherited) };
}
