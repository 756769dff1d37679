// A group with its subgroups at every depth: the scope of the group-wide issue and merge request lists.
import type { World } from '../store/world.js';

export function groupSubtree(w: World, id: number): Set<number> {
  const ids = new Set([id]);
  const pending = [id];
  while (pending.length > 0) {
    for (const child of w.groupChildren.get(pending.pop()!) ?? []) {
      ids.add(child);
      pending.push(child);
    }
  }
  return ids;
}
