// Repository files: `GET|HEAD …/repository/files/:file_path`, `…/raw`, and
// the writes (create, update, delete), which a repository being moved refuses.
import type { Ctx } from '../server/context.js';
import { E } from '../server/errors.js';
import { strParam } from '../server/params.js';
import { sendJson, sendText } from '../server/respond.js';
import { storeFor } from '../store/collection.js';
import type { ProjectRec } from '../store/records.js';
import type { World } from '../store/world.js';
import { setDefaultBranch } from '../store/default-branches.js';
import { requireAbility, requireWritable } from './guards.js';
import { offer } from '../engine/ports.js';
import type { Mounts } from './mounts.js';

/** project id → branch → path → content written through the API (null: deleted) */
const written = storeFor(() => new Map<number, Map<string, Map<string, Buffer | null>>>());
/** project id → branch → the paths made executable through the API (every other file is 100644) */
const executables = storeFor(() => new Map<number, Map<string, Set<string>>>());

function isExecutable(w: World, pid: number, branch: string, path: string): boolean {
  return executables(w).get(pid)?.get(branch)?.has(path) ?? false;
}

function setExecutable(w: World, pid: number, branch: string, path: string, on: boolean): void {
  const byBranch = executables(w).get(pid) ?? new Map<string, Set<string>>();
  executables(w).set(pid, byBranch);
  const paths = byBranch.get(branch) ?? new Set<string>();
  byBranch.set(branch, paths);
  if (on) paths.add(path);
  else paths.delete(path);
}

function fileAt(w: World, pid: number, branch: string, path: string): Buffer | undefined {
  const own = written(w).get(pid)?.get(branch);
  if (own?.has(path)) return own.get(path) ?? undefined;
  return w.repos.files(pid, branch).get(path);
}

/** Every file of a branch as reads see it: the synthetic repository with the API's writes on top. */
function branchFiles(w: World, pid: number, branch: string): Map<string, Buffer> {
  const files = new Map(w.repos.files(pid, branch));
  for (const [path, content] of written(w).get(pid)?.get(branch) ?? []) {
    if (content) files.set(path, content);
    else files.delete(path);
  }
  return files;
}

/**
 * A branch made through the API starts with the files of the branch it was made from, writes
 * included; a name used again starts clean, without the writes of the branch deleted before.
 */
function startBranchFiles(w: World, pid: number, branch: string, from: string | undefined): void {
  const byBranch = written(w).get(pid);
  const source = from === undefined ? undefined : byBranch?.get(from);
  if (source) byBranch!.set(branch, new Map(source));
  else byBranch?.delete(branch);
  const modes = executables(w).get(pid);
  const sourceModes = from === undefined ? undefined : modes?.get(from);
  if (sourceModes) modes!.set(branch, new Set(sourceModes));
  else modes?.delete(branch);
}

/** Keeps a file written through the API on a branch (null: deleted). */
function writeFile(w: World, pid: number, branch: string, path: string, content: Buffer | null): void {
  w.repos.changeBranch(pid, branch, () => keepFile(w, pid, branch, path, content));
}

function keepFile(w: World, pid: number, branch: string, path: string, content: Buffer | null): void {
  const byProject = written(w);
  let byBranch = byProject.get(pid);
  if (!byBranch) {
    byBranch = new Map();
    byProject.set(pid, byBranch);
  }
  let files = byBranch.get(branch);
  if (!files) {
    files = new Map();
    byBranch.set(branch, files);
  }
  files.set(path, content);
}

function requireRef(ctx: Ctx, p: ProjectRec, ref: string | undefined): string {
  if (ref === undefined || ref === '') throw E.missing('ref');
  const sha = ctx.world.repos.resolveRef(p.id, ref);
  if (!sha) throw E.notFound('Commit');
  return sha;
}

function fileHeaders(
  name: string,
  path: string,
  ref: string,
  sha: string,
  blob: { blobId: string; sha256: string },
  size: number,
): Record<string, string> {
  return {
    'X-Gitlab-Blob-Id': blob.blobId,
    'X-Gitlab-Commit-Id': sha,
    'X-Gitlab-Content-Sha256': blob.sha256,
    'X-Gitlab-Encoding': 'base64',
    'X-Gitlab-File-Name': name,
    'X-Gitlab-File-Path': path,
    'X-Gitlab-Last-Commit-Id': sha,
    'X-Gitlab-Ref': ref,
    'X-Gitlab-Size': String(size),
    'X-Gitlab-Execute-Filemode': 'false',
  };
}

/** The branch whose files a ref reads: itself, or the branch its commit lies on (a tag, a SHA). */
function branchOf(ctx: Ctx, p: ProjectRec, ref: string, sha: string): string {
  const r = ref === 'HEAD' ? 'main' : ref;
  return ctx.world.repos.hasBranch(p.id, r) ? r : ctx.world.repos.branchForSha(p.id, sha);
}

