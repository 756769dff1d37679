// What one resource offers the others, by name: a resource asks for a port instead of importing
// another resource's store, and the resource that owns the records offers it when it mounts.
import type { World } from '../store/world.js';

/** An issue or a merge request as far as its labels are concerned. */
export interface Labelled {
  state: string;
  labels: readonly string[];
}

export interface Ports {
  /** the issues of a project */
  issuesOf(w: World, projectId: number): readonly Labelled[];
  /** the merge requests of a project */
  mergeRequestsOf(w: World, projectId: number): readonly Labelled[];
}

const offered: Partial<Ports> = {};

export function offer<K extends keyof Ports>(name: K, port: Ports[K]): void {
  offered[name] = port;
}

/** The port, or a port that answers nothing when its resource is not mounted. */
export function ask<K extends keyof Ports>(name: K): Ports[K] {
  return offered[name] ?? ((() => []) as Ports[K]);
}
