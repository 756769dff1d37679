// Which project each fork was made from (`POST /projects/:id/fork`), for `forked_from_project` and
// `forks_count` (lib/api/entities/project.rb).
import { storeFor } from '../store/collection.js';
import type { World } from '../store/world.js';

const forks = storeFor(() => ({ parent: new Map<number, number>(), count: new Map<number, number>() }));

export function recordFork(w: World, parentId: number, forkId: number): void {
  const f = forks(w);
  f.parent.set(forkId, parentId);
  f.count.set(parentId, (f.count.get(parentId) ?? 0) + 1);
}

export function forkedFrom(w: World, pid: number): number | undefined {
  return forks(w).parent.get(pid);
}

export function forkCount(w: World, pid: number): number {
  return forks(w).count.get(pid) ?? 0;
}

/** The ids of the projects forked from `pid`, in the order they were made. */
export function forksOf(w: World, pid: number): number[] {
  return [...forks(w).parent].filter(([, parent]) => parent === pid).map(([fork]) => fork);
}

export function forkTotal(w: World): number {
  return forks(w).parent.size;
}