/** Checks shared by the three writes; returns the branch and the current content. */
function prepareWrite(ctx: Ctx, p: ProjectRec, needsContent: boolean): { branch: string; current: Buffer | undefined; content: Buffer } {
  requireAbility(ctx, p, 'push_code');
  const missing = ['branch', 'commit_message', ...(needsContent ? ['content'] : [])].filter((k) => strParam(ctx, k) === undefined);
  if (missing.length > 0) throw E.missing(...missing);
  requireWritable(p);
  const branch = strParam(ctx, 'branch')!;
  // The first commit of an empty repository creates its branch, which becomes the default one.
  const empty = ctx.world.repos.isEmpty(p.id);
  if (!empty && !ctx.world.repos.hasBranch(p.id, branch)) throw E.badRequest('You can only create or edit files when you are on a branch');
  const text = strParam(ctx, 'content') ?? '';
  const content = strParam(ctx, 'encoding') === 'base64' ? Buffer.from(text, 'base64') : Buffer.from(text);
  return { branch, current: empty ? undefined : fileAt(ctx.world, p.id, branch, ctx.p.file_path!), content };
}

/**
 * Keeps a write. A created project's repository records it as a commit (the first one creates the
 * branch and makes it the default); the synthetic repositories of seeded projects make none.
 */
function commitWrite(ctx: Ctx, p: ProjectRec, branch: string, content: Buffer | null): void {
  const w = ctx.world;
  const path = ctx.p.file_path!;
  if (!w.repos.isSynthetic(p.id)) {
    if (w.repos.isEmpty(p.id)) setDefaultBranch(w, p.id, branch);
    w.repos.commit(p.id, branch, strParam(ctx, 'commit_message')!, [ctx.user!.name, ctx.user!.email], [path]);
  }
  writeFile(w, p.id, branch, path, content);
}

export function mountFiles({ project }: Mounts): void {
  offer('writeFile', writeFile);
  offer('isExecutable', isExecutable);
  offer('setExecutable', setExecutable);
  offer('branchFiles', branchFiles);
  offer('startBranchFiles', startBranchFiles);
  offer('branchOf', branchOf);
  project.get('/repository/files/:file_path', { auth: 'public' }, (ctx, p) => {
    requireAbility(ctx, p, 'read_code');
    const ref = strParam(ctx, 'ref');
    const sha = requireRef(ctx, p, ref);
    const path = ctx.p.file_path!;
    const branch = branchOf(ctx, p, ref!, sha);
    const content = fileAt(ctx.world, p.id, branch, path);
    if (!content) throw E.notFound('File');
    const blob = ctx.world.repos.fileBlob(content);
    const name = path.split('/').pop()!;
    const body = {
      file_name: name,
      file_path: path,
      size: content.length,
      encoding: 'base64',
      content: content.toString('base64'),
      content_sha256: blob.sha256,
      ref,
      blob_id: blob.blobId,
      commit_id: sha,
      last_commit_id: sha,
      execute_filemode: isExecutable(ctx.world, p.id, branch, path),
    };
    sendJson(ctx, 200, body, ctx.method === 'HEAD' ? fileHeaders(name, path, ref!, sha, blob, content.length) : {});
  });
  project.get('/repository/files/:file_path/raw', { auth: 'public', job: true }, (ctx, p) => {
    requireAbility(ctx, p, 'read_code');
    const ref = strParam(ctx, 'ref') || 'main';
    const sha = requireRef(ctx, p, ref);
    const path = ctx.p.file_path!;
    const content = fileAt(ctx.world, p.id, branchOf(ctx, p, ref, sha), path);
    if (!content) throw E.notFound('File');
    const blob = ctx.world.repos.fileBlob(content);
    const type = path.endsWith('.png') ? 'image/png' : 'text/plain; charset=utf-8';
    sendText(ctx, 200, content, type, fileHeaders(path.split('/').pop()!, path, ref, sha, blob, content.length));
  });
  project.post('/repository/files/:file_path', { auth: 'user' }, (ctx, p) => {
    const { branch, current, content } = prepareWrite(ctx, p, true);
    if (current) throw E.badRequest('A file with this name already exists');
    commitWrite(ctx, p, branch, content);
    sendJson(ctx, 201, { file_path: ctx.p.file_path, branch });
  });
  project.put('/repository/files/:file_path', { auth: 'user' }, (ctx, p) => {
    const { branch, current, content } = prepareWrite(ctx, p, true);
    if (!current) throw E.badRequest("A file with this name doesn't exist");
    commitWrite(ctx, p, branch, content);
    sendJson(ctx, 200, { file_path: ctx.p.file_path, branch });
  });
  project.delete('/repository/files/:file_path', { auth: 'user' }, (ctx, p) => {
    const { branch, current } = prepareWrite(ctx, p, false);
    if (!current) throw E.badRequest("A file with this name doesn't exist");
    commitWrite(ctx, p, branch, null);
    sendJson(ctx, 204, null);
  });
}
