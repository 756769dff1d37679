// The release store, apart from the routes: tags read a tag's release, releases write them.
import { ChildCollection, storeFor } from '../store/collection.js';
import type { ReleaseRec } from '../store/records.js';
import type { World } from '../store/world.js';

const DAY = 86_400_000;
const SEEDED = ['v1.0.0', 'v1.1.0'];

export interface Release extends ReleaseRec {
  milestones: string[];
}

export const releases = storeFor(
  (w) =>
    new ChildCollection<string, Release>({
      seededKeys: (pid) => (w.projects.get(pid)?.seeded ? SEEDED : []),
      derive(pid, tag) {
        const p = w.projects.get(pid);
        const i = SEEDED.indexOf(tag);
        if (!p?.seeded || i < 0) return null;
        const t = w.repos.tags(pid).find((x) => x.name === tag);
        if (!t) return null;
        const at = p.createdAt + (i + 1) * 5 * DAY + (w.h(90, pid, i) % 1000);
        return {
          tagName: tag,
          name: `Release ${tag}`,
          description: `Changes in ${tag}.`,
          createdAt: at,
          releasedAt: at,
          authorId: p.creatorId,
          sha: t.sha,
          milestones: [],
        };
      },
    }),
);

export function releaseOf(w: World, pid: number, tag: string): ReleaseRec | null {
  return releases(w).get(pid, tag);
}
