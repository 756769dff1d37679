// Deterministic generation of the seeded users, groups, projects and
// snippets: the same seed and sizes give the same records.
import type { GroupRec, Visibility } from './records.js';
import type { World } from './world.js';

const ADJ = [
  'brave',
  'calm',
  'eager',
  'fancy',
  'gentle',
  'happy',
  'jolly',
  'kind',
  'lively',
  'nice',
  'proud',
  'silly',
  'witty',
  'zealous',
  'amber',
  'bold',
  'crisp',
  'dusty',
  'early',
  'frosty',
  'golden',
  'hidden',
  'icy',
  'lucky',
  'mellow',
  'noble',
  'quiet',
  'rapid',
  'shiny',
  'tidy',
];
const NOUN = [
  'otter',
  'falcon',
  'badger',
  'heron',
  'lynx',
  'panda',
  'raven',
  'salmon',
  'tiger',
  'walrus',
  'beacon',
  'bridge',
  'canyon',
  'delta',
  'ember',
  'forge',
  'garden',
  'harbor',
  'island',
  'jungle',
  'kernel',
  'lantern',
  'meadow',
  'nebula',
  'orchard',
  'prism',
  'quarry',
  'river',
  'summit',
  'tundra',
];
const COMPANY = [
  'acme',
  'globex',
  'initech',
  'umbrella',
  'hooli',
  'stark',
  'wayne',
  'tyrell',
  'cyberdyne',
  'soylent',
  'aperture',
  'massive',
  'wonka',
  'oscorp',
  'vandelay',
];
const SUBGROUP = ['platform', 'backend', 'frontend', 'infra', 'tools', 'mobile', 'data', 'security', 'docs', 'qa'];
const FIRST = [
  'Alice',
  'Bob',
  'Carol',
  'Dave',
  'Erin',
  'Frank',
  'Grace',
  'Heidi',
  'Ivan',
  'Judy',
  'Mallory',
  'Niaj',
  'Olivia',
  'Peggy',
  'Rupert',
  'Sybil',
  'Trent',
  'Victor',
  'Walter',
  'Yvonne',
];
const LAST = [
  'Smith',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Lopez',
  'Wilson',
  'Moore',
  'Taylor',
  'Thomas',
  'Martin',
  'Clark',
  'Lewis',
  'Walker',
  'Young',
  'King',
  'Wright',
  'Hill',
  'Green',
  'Baker',
];
export const ISSUE_TITLES = [
  'Login fails with SSO',
  'Crash on empty config',
  'Add dark mode',
  'Improve search speed',
  'Typo in README',
  'Flaky test in CI',
  'Upgrade dependencies',
  'Memory leak in worker',
  'Support IPv6',
  'Docs: clarify setup',
];
export const NOTE_BODIES = [
  'I can reproduce this.',
  'Fixed in the latest main.',
  'Could you share the logs?',
  'Closing as duplicate.',
  'Thanks, looks good to me.',
  'Needs a test case.',
  'Bumping priority.',
  'Working on it.',
];

const DAY = 86_400_000;
const BASE_TIME = Date.UTC(2021, 0, 4, 9, 0, 0);
const TOPICS: ReadonlyArray<readonly string[]> = [[], ['api'], ['cli', 'tools'], ['web'], [], ['api', 'web'], ['infra'], []];

export function seedUsers(w: World, count: number): void {
  const start = BASE_TIME - 60 * DAY;
  for (let i = 1; i <= count; i++) {
    let username: string;
    let name: string;
    if (i === 1) {
      username = 'root';
      name = 'Administrator';
    } else if (i === 2) {
      username = 'jdoe';
      name = 'Jane Doe';
    } else {
      const h = w.h(10, i);
      const f = FIRST[h % FIRST.length]!;
      const l = LAST[(h >>> 8) % LAST.length]!;
      name = `${f} ${l}`;
      username = `${f}.${l}`.toLowerCase();
      if (w.usersByName.has(username)) username = `${username}${i}`;
    }
    const createdAt = start + i * 3_600_000 + (w.h(11, i) % 1000);
    w.users.insert({
      id: i,
      username,
      name,
      email: `${username}@example.com`,
      state: i > 2 && i % 17 === 0 ? 'blocked' : 'active',
      isAdmin: i === 1,
      createdAt,
      updatedAt: createdAt + (w.h(12, i) % (30 * DAY)),
    });
    w.usersByName.set(username.toLowerCase(), i);
  }
}

