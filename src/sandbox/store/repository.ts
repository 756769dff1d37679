// The synthetic git repository every project has: branches, commits, tags
// and files derived from (seed, project id); branches and tags created or
// deleted through the API are kept on top.
import { sha1, sha256 } from '../util/digest.js';
import { seededBytes } from '../util/random.js';
import type { CommitRec } from './records.js';
import type { World } from './world.js';

/** Branches of every synthetic repository (note the `/` in names). */
export const BRANCHES = ['main', 'develop', 'feature/login', 'feature/search-v2', 'fix/issue-1', 'fail/broken-build'];
/** Tags: name → main commit index (from oldest, 0-based) or branch head. */
const TAGS: Array<{ name: string; branch: string; index: number; message: string | null }> = [
  { name: 'v1.0.0', branch: 'main', index: 4, message: 'First stable release' },
  { name: 'v1.0.0+build.5', branch: 'main', index: 5, message: null },
  { name: 'v1.1.0', branch: 'main', index: 9, message: 'Feature release' },
  { name: 'v2.0.0-rc.1', branch: 'develop', index: -1, message: null },
];
const MAIN_COMMITS = 12;
const BRANCH_COMMITS = 3;
const HOUR = 3_600_000;

export interface TagRec {
  name: string;
  sha: string;
  message: string | null;
}

/** Told around every change to a branch: its head moved (a commit, a reset, a new branch) or a file was written on it. */
export interface BranchWatcher {
  /** the branch as it was */
  before(w: World, pid: number, branch: string): void;
  /** the branch moved; the request that moved it may still write its files */
  after(w: World, pid: number, branch: string): void;
}

const watchers = new Map<string, BranchWatcher>();

/** By name, so that another sandbox in the same process replaces the watcher instead of adding a second. */
export function watchBranches(name: string, watcher: BranchWatcher): void {
  watchers.set(name, watcher);
}

/** The repository of a project created through the API: no synthetic history, only commits made since. */
interface OwnRepo {
  /** branch → head sha */
  branches: Map<string, string>;
  commits: Map<string, CommitRec>;
  /** the files of its first commit (README.md with `initialize_with_readme`) */
  files: Map<string, Buffer>;
}

export class Repositories {
  private readonly own = new Map<number, OwnRepo>();
  /** project id → commits made through the API on a synthetic repository, by sha */
  private readonly made = new Map<number, Map<string, CommitRec>>();

  /** project id → branch name → head sha of a branch created through the API */
  private readonly createdBranches = new Map<number, Map<string, string>>();
  /** project id → names of seeded branches deleted through the API */
  private readonly deletedBranches = new Map<number, Set<string>>();
  /** project id → tag name → tag created through the API */
  private readonly createdTags = new Map<number, Map<string, TagRec>>();
  /** project id → names of seeded tags deleted through the API */
  private readonly deletedTags = new Map<number, Set<string>>();

  constructor(private readonly world: World) {}

  /** A created project's repository: empty, or with one commit adding `README.md` on `main`. */
  createOwn(pid: number, readme: Buffer | null, author: [string, string]): void {
    this.own.set(pid, { branches: new Map(), commits: new Map(), files: new Map(readme ? [['README.md', readme]] : []) });
    if (readme) this.commit(pid, 'main', 'Initial commit', author, ['README.md']);
  }

  /** A scenario's repository: one commit on `main` adding its files, and its other branches at that commit. */
  createWithFiles(pid: number, files: Map<string, Buffer>, branches: string[], author: [string, string]): void {
    this.own.set(pid, { branches: new Map(), commits: new Map(), files });
    const first = this.commit(pid, 'main', 'Initial commit', author, [...files.keys()]);
    for (const branch of branches) this.addBranch(pid, branch, first.id);
  }

  /** A fork gets its own copy of a created project's repository; forks of seeded projects keep the synthetic one. */
  copyOwn(from: number, to: number): void {
    const repo = this.own.get(from);
    if (repo) this.own.set(to, { branches: new Map(repo.branches), commits: new Map(repo.commits), files: new Map(repo.files) });
  }

  /** A repository with no commit at all (the service's `empty_repo`). */
  isEmpty(pid: number): boolean {
    return this.own.get(pid)?.commits.size === 0;
  }

  /** Whether a project's repository is the synthetic one (seeded projects) rather than its own. */
  isSynthetic(pid: number): boolean {
    return !this.own.has(pid);
  }

