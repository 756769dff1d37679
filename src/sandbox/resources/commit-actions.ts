// `POST …/repository/commits` (lib/api/commits.rb, app/services/files/multi_service.rb,
// app/services/commits/create_service.rb, lib/gitlab/gitaly_client/operation_service.rb
// `index_error_message`): several file actions as one commit, all applied or none. Grape checks the
// parameters first (400 `{"error":…}`), then `authorize_push_to_branch!` (403), then the service's own
// checks and Gitaly's index errors (400 `{"message":…}`). The answer is 201 with the commit's detail.
import { ask } from '../engine/ports.js';
import type { Ctx } from '../server/context.js';
import { ApiError, E } from '../server/errors.js';
import { strParam } from '../server/params.js';
import { sendJson } from '../server/respond.js';
import type { ProjectRec } from '../store/records.js';
import { setDefaultBranch } from '../store/default-branches.js';
import { requireAbility, requireWritable } from './guards.js';
import type { Mounts } from './mounts.js';

const ACTIONS = ['create', 'update', 'move', 'delete', 'chmod'] as const;
type ActionName = (typeof ACTIONS)[number];

interface Action {
  action: ActionName;
  file_path: string;
  previous_path?: string;
  content?: Buffer;
  execute_filemode?: boolean;
}

/** Grape's checks of `actions[]`, in its words: `actions[0][file_path] is missing`. */
function parseActions(ctx: Ctx): Action[] {
  const raw = ctx.params.actions;
  if (!Array.isArray(raw)) throw E.invalid('actions');
  return raw.map((entry: unknown, i): Action => {
    const at = (key: string) => `actions[${i}][${key}]`;
    if (typeof entry !== 'object' || entry === null) throw E.invalid(`actions[${i}]`);
    const a = entry as Record<string, unknown>;
    const text = (key: string): string | undefined => {
      const v = a[key];
      if (v === undefined || v === null) return undefined;
      if (typeof v !== 'string') throw E.invalid(at(key));
      return v;
    };
    const action = text('action');
    if (action === undefined) throw E.missing(at('action'));
    if (!(ACTIONS as readonly string[]).includes(action)) throw E.notValid(at('action'));
    const filePath = text('file_path');
    if (filePath === undefined) throw E.missing(at('file_path'));
    const encoding = text('encoding') ?? 'text';
    if (encoding !== 'text' && encoding !== 'base64') throw E.notValid(at('encoding'));
    const content = text('content');
    if (action === 'update' && content === undefined) throw E.missing(at('content'));
    const previous = text('previous_path');
    if (action === 'move' && previous === undefined) throw E.missing(at('previous_path'));
    const mode = a.execute_filemode;
    if (action === 'chmod' && mode === undefined) throw E.missing(at('execute_filemode'));
    if (mode !== undefined && typeof mode !== 'boolean') throw E.invalid(at('execute_filemode'));
    return {
      action: action as ActionName,
      file_path: filePath,
      previous_path: previous,
      content: content === undefined ? undefined : Buffer.from(content, encoding === 'base64' ? 'base64' : 'utf8'),
      execute_filemode: mode as boolean | undefined,
    };
  });
}

/** Gitaly's path checks (`index_error_message`). */
function checkPath(path: string): void {
  if (path === '') throw E.badRequest('You must provide a file path');
  if (path.split('/').includes('..')) throw E.badRequest('Path cannot include directory traversal');
}

function lines(content: Buffer): string[] {
  const text = content.toString('utf8');
  if (text === '') return [];
  return (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
}

function isBinary(content: Buffer): boolean {
  if (content.includes(0)) return true;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(content);
    return false;
  } catch {
    return true;
  }
}

/** Lines added and deleted from `before` to `after`: the changed run between the common first and last lines. */
function lineStats(before: Buffer | undefined, after: Buffer | undefined): { additions: number; deletions: number } {
  if ((before && isBinary(before)) || (after && isBinary(after))) return { additions: 0, deletions: 0 };
  const a = before ? lines(before) : [];
  const b = after ? lines(after) : [];
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  return { additions: b.length - head - tail, deletions: a.length - head - tail };
}

interface Change {
  files: Map<string, Buffer>;
  /** path → executable or not, for the paths whose mode this commit sets */
  modes: Map<string, boolean>;
  written: Map<string, Buffer | null>;
  stats: { additions: number; deletions: number };
}

