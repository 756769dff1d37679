// What a merge does to the source branch: the service deletes it after the merge when the merge asked
// for it (`should_remove_source_branch`) or, without that parameter, when the merge request was made
// or edited with `remove_source_branch` (MergeRequests::MergeService `delete_source_branch?`), unless the
// branch is protected or the default one, or the merging user may not push (`can_remove_source_branch?`).
import { can } from '../access.js';
import type { World } from '../store/world.js';
import { defaultBranch } from '../store/default-branches.js';
import { ask } from '../engine/ports.js';

export function removeMergedSource(w: World, pid: number, branch: string, userId: number): void {
  const p = w.projects.get(pid);
  const user = w.users.get(userId);
  if (!p || ask('isProtectedBranch')(w, pid, branch) || branch === defaultBranch(w, pid) || !can(w, user, p, 'push_code')) return;
  w.repos.removeBranch(pid, branch);
}