  /**
   * Adds a commit on top of a branch, creating the branch when it has none (the first commit of an
   * empty repository). On a synthetic repository it lies over the seeded history.
   */
  commit(
    pid: number,
    branch: string,
    title: string,
    author: [string, string],
    paths: string[],
    details: Pick<CommitRec, 'message' | 'stats'> = {},
  ): CommitRec {
    const own = this.own.get(pid);
    const commits = own?.commits ?? this.madeOf(pid);
    const c: CommitRec = {
      id: sha1(`${this.world.seed}:${pid}:${own ? 'own' : 'made'}:${commits.size}:${title}`),
      title,
      parentId: this.hasBranch(pid, branch) ? this.branchCommits(pid, branch)![0]!.id : null,
      createdAt: this.world.now(),
      authorIdx: 0,
      author,
      paths,
      ...details,
    };
    commits.set(c.id, c);
    this.addBranch(pid, branch, c.id);
    return c;
  }

  private madeOf(pid: number): Map<string, CommitRec> {
    let commits = this.made.get(pid);
    if (!commits) {
      commits = new Map();
      this.made.set(pid, commits);
    }
    return commits;
  }

  /** The commits made through the API from `sha` down, and the seeded commit they rest on. */
  private madeLine(pid: number, sha: string): { line: CommitRec[]; base: string } {
    const made = this.made.get(pid);
    const line: CommitRec[] = [];
    let at = sha;
    for (let c = made?.get(at); c; c = made!.get(at)) {
      line.push(c);
      at = c.parentId!;
    }
    return { line, base: at };
  }

  private ownLine(repo: OwnRepo, head: string): CommitRec[] {
    const line: CommitRec[] = [];
    for (let c = repo.commits.get(head); c; c = c.parentId === null ? undefined : repo.commits.get(c.parentId)) line.push(c);
    return line;
  }

  private commitSha(pid: number, branch: string, i: number): string {
    return sha1(`${this.world.seed}:${pid}:${branch}:${i}`);
  }

  /** The branches a project has now, seeded ones first. */
  branchNames(pid: number): string[] {
    const own = this.own.get(pid);
    if (own) return [...own.branches.keys()];
    const gone = this.deletedBranches.get(pid);
    return [...BRANCHES.filter((b) => !gone?.has(b)), ...(this.createdBranches.get(pid)?.keys() ?? [])];
  }

  hasBranch(pid: number, name: string): boolean {
    const own = this.own.get(pid);
    if (own) return own.branches.has(name);
    if (this.createdBranches.get(pid)?.has(name)) return true;
    return BRANCHES.includes(name) && !this.deletedBranches.get(pid)?.has(name);
  }

  /** Commits of a branch, newest first; a created branch has the history of the commit it started at. */
  branchCommits(pid: number, branch: string): CommitRec[] | null {
    if (!this.hasBranch(pid, branch)) return null;
    const own = this.own.get(pid);
    if (own) return this.ownLine(own, own.branches.get(branch)!);
    const head = this.createdBranches.get(pid)?.get(branch);
    return head === undefined ? this.seededLine(pid, branch) : this.lineFrom(pid, head);
  }

  /** The history from a commit, newest first, whether or not a branch still points at it. */
  lineFrom(pid: number, sha: string): CommitRec[] {
    const own = this.own.get(pid);
    if (own) return this.ownLine(own, sha);
    const { line, base } = this.madeLine(pid, sha);
    const seeded = this.seededLine(pid, this.seededBranchOf(pid, base))!;
    return [...line, ...seeded.slice(seeded.findIndex((c) => c.id === base))];
  }

  /** Runs a change to a branch, telling the watchers before and after it. */
  changeBranch<T>(pid: number, branch: string, change: () => T): T {
    for (const watcher of watchers.values()) watcher.before(this.world, pid, branch);
    const result = change();
    for (const watcher of watchers.values()) watcher.after(this.world, pid, branch);
    return result;
  }

  addBranch(pid: number, name: string, sha: string): void {
    this.changeBranch(pid, name, () => this.setHead(pid, name, sha));
  }

  private setHead(pid: number, name: string, sha: string): void {
    const own = this.own.get(pid);
    if (own) {
      own.branches.set(name, sha);
      return;
    }
    if (BRANCHES.includes(name)) this.hide(this.deletedBranches, pid, name);
    let m = this.createdBranches.get(pid);
    if (!m) {
      m = new Map();
      this.createdBranches.set(pid, m);
    }
    m.set(name, sha);
  }

