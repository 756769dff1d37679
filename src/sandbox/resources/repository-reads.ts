// Reads of a repository beyond files and commits (lib/api/repositories.rb, files.rb `blame`):
// `blobs/:sha` (`{size, encoding, content, sha}`) and `blobs/:sha/raw`, `404 Blob Not Found` for
// an unknown one; `merge_base` of two or more refs (`Provide at least 2 refs`, `Could not find
// ref(s): …`, `404 Merge Base Not Found`); `contributors` by commits, name or email; `blame` of a file
// at a ref. All need `read_code`. The sandbox's blame gives a file's lines to the newest commit of the
// ref that touched the file, in one range (README, "Repository reads").
import { ask } from '../engine/ports.js';
import type { Ctx } from '../server/context.js';
import { E } from '../server/errors.js';
import { pageOf } from '../server/paging.js';
import { enumParam, listParam, strParam } from '../server/params.js';
import { sendJson, sendList, sendText } from '../server/respond.js';
import type { CommitRec, ProjectRec } from '../store/records.js';
import { commitJson, touchedPaths } from '../entities/commit.js';
import { defaultBranch } from '../store/default-branches.js';
import { requireAbility } from './guards.js';
import type { Mounts } from './mounts.js';

/** The blob with this id on any branch, as reads see the branch. */
function findBlob(ctx: Ctx, p: ProjectRec, sha: string): Buffer | undefined {
  const w = ctx.world;
  if (!/^[0-9a-f]{40}$/.test(sha) || w.repos.isEmpty(p.id)) return undefined;
  for (const branch of w.repos.branchNames(p.id)) {
    for (const content of ask('branchFiles')(w, p.id, branch).values()) if (w.repos.fileBlob(content).blobId === sha) return content;
  }
  return undefined;
}

function blobOrThrow(ctx: Ctx, p: ProjectRec): Buffer {
  requireAbility(ctx, p, 'read_code');
  const content = findBlob(ctx, p, ctx.p.sha!);
  if (!content) throw E.notFound('Blob');
  return content;
}

function mergeBase(ctx: Ctx, p: ProjectRec): CommitRec | null {
  const refs = listParam(ctx, 'refs');
  if (refs === undefined) throw E.missing('refs');
  if (refs.length < 2) throw E.badRequest('Provide at least 2 refs');
  const w = ctx.world;
  const shas = refs.map((ref) => w.repos.resolveRef(p.id, ref));
  const unknown = refs.filter((_, i) => !shas[i]);
  if (unknown.length) throw E.badRequest(`Could not find ${unknown.length === 1 ? 'ref' : 'refs'}: ${unknown.join(', ')}`);
  const [first, ...others] = shas.map((sha) => w.repos.lineFrom(p.id, sha!));
  return first!.find((c) => others.every((line) => line.some((o) => o.id === c.id))) ?? null;
}

interface Contributor {
  name: string;
  email: string;
  commits: number;
}

function contributors(ctx: Ctx, p: ProjectRec): Contributor[] {
  const w = ctx.world;
  const byEmail = new Map<string, Contributor>();
  const branch = defaultBranch(w, p.id);
  for (const c of w.repos.isEmpty(p.id) ? [] : (w.repos.branchCommits(p.id, branch) ?? [])) {
    const json = commitJson(w, p, c);
    const email = String(json.author_email);
    const entry = byEmail.get(email) ?? { name: String(json.author_name), email, commits: 0 };
    entry.commits++;
    byEmail.set(email, entry);
  }
  const orderBy = enumParam(ctx, 'order_by', ['email', 'name', 'commits'] as const, 'commits');
  const sort = enumParam(ctx, 'sort', ['asc', 'desc'] as const, 'asc');
  const key = (c: Contributor) => c[orderBy];
  const list = [...byEmail.values()].sort((a, b) =>
    typeof key(a) === 'number' ? (key(a) as number) - (key(b) as number) : String(key(a)).localeCompare(String(key(b))),
  );
  return sort === 'desc' ? list.reverse() : list;
}

function blame(ctx: Ctx, p: ProjectRec): unknown[] {
  requireAbility(ctx, p, 'read_code');
  const ref = strParam(ctx, 'ref');
  if (ref === undefined || ref === '') throw E.missing('ref');
  const w = ctx.world;
  const sha = w.repos.resolveRef(p.id, ref);
  if (!sha) throw E.notFound('Commit');
  const path = ctx.p.file_path!;
  const content = ask('branchFiles')(w, p.id, ask('branchOf')(ctx, p, ref, sha)).get(path);
  if (!content) throw E.notFound('File');
  const line = w.repos.lineFrom(p.id, sha);
  const last = line.find((c) => touchedPaths(c)?.includes(path) ?? true) ?? line[0]!;
  const json = commitJson(w, p, last);
  const commit = Object.fromEntries(
    [
      'id',
      'parent_ids',
      'message',
      'authored_date',
      'author_name',
      'author_email',
      'committed_date',
      'committer_name',
      'committer_email',
    ].map((k) => [k, json[k]]),
  );
  const lines = content.toString('utf8').split('\n');
  if (lines.at(-1) === '') lines.pop();
  return [{ commit, lines }];
}

export function mountRepositoryReads({ project }: Mounts): void {
  project.get('/repository/blobs/:sha', { auth: 'public' }, (ctx, p) => {
    const content = blobOrThrow(ctx, p);
    sendJson(ctx, 200, { size: content.length, encoding: 'base64', content: content.toString('base64'), sha: ctx.p.sha });
  });
  project.get('/repository/blobs/:sha/raw', { auth: 'public' }, (ctx, p) => {
    const content = blobOrThrow(ctx, p);
    const binary = content.includes(0) || content.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    sendText(ctx, 200, content, binary ? 'application/octet-stream' : 'text/plain; charset=utf-8');
  });
  project.get('/repository/merge_base', { auth: 'public' }, (ctx, p) => {
    requireAbility(ctx, p, 'read_code');
    const base = mergeBase(ctx, p);
    if (!base) throw E.notFound('Merge Base');
    sendJson(ctx, 200, commitJson(ctx.world, p, base));
  });
  project.get('/repository/contributors', { auth: 'public' }, (ctx, p) => {
    requireAbility(ctx, p, 'read_code');
    sendList(
      ctx,
      pageOf(ctx, contributors(ctx, p)).map((c) => ({ ...c, additions: 0, deletions: 0 })),
    );
  });
  project.get('/repository/files/:file_path/blame', { auth: 'public' }, (ctx, p) => {
    sendJson(ctx, 200, blame(ctx, p));
  });
}
