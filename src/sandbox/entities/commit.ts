// The Commit entity, nested in the answers about branches, tags, jobs, releases and comparisons:
// any resource may answer with it without importing the commits resource.
import type { CommitRec, ProjectRec } from '../store/records.js';
import type { World } from '../store/world.js';
import { iso } from '../util/time.js';

const PEOPLE: Array<[string, string]> = [
  ['Administrator', 'admin@example.com'],
  ['Jane Doe', 'jdoe@example.com'],
  ['Build Bot', 'bot@example.com'],
];

/** The commit's author as name and email (a seeded commit names one of a few people). */
export function commitAuthor(c: CommitRec): [string, string] {
  return c.author ?? PEOPLE[c.authorIdx]!;
}

export function commitJson(w: World, p: ProjectRec, c: CommitRec): Record<string, unknown> {
  const [an, ae] = commitAuthor(c);
  return {
    id: c.id,
    short_id: c.id.slice(0, 8),
    created_at: iso(c.createdAt),
    parent_ids: c.parentId ? [c.parentId] : [],
    title: c.title,
    message: c.message ?? `${c.title}\n`,
    author_name: an,
    author_email: ae,
    authored_date: iso(c.createdAt),
    committer_name: an,
    committer_email: ae,
    committed_date: iso(c.createdAt),
    trailers: {},
    extended_trailers: {},
    web_url: `${w.base()}/${p.fullPath}/-/commit/${c.id}`,
  };
}

/** Files a synthetic commit changed, from its title (the first commit adds every file). */
export function touchedPaths(c: CommitRec): string[] | null {
  if (c.paths) return c.paths;
  if (c.parentId === null) return null;
  const m = /^Update (docs|main module|tests|CI config) /.exec(c.title);
  if (m)
    return [
      { docs: 'docs/guide/intro.md', 'main module': 'src/app/main.ts', tests: 'src/lib/util.ts', 'CI config': '.gitlab-ci.yml' }[m[1]!]!,
    ];
  return c.title.startsWith('login:') ? ['src/app/login.ts'] : ['README.md'];
}
