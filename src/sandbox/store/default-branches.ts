// Default branches changed by `PUT /projects/:id`; every other project's is main.
import { storeFor } from './collection.js';
import type { World } from './world.js';

const changed = storeFor(() => new Map<number, string>());

export function defaultBranch(w: World, pid: number): string {
  return changed(w).get(pid) ?? 'main';
}

export function setDefaultBranch(w: World, pid: number, branch: string): void {
  changed(w).set(pid, branch);
}