  removeBranch(pid: number, name: string): boolean {
    for (const watcher of watchers.values()) watcher.before(this.world, pid, name);
    const own = this.own.get(pid);
    if (own) return own.branches.delete(name);
    if (this.createdBranches.get(pid)?.delete(name)) return true;
    if (!this.hasBranch(pid, name)) return false;
    this.hide(this.deletedBranches, pid, name);
    return true;
  }

  /** The generated commits of a seeded branch (deleting the branch keeps them reachable by sha). */
  private seededLine(pid: number, branch: string): CommitRec[] | null {
    const p = this.world.projects.get(pid);
    if (!p || !BRANCHES.includes(branch)) return null;
    // A seeded project's history follows its creation; one created through the API has it already,
    // so none of its commits is dated after the moment it was made.
    const start = p.seeded ? p.createdAt : p.createdAt - MAIN_COMMITS * HOUR;
    const main: CommitRec[] = [];
    for (let i = 0; i < MAIN_COMMITS; i++) {
      main.push({
        id: this.commitSha(pid, 'main', i),
        title: i === 0 ? 'Initial commit' : `Update ${['docs', 'main module', 'tests', 'CI config'][i % 4]} (${i})`,
        parentId: i === 0 ? null : this.commitSha(pid, 'main', i - 1),
        createdAt: start + i * HOUR,
        authorIdx: i % 3,
      });
    }
    if (branch === 'main') return main.reverse();
    const base = 3 + (BRANCHES.indexOf(branch) % 5);
    const own: CommitRec[] = [];
    for (let i = 0; i < BRANCH_COMMITS; i++) {
      own.push({
        id: this.commitSha(pid, branch, i),
        title: `${branch.split('/').pop()}: step ${i + 1}`,
        parentId: i === 0 ? main[base]!.id : this.commitSha(pid, branch, i - 1),
        createdAt: start + (base + i) * HOUR + HOUR / 2,
        authorIdx: (i + 1) % 3,
      });
    }
    return [...own.reverse(), ...main.slice(0, base + 1).reverse()];
  }

  /** A ref a pipeline may run for: a branch or a tag of the project (created ones too). */
  isBranchOrTag(pid: number, ref: string): boolean {
    return this.hasBranch(pid, ref) || this.tags(pid).some((t) => t.name === ref);
  }

  tags(pid: number): TagRec[] {
    const out: TagRec[] = [];
    const gone = this.deletedTags.get(pid);
    for (const t of this.own.has(pid) ? [] : TAGS) {
      if (gone?.has(t.name)) continue;
      const commits = this.seededLine(pid, t.branch)!;
      const sha = t.index < 0 ? commits[0]!.id : commits[commits.length - 1 - t.index]!.id;
      out.push({ name: t.name, sha, message: t.message });
    }
    const extra = this.createdTags.get(pid);
    if (extra) for (const t of extra.values()) out.push(t);
    return out;
  }

  findCommit(pid: number, sha: string): CommitRec | null {
    const own = this.own.get(pid);
    const matches = (x: CommitRec) => x.id === sha || (sha.length >= 7 && x.id.startsWith(sha));
    if (own) return [...own.commits.values()].find(matches) ?? null;
    const made = [...(this.made.get(pid)?.values() ?? [])].find(matches);
    if (made) return made;
    for (const b of BRANCHES) {
      const c = this.seededLine(pid, b)!.find(matches);
      if (c) return c;
    }
    return null;
  }

  /** Resolve a ref (branch, tag, sha, HEAD) to a commit sha; git's `~N` and `^` suffixes walk back first parents. */
  resolveRef(pid: number, ref: string): string | null {
    // A ref name cannot hold `~` or `^` (git-check-ref-format), so a suffix of them is always an ancestry walk.
    const walk = /^(.+?)((?:[~^]\d*)+)$/.exec(ref);
    if (walk) {
      let sha = this.resolveRef(pid, walk[1]!);
      for (const [, op, n] of walk[2]!.matchAll(/([~^])(\d*)/g)) {
        // `^N` names the N-th parent; the sandbox's commits have one, so `^2` and up name none.
        const steps = op === '~' ? Number(n || 1) : n === '' || n === '1' ? 1 : n === '0' ? 0 : Infinity;
        for (let k = 0; k < steps && sha !== null; k++) sha = this.findCommit(pid, sha)?.parentId ?? null;
      }
      return sha;
    }
    if (ref === 'HEAD') ref = 'main';
    if (this.hasBranch(pid, ref)) return this.branchCommits(pid, ref)![0]!.id;
    const tag = this.tags(pid).find((t) => t.name === ref);
    if (tag) return tag.sha;
    if (/^[0-9a-f]{7,40}$/.test(ref)) return this.findCommit(pid, ref)?.id ?? null;
    return null;
  }

