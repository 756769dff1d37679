// UserBasic, the user entity nested in many answers (authors, assignees, owners): any resource may
// answer with it without importing the users resource.
import type { UserRec } from '../store/records.js';
import type { World } from '../store/world.js';
import { userAvatarUrl } from '../resources/user-profile.js';

/** UserBasic (reference §6). */
export function userBasic(w: World, u: UserRec): Record<string, unknown> {
  return {
    id: u.id,
    username: u.username,
    name: u.name,
    state: u.state,
    locked: u.state === 'blocked',
    avatar_url: userAvatarUrl(w.base(), u),
    web_url: `${w.base()}/${u.username}`,
  };
}

export const GHOST_BIO =
  'This is a "Ghost User", created to hold all issues authored by users that have since been deleted. This user cannot be removed.';

/** The ghost user (`Users::Internal.ghost`) holds what deleted users leave; it is no active account. */
export const isGhost = (u: UserRec) => u.profile?.bio === GHOST_BIO;
