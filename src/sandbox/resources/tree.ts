// Repository tree: `GET …/repository/tree` (`path`, `ref`, `recursive`;
// `pagination` legacy (offset, counted), keyset (Gitaly: `page_token` = the
// last entry's id) or none (recursive only)). Directories come before files.
import type { Ctx } from '../server/context.js';
import { ApiError, E } from '../server/errors.js';
import { pageOf } from '../server/paging.js';
import { boolParam, enumParam, strParam } from '../server/params.js';
import { sendList } from '../server/respond.js';
import type { ProjectRec } from '../store/records.js';
import { sha1 } from '../util/digest.js';
import { gitalyKeysetPage } from './refs.js';
import { ask } from '../engine/ports.js';
import { requireAbility } from './guards.js';
import type { Mounts } from './mounts.js';

interface TreeEntry {
  id: string;
  name: string;
  type: 'tree' | 'blob';
  path: string;
  mode: string;
}

/** The entries under `dir` (every level with `recursive`): trees first, then blobs, each by path. */
function treeEntries(
  ctx: Ctx,
  p: ProjectRec,
  sha: string,
  branch: string,
  files: Map<string, Buffer>,
  dir: string,
  recursive: boolean,
): TreeEntry[] {
  const prefix = dir ? `${dir}/` : '';
  const trees = new Map<string, TreeEntry>();
  const blobs: TreeEntry[] = [];
  for (const [path, content] of files) {
    if (!path.startsWith(prefix)) continue;
    const parts = path.slice(prefix.length).split('/');
    const depth = recursive ? parts.length - 1 : Math.min(1, parts.length - 1);
    for (let i = 1; i <= depth; i++) {
      const treePath = prefix + parts.slice(0, i).join('/');
      trees.set(treePath, {
        id: sha1(`tree:${p.id}:${sha}:${treePath}`),
        name: parts[i - 1]!,
        type: 'tree',
        path: treePath,
        mode: '040000',
      });
    }
    if (recursive || parts.length === 1) {
      const mode = ask('isExecutable')(ctx.world, p.id, branch, path) ? '100755' : '100644';
      blobs.push({ id: ctx.world.repos.fileBlob(content).blobId, name: parts[parts.length - 1]!, type: 'blob', path, mode });
    }
  }
  const byPath = (a: TreeEntry, b: TreeEntry) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  return [...[...trees.values()].sort(byPath), ...blobs.sort(byPath)];
}

export function mountTree({ project }: Mounts): void {
  project.get('/repository/tree', { auth: 'public' }, (ctx, p) => {
    requireAbility(ctx, p, 'read_code');
    const ref = strParam(ctx, 'ref') || 'main';
    const recursive = boolParam(ctx, 'recursive') === true;
    const pagination = enumParam(ctx, 'pagination', ['legacy', 'keyset', 'none'] as const, 'legacy');
    if (pagination === 'none' && !recursive) throw new ApiError(400, { message: 'pagination=none is only allowed with recursive=true' });
    const sha = ctx.world.repos.resolveRef(p.id, ref);
    if (!sha) throw E.notFound('Tree');
    const branch = ask('branchOf')(ctx, p, ref, sha);
    const files = ask('branchFiles')(ctx.world, p.id, branch);
    const entries = treeEntries(ctx, p, sha, branch, files, (strParam(ctx, 'path') ?? '').replace(/^\/+|\/+$/g, ''), recursive);
    if (pagination === 'none') return sendList(ctx, entries);
    sendList(ctx, pagination === 'keyset' ? gitalyKeysetPage(ctx, entries, (e) => e.id) : pageOf(ctx, entries));
  });
}
