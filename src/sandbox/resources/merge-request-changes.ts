// What a merge request changes: the files of its source branch against its
// target branch, as reads of the repository see them, with a unified diff
// per file in the shape of `…/diffs` and `…/changes` (reference endpoints §2).
import type { World } from '../store/world.js';
import { ask } from '../engine/ports.js';
import type { MergeRequestRec } from './merge-request-store.js';

const CONTEXT = 3;

export interface FileChange {
  old_path: string;
  new_path: string;
  a_mode: string;
  b_mode: string;
  new_file: boolean;
  renamed_file: boolean;
  deleted_file: boolean;
  generated_file: boolean;
  diff: string;
}

export function mergeRequestChanges(w: World, mr: MergeRequestRec): FileChange[] {
  const before = ask('branchFiles')(w, mr.projectId, mr.targetBranch);
  const after = ask('branchFiles')(w, mr.projectId, mr.sourceBranch);
  const paths = [...new Set([...before.keys(), ...after.keys()])].sort();
  const out: FileChange[] = [];
  for (const path of paths) {
    const a = before.get(path);
    const b = after.get(path);
    if (a && b && a.equals(b)) continue;
    out.push(fileChange(path, a, b));
  }
  return out;
}

/** One file's change from `a` to `b` (undefined: no file there), its diff empty for binary content. */
export function fileChange(path: string, a: Buffer | undefined, b: Buffer | undefined): FileChange {
  return {
    old_path: path,
    new_path: path,
    a_mode: a ? '100644' : '0',
    b_mode: b ? '100644' : '0',
    new_file: !a,
    renamed_file: false,
    deleted_file: !b,
    generated_file: false,
    diff: isBinary(a) || isBinary(b) ? '' : unifiedDiff(lines(a), lines(b)),
  };
}

function isBinary(content: Buffer | undefined): boolean {
  return content?.includes(0) === true;
}

function lines(content: Buffer | undefined): string[] {
  if (!content || content.length === 0) return [];
  const text = content.toString('utf8');
  return (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
}

/** Hunks (`@@ -a,n +b,m @@`) of a line diff by longest common subsequence, with 3 lines of context. */
export function unifiedDiff(a: string[], b: string[]): string {
  const ops = lineOps(a, b);
  let text = '';
  let i = 0;
  while (i < ops.length) {
    if (ops[i]!.kind === ' ') {
      i++;
      continue;
    }
    const start = Math.max(0, i - CONTEXT);
    let end = i;
    // Extend while the next change is within two contexts of the last one.
    for (let j = i; j < ops.length; j++) if (ops[j]!.kind !== ' ' && j - end <= 2 * CONTEXT) end = j;
    end = Math.min(ops.length, end + CONTEXT + 1);
    const hunk = ops.slice(start, end);
    const oldCount = hunk.filter((o) => o.kind !== '+').length;
    const newCount = hunk.filter((o) => o.kind !== '-').length;
    const oldStart = oldCount === 0 ? ops[start]!.a : ops[start]!.a + 1;
    const newStart = newCount === 0 ? ops[start]!.b : ops[start]!.b + 1;
    text += `@@ -${oldStart},${oldCount} +${newStart},${newCount} @@\n`;
    for (const o of hunk) text += `${o.kind}${o.line}\n`;
    i = end;
  }
  return text;
}

interface Op {
  kind: ' ' | '-' | '+';
  line: string;
  /** lines of a and b before this one */
  a: number;
  b: number;
}

function lineOps(a: string[], b: string[]): Op[] {
  const common: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      common[i]![j] = a[i] === b[j] ? common[i + 1]![j + 1]! + 1 : Math.max(common[i + 1]![j]!, common[i]![j + 1]!);
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) ops.push({ kind: ' ', line: a[i]!, a: i++, b: j++ });
    // Removals before additions, as git prints them.
    else if (i < a.length && (j === b.length || common[i + 1]![j]! >= common[i]![j + 1]!))
      ops.push({ kind: '-', line: a[i]!, a: i++, b: j });
    else ops.push({ kind: '+', line: b[j]!, a: i, b: j++ });
  }
  return ops;
}