export function seedGroups(w: World, count: number): void {
  const fixed: Array<[string, number | null, Visibility]> = [
    ['acme', null, 'public'],
    ['platform', 1, 'public'],
    ['globex', null, 'private'],
    ['initech', null, 'public'],
    ['backend', 4, 'internal'],
    ['umbrella', null, 'public'],
  ];
  for (let i = 1; i <= count; i++) {
    let path: string;
    let parentId: number | null;
    let visibility: Visibility;
    const h = w.h(20, i);
    if (i <= fixed.length) {
      [path, parentId, visibility] = fixed[i - 1]!;
    } else {
      const depthOk = (g: number) => depth(w, g) < 3;
      const cand = 1 + ((h >>> 4) % (i - 1));
      if (h % 3 === 0 && depthOk(cand)) {
        parentId = cand;
        path = `${SUBGROUP[(h >>> 8) % SUBGROUP.length]}-${i}`;
      } else {
        parentId = null;
        path = `${COMPANY[(h >>> 8) % COMPANY.length]}-${i}`;
      }
      const v = (h >>> 12) % 5;
      visibility = v === 0 ? 'private' : v === 1 ? 'internal' : 'public';
    }
    const parent = parentId ? w.groups.get(parentId)! : null;
    if (parent && parent.visibility === 'private') visibility = 'private';
    const name = path.charAt(0).toUpperCase() + path.slice(1);
    const g: GroupRec = {
      id: i,
      name,
      path,
      fullPath: parent ? `${parent.fullPath}/${path}` : path,
      fullName: parent ? `${parent.fullName} / ${name}` : name,
      parentId,
      rootId: parent ? parent.rootId : i,
      visibility,
      description: `${name} group`,
      createdAt: BASE_TIME - 30 * DAY + i * 60_000 + (h % 1000),
      storage: w.storages[0]!,
      readOnly: false,
    };
    w.groups.insert(g);
    w.groupsByPath.set(g.fullPath.toLowerCase(), i);
    if (parentId) {
      const list = w.groupChildren.get(parentId) ?? [];
      list.push(i);
      w.groupChildren.set(parentId, list);
    }
  }
}

function depth(w: World, g: number): number {
  let d = 1;
  let cur = w.groups.get(g);
  while (cur?.parentId) {
    d++;
    cur = w.groups.get(cur.parentId);
  }
  return d;
}

export function seedProjects(w: World, n: number, spread: boolean): void {
  const U = w.users.size;
  const G = w.groups.size;
  for (let i = 1; i <= n; i++) {
    const h = w.h(30, i);
    let nsKind: 'group' | 'user';
    let nsOwner: number;
    if (i <= 3) {
      nsKind = 'group';
      nsOwner = i === 3 ? 1 : 2;
    } else if (h % 7 === 0) {
      nsKind = 'user';
      nsOwner = 1 + ((h >>> 3) % U);
    } else {
      nsKind = 'group';
      nsOwner = 1 + ((h >>> 3) % G);
    }
    let visibility: Visibility;
    if (i === 1) visibility = 'public';
    else if (i === 2) visibility = 'private';
    else if (i === 3) visibility = 'internal';
    else {
      const v = (h >>> 8) % 10;
      visibility = v < 4 ? 'public' : v < 6 ? 'internal' : 'private';
    }
    const adj = ADJ[(h >>> 12) % ADJ.length]!;
    const noun = NOUN[(h >>> 17) % NOUN.length]!;
    const createdAt = BASE_TIME + i * w.step + (h % 1000);
    const storage = spread ? w.storages[(h >>> 20) % w.storages.length]! : w.storages[0]!;
    w.addProject({
      id: i,
      name: `${adj.charAt(0).toUpperCase()}${adj.slice(1)} ${noun.charAt(0).toUpperCase()}${noun.slice(1)} ${i}`,
      path: `${adj}-${noun}-${i}`,
      nsKind,
      nsOwner,
      fullPath: '',
      visibility,
      storage,
      readOnly: false,
      description: h % 3 === 0 ? null : `The ${adj} ${noun} service`,
      createdAt,
      lastActivityAt: createdAt + ((h >>> 5) % (30 * DAY)),
      creatorId: nsKind === 'user' ? nsOwner : 1 + ((h >>> 6) % U),
      starCount: (h >>> 24) % 20,
      importStatus: 'none',
      seeded: true,
      archived: i > 3 && h % 23 === 0,
      topics: TOPICS[(h >>> 9) % TOPICS.length]!,
      issuesEnabled: i <= 3 || h % 11 !== 0,
      mergeRequestsEnabled: i <= 3 || h % 13 !== 0,
    });
  }
  // Renamed projects: their old path is kept as a redirect route.
  for (const id of [1, 2]) {
    const p = w.projects.get(id);
    if (!p) continue;
    const old = `${w.nsFullPath(p)}/old-${p.path.replace(/-\d+$/, '')}`;
    w.redirects.set(old.toLowerCase(), id);
    w.renamed.push({ projectId: id, oldFullPath: old });
  }
}

export function seedSnippets(w: World, count: number, spread: boolean): void {
  const U = w.users.size;
  for (let i = 1; i <= count; i++) {
    const h = w.h(40, i);
    const authorId = i <= 2 ? 2 : 1 + (h % U);
    const v = (h >>> 4) % 3;
    const visibility: Visibility = i === 1 ? 'public' : i === 2 ? 'private' : v === 0 ? 'public' : v === 1 ? 'internal' : 'private';
    const createdAt = BASE_TIME + i * 7_200_000 + (h % 1000);
    w.snippets.insert({
      id: i,
      title: `${ADJ[(h >>> 8) % ADJ.length]} snippet ${i}`,
      fileName: `snippet${i}.rb`,
      description: null,
      visibility,
      authorId,
      content: `puts "snippet ${i}"\n`,
      createdAt,
      updatedAt: createdAt,
      storage: spread ? w.storages[(h >>> 12) % w.storages.length]! : w.storages[0]!,
      readOnly: false,
    });
  }
}
