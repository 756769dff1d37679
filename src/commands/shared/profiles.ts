import { UsageError } from '../../errors.js';
import type { ConfigStore, Profile } from '../../config/store.js';

/** A profile that must already exist (changing one never creates it by accident). */
export function existingProfile(store: ConfigStore, name: string): Profile {
  const profile = store.profile(name);
  if (!profile) {
    const known = store.profileNames();
    throw new UsageError(`no profile named '${name}'${known.length ? ` (known: ${known.join(', ')})` : ''}`);
  }
  return profile;
}