  branchForSha(pid: number, sha: string): string {
    const own = this.own.get(pid);
    const holding = () => this.branchNames(pid).find((b) => this.branchCommits(pid, b)!.some((c) => c.id === sha));
    if (own) return holding() ?? 'main';
    return (this.made.get(pid)?.has(sha) ? holding() : undefined) ?? this.seededBranchOf(pid, this.madeLine(pid, sha).base);
  }

  private seededBranchOf(pid: number, sha: string): string {
    return BRANCHES.find((b) => this.seededLine(pid, b)!.some((c) => c.id === sha)) ?? 'main';
  }

  files(pid: number, ref: string): Map<string, Buffer> {
    const own = this.own.get(pid);
    if (own) return new Map(own.files);
    const p = this.world.projects.get(pid)!;
    const createdAt = this.createdBranches.get(pid)?.get(ref);
    if (createdAt !== undefined) ref = this.seededBranchOf(pid, this.madeLine(pid, createdAt).base);
    const m = new Map<string, Buffer>();
    // A seeded branch's own commits change README.md (feature/login's add login.ts), so it differs from main.
    const branchNote =
      ref !== 'main' && ref !== 'feature/login' && BRANCHES.includes(ref) ? `\n## ${ref}\n\nWork in progress on ${ref}.\n` : '';
    m.set('README.md', Buffer.from(`# ${p.name}\n\n${p.description ?? 'No description.'}\n\nSee docs/guide/intro.md.\n${branchNote}`));
    m.set(
      '.gitlab-ci.yml',
      Buffer.from(
        'stages: [build, test]\nbuild:\n  stage: build\n  script: make\n  artifacts:\n    paths: [build/]\ntest:\n  stage: test\n  script: make test\n',
      ),
    );
    m.set('docs/guide/intro.md', Buffer.from(`# Introduction\n\nWelcome to ${p.name}.\n`));
    m.set('docs/guide/advanced/config.md', Buffer.from('# Configuration\n\nSet `LOG_LEVEL=debug` for verbose output.\n'));
    m.set('docs/c++/notes+tips.md', Buffer.from('# C++ notes\n\nA file whose path has a plus sign.\n'));
    m.set('docs/release notes.md', Buffer.from('# Release notes\n\nA file whose name has a space.\n'));
    m.set('src/app/main.ts', Buffer.from(`export const project = ${JSON.stringify(p.path)};\nconsole.log(project);\n`));
    m.set('src/lib/util.ts', Buffer.from('export function add(a: number, b: number): number {\n  return a + b;\n}\n'));
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), seededBytes(this.world.h(60, pid), 1016)]);
    m.set('assets/logo.png', png);
    if (ref === 'feature/login') m.set('src/app/login.ts', Buffer.from('export function login(): boolean {\n  return true;\n}\n'));
    return m;
  }

  removeTag(pid: number, name: string): boolean {
    if (this.createdTags.get(pid)?.delete(name)) return true;
    if (this.own.has(pid) || !TAGS.some((t) => t.name === name) || this.deletedTags.get(pid)?.has(name)) return false;
    this.hide(this.deletedTags, pid, name);
    return true;
  }

  /** Marks a seeded name as gone (deleted, or replaced by one created through the API). */
  private hide(hidden: Map<number, Set<string>>, pid: number, name: string): void {
    const names = hidden.get(pid) ?? new Set<string>();
    names.add(name);
    hidden.set(pid, names);
  }

  addTag(pid: number, tag: TagRec): void {
    if (!this.own.has(pid) && TAGS.some((t) => t.name === tag.name)) this.hide(this.deletedTags, pid, tag.name);
    let m = this.createdTags.get(pid);
    if (!m) {
      m = new Map();
      this.createdTags.set(pid, m);
    }
    m.set(tag.name, tag);
  }

  fileBlob(content: Buffer): { blobId: string; sha256: string } {
    return { blobId: sha1(Buffer.concat([Buffer.from(`blob ${content.length}\0`), content])), sha256: sha256(content) };
  }
}