/** The actions applied in order to a copy of the start branch's files; the first one that cannot apply refuses all. */
function applyActions(files: Map<string, Buffer>, wasExecutable: (path: string) => boolean, actions: Action[]): Change {
  const change: Change = { files, modes: new Map(), written: new Map(), stats: { additions: 0, deletions: 0 } };
  const exists = (path: string) => files.has(path);
  const executable = (path: string) => change.modes.get(path) ?? wasExecutable(path);
  const put = (path: string, content: Buffer | null) => {
    const before = files.get(path);
    const stats = lineStats(before, content ?? undefined);
    change.stats.additions += stats.additions;
    change.stats.deletions += stats.deletions;
    if (content) files.set(path, content);
    else files.delete(path);
    change.written.set(path, content);
    if (!content) change.modes.set(path, false);
  };
  for (const a of actions) {
    checkPath(a.file_path);
    if (a.action === 'create') {
      if (exists(a.file_path)) throw E.badRequest('A file with this name already exists');
      if ([...files.keys()].some((f) => f.startsWith(`${a.file_path}/`))) throw E.badRequest('A directory with this name already exists');
      put(a.file_path, a.content ?? Buffer.alloc(0));
      continue;
    }
    const source = a.action === 'move' ? a.previous_path! : a.file_path;
    checkPath(source);
    if (!exists(source)) throw E.badRequest("A file with this name doesn't exist");
    if (a.action === 'update') put(a.file_path, a.content!);
    else if (a.action === 'delete') put(a.file_path, null);
    else if (a.action === 'chmod') change.modes.set(a.file_path, a.execute_filemode!);
    else {
      if (exists(a.file_path)) throw E.badRequest('A file with this name already exists');
      const content = a.content ?? files.get(source)!;
      const mode = executable(source);
      put(source, null);
      put(a.file_path, content);
      change.modes.set(a.file_path, mode);
    }
  }
  return change;
}

/** `Commits::CreateService#validate!`: the start branch, and a new branch that must not exist yet. */
function startingPoint(ctx: Ctx, p: ProjectRec, branch: string, start: string, empty: boolean): void {
  const repos = ctx.world.repos;
  if (!empty && !repos.hasBranch(p.id, start)) throw E.badRequest('You can only create or edit files when you are on a branch');
  if (!empty && start !== branch && repos.hasBranch(p.id, branch)) {
    throw E.badRequest(`A branch called '${branch}' already exists. Switch to that branch in order to make changes`);
  }
}

function createCommit(ctx: Ctx, p: ProjectRec): void {
  const missing = ['branch', 'commit_message', 'actions'].filter((k) => ctx.params[k] === undefined || ctx.params[k] === null);
  if (missing.length > 0) throw E.missing(...missing);
  const branch = strParam(ctx, 'branch')!;
  if (branch === '') throw new ApiError(400, { error: 'branch is empty' });
  const message = strParam(ctx, 'commit_message')!;
  const actions = parseActions(ctx);
  if (!ask('mayPushTo')(ctx.world, ctx.user, p, branch)) throw E.forbidden('You are not allowed to push into this branch');
  requireWritable(p);
  const w = ctx.world;
  const start = strParam(ctx, 'start_branch') || branch;
  const empty = w.repos.isEmpty(p.id);
  startingPoint(ctx, p, branch, start, empty);
  const startFiles = empty ? new Map<string, Buffer>() : ask('branchFiles')(w, p.id, start);
  const change = applyActions(new Map(startFiles), (path) => ask('isExecutable')(w, p.id, start, path), actions);
  // Everything applies: only now does the repository change.
  if (start !== branch && !empty) {
    w.repos.addBranch(p.id, branch, w.repos.resolveRef(p.id, start)!);
    ask('startBranchFiles')(w, p.id, branch, start);
  }
  if (empty) setDefaultBranch(w, p.id, branch);
  const user = ctx.user!;
  const title = message.split('\n')[0]!;
  const paths = [...new Set([...change.written.keys(), ...change.modes.keys()])];
  const commit = w.repos.commit(p.id, branch, title, [user.name, user.email], paths, { message, stats: change.stats });
  const replaced = new Map([...change.written].map(([path, after]) => [path, { before: startFiles.get(path) ?? null, after }]));
  ask('recordCommitChange')(w, commit.id, replaced);
  for (const [path, content] of change.written) ask('writeFile')(w, p.id, branch, path, content);
  for (const [path, on] of change.modes) ask('setExecutable')(w, p.id, branch, path, on);
  sendJson(ctx, 201, ask('commitDetailJson')(w, p, commit));
}

export function mountCommitActions({ project }: Mounts): void {
  project.post('/repository/commits', { auth: 'user' }, (ctx, p) => {
    requireAbility(ctx, p, 'read_code');
    createCommit(ctx, p);
  });
}
