// `GET …/repository/compare` (lib/api/repositories.rb, entities/compare.rb; reference, "Compare"):
// the commits `git log from..to` lists, oldest first; the diffs from the merge base of `from` and `to`
// (from `from` itself with `straight`) to `to`; `commit` the newest of them. The synthetic repository
// keeps whole files per branch, so a diff is one hunk replacing the file (README, "Compare").
import { E } from '../server/errors.js';
import { boolParam, strParam } from '../server/params.js';
import { sendJson } from '../server/respond.js';
import type { ProjectRec } from '../store/records.js';
import type { World } from '../store/world.js';
import { commitJson } from '../entities/commit.js';
import { requireAbility } from './guards.js';
import type { Mounts } from './mounts.js';

function lines(b: Buffer | undefined): string[] {
  if (!b || b.length === 0) return [];
  return b.toString('utf8').replace(/\n$/, '').split('\n');
}

function hunk(before: Buffer | undefined, after: Buffer | undefined): string {
  const a = lines(before);
  const b = lines(after);
  const range = (n: number) => (n === 0 ? '0,0' : `1,${n}`);
  return `@@ -${range(a.length)} +${range(b.length)} @@\n${[...a.map((l) => `-${l}`), ...b.map((l) => `+${l}`)].join('\n')}\n`;
}

function filesAt(w: World, p: ProjectRec, sha: string): Map<string, Buffer> {
  return w.repos.files(p.id, w.repos.branchForSha(p.id, sha));
}

function diffs(w: World, p: ProjectRec, base: string, head: string): Array<Record<string, unknown>> {
  const a = filesAt(w, p, base);
  const b = filesAt(w, p, head);
  const paths = [...new Set([...a.keys(), ...b.keys()])].sort();
  return paths
    .filter((path) => !a.get(path)?.equals(b.get(path) ?? Buffer.alloc(0)) || !b.has(path))
    .map((path) => ({
      diff: hunk(a.get(path), b.get(path)),
      collapsed: false,
      too_large: false,
      new_path: path,
      old_path: path,
      a_mode: a.has(path) ? '100644' : '0',
      b_mode: b.has(path) ? '100644' : '0',
      new_file: !a.has(path),
      renamed_file: false,
      deleted_file: !b.has(path),
      generated_file: false,
    }));
}

export function mountCompare({ project }: Mounts): void {
  project.get('/repository/compare', { auth: 'public' }, (ctx, p) => {
    requireAbility(ctx, p, 'read_code');
    const from = strParam(ctx, 'from');
    const to = strParam(ctx, 'to');
    const missing = [...(from === undefined ? ['from'] : []), ...(to === undefined ? ['to'] : [])];
    if (missing.length > 0) throw E.missing(...missing);
    const w = ctx.world;
    const fromSha = w.repos.resolveRef(p.id, from!);
    const toSha = w.repos.resolveRef(p.id, to!);
    if (!fromSha || !toSha) throw E.notFound('Ref');
    const fromLine = w.repos.lineFrom(p.id, fromSha);
    const reachable = new Set(fromLine.map((c) => c.id));
    const toLine = w.repos.lineFrom(p.id, toSha);
    const commits = toLine.filter((c) => !reachable.has(c.id)).reverse();
    const mergeBase = toLine.find((c) => reachable.has(c.id))?.id ?? fromSha;
    const base = boolParam(ctx, 'straight') === true ? fromSha : mergeBase;
    const json = commits.map((c) => commitJson(w, p, c));
    sendJson(ctx, 200, {
      commit: json[json.length - 1] ?? null,
      commits: json,
      diffs: diffs(w, p, base, toSha),
      compare_timeout: false,
      // `compare.same`: both sides are one commit, whatever the refs were called.
      compare_same_ref: fromSha === toSha,
      web_url: `${w.base()}/${p.fullPath}/-/compare/${fromSha}...${toSha}`,
    });
  });
}
