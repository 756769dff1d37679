// Who may do what, in one place: access levels by role (reference
// endpoints §0) and the abilities each role grants on a project.
import type { GroupRec, ProjectRec, SnippetRec, UserRec } from './store/records.js';
import { E } from './server/errors.js';
import type { World } from './store/world.js';

const GUEST = 10;
export const PLANNER = 15;
const REPORTER = 20;
export const DEVELOPER = 30;
export const MAINTAINER = 40;
export const OWNER = 50;
export const ACCESS_LEVELS = [GUEST, REPORTER, DEVELOPER, MAINTAINER, OWNER] as const;
/** What a membership or a project's share with a group may be given (`Gitlab::Access.all_values`, planner since 17.7). */
export const MEMBER_LEVELS: readonly number[] = [GUEST, PLANNER, REPORTER, DEVELOPER, MAINTAINER, OWNER];
/** The service's names of the levels, as its validation messages say them. */
export const LEVEL_NAMES: Readonly<Record<number, string>> = {
  [GUEST]: 'Guest',
  [PLANNER]: 'Planner',
  [REPORTER]: 'Reporter',
  [DEVELOPER]: 'Developer',
  [MAINTAINER]: 'Maintainer',
  [OWNER]: 'Owner',
};

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
  delete_merge_request: OWNER,
  read_pipeline: REPORTER,
  create_pipeline: DEVELOPER,
  update_pipeline: DEVELOPER,
  destroy_pipeline: OWNER,
  read_build: REPORTER,
  read_release: GUEST,
  read_environment: REPORTER,
  read_deployment: REPORTER,
  /** create, update and stop environments, and delete stopped ones (the policy's developer abilities) */
  create_environment: DEVELOPER,
  update_environment: DEVELOPER,
  destroy_environment: DEVELOPER,
  /** create, update and delete labels (`admin_label`: planners and reporters up) */
  admin_label: PLANNER,
  /** create, update, close and delete milestones (`admin_milestone`: planners and reporters up) */
  admin_milestone: PLANNER,
  create_release: DEVELOPER,
  /** pull images and read the registry (`read_container_image`; public and internal projects: whoever sees them) */
  read_container_image: REPORTER,
  /** delete tags, run the bulk tag clean-up (`destroy_container_image`, `admin_container_image`) */
  destroy_container_image: DEVELOPER,
  /** read and pull packages (`read_package`; public and internal projects: whoever sees them) */
  read_package: REPORTER,
  /** delete packages and package files (`destroy_package`) */
  destroy_package: MAINTAINER,
  read_snippet: GUEST,
  create_snippet: REPORTER,
  /** change or delete anyone's project snippet (its author may change their own) */
  admin_snippet: MAINTAINER,
  admin_project: MAINTAINER,
  /** read, create, change, test and delete project webhooks (`read_web_hook`, `admin_web_hook`) */
  admin_web_hook: MAINTAINER,
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
  'read_container_image',
  'read_package',
  'read_snippet',
]);

const MEMBER_ROLES = [GUEST, REPORTER, DEVELOPER, MAINTAINER, OWNER];

/** The seeded role of a seeded user in a seeded root group (0: none): a quarter of them belong to each. */
function seededRootRole(w: World, userId: number, g: GroupRec): number {
  if (g.parentId !== null || g.id > w.seededGroupCount || userId > w.seededUserCount || (g.id + userId) % 4 !== 3) return 0;
  return MEMBER_ROLES[(g.id * 31 + userId) % MEMBER_ROLES.length]!;
}

/** A user's direct membership level in a group (0: not a direct member): written through the API, else seeded. */
export function groupDirectLevel(w: World, userId: number, g: GroupRec): number {
  return w.memberships.get('group', g.id, userId)?.level ?? seededRootRole(w, userId, g);
}

/** The group and its ancestors, nearest first. */
export function groupChain(w: World, g: GroupRec): GroupRec[] {
  const chain = [g];
  for (let at = g; at.parentId !== null;) {
    at = w.groups.get(at.parentId)!;
    chain.push(at);
  }
  return chain;
}

/** A user's role in a group (0: not a member): the highest of its own membership and its ancestors' ones. */
export function groupRole(w: World, userId: number, g: GroupRec): number {
  let level = 0;
  for (let at: GroupRec | null = g; at; at = at.parentId === null ? null : w.groups.get(at.parentId)) {
    level = Math.max(level, groupDirectLevel(w, userId, at));
  }
  return level;
}

/** A user's direct level in a project: written through the API, else owner of a personal project, maintainer as its creator. */
export function projectDirectLevel(w: World, userId: number, p: ProjectRec): number {
  const written = w.memberships.get('project', p.id, userId);
  if (written) return written.level;
  if (p.nsKind === 'user') return p.nsOwner === userId ? OWNER : 0;
  return p.creatorId === userId ? MAINTAINER : 0;
}

/** A user's role in a project (0: not a member): the higher of its direct level and the role in the project's group. */
export function projectRole(w: World, user: UserRec | null, p: ProjectRec): number {
  if (!user) return 0;
  const fromGroup = p.nsKind === 'group' ? groupRole(w, user.id, w.groups.get(p.nsOwner)!) : 0;
  return Math.max(projectDirectLevel(w, user.id, p), fromGroup);
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
  if (!canReadProject(w, user, p)) return false;
  // The policy's `public_user_access`: a signed-in user of a public or internal project has guest access.
  return NON_MEMBER.has(ability) || (user !== null && PROJECT_ABILITY[ability] <= GUEST);
}

export function canReadGroup(w: World, user: UserRec | null, g: GroupRec): boolean {
  if (g.visibility === 'public') return true;
  if (!user) return false;
  if (user.isAdmin || g.visibility === 'internal') return true;
  return groupRole(w, user.id, g) > 0;
}

export function canReadSnippet(user: UserRec | null, s: SnippetRec): boolean {
  if (s.visibility === 'public') return true;
  if (!user) return false;
  if (user.isAdmin || s.visibility === 'internal') return true;
  return s.authorId === user.id;
}

/** The `permissions` block of an authenticated project read. */
export function permissionsJson(w: World, user: UserRec, p: ProjectRec): Record<string, unknown> {
  const direct = projectDirectLevel(w, user.id, p);
  const inherited = p.nsKind === 'group' ? groupRole(w, user.id, w.groups.get(p.nsOwner)!) : 0;
  const level = (n: number) => (n > 0 ? { access_level: n, notification_level: 3 } : null);
  return { project_access: level(direct), group_access: level(inherited) };
}

/** Users who used the API this recently cannot be deactivated (`deactivate_dormant_users_period`, default 90 days). */
export const DORMANT_DAYS = 90;

/** Why the service refuses every credential of a user (`UserAccessDeniedReason`), or null when it does not. */
export function accountRefusal(w: World, user: UserRec): string | null {
  if (user.state === 'deactivated') {
    return `Your account has been deactivated by your administrator. Please log back in from a web browser to reactivate your account at ${w.base()}`;
  }
  if (user.state === 'blocked' || user.state === 'banned') return 'Your account has been blocked.';
  return null;
}

/** Lets a token's owner in, noting the activity, or refuses every request of a blocked, banned or deactivated user (403). */
export function admitAccount(w: World, user: UserRec | null): void {
  if (!user) return;
  const refusal = accountRefusal(w, user);
  if (refusal) throw E.forbidden(refusal);
  user.lastActivityAt = Date.now();
}
