// `GET …/repository/archive[.format]` (lib/api/repositories.rb `send_git_archive`, app/models/repository.rb
// `archive_metadata`, Workhorse's `setArchiveHeaders`): the files of a ref as a real archive under the folder
// `<project path>-<ref>-<sha>`, named so in `Content-Disposition`, streamed without a Content-Length. An
// unknown ref or an empty repository is `404 File Not Found` (the route rescues every failure so).
import { ask } from '../engine/ports.js';
import { gzipSync } from 'node:zlib';
import type { Ctx } from '../server/context.js';
import { E } from '../server/errors.js';
import { strParam } from '../server/params.js';
import { sendStreamed } from '../server/respond.js';
import type { ProjectRec } from '../store/records.js';
import { buildTar, type TarEntry } from '../util/tar.js';
import { buildZip } from '../util/zip.js';
import { requireAbility } from './guards.js';
import type { Mounts } from './mounts.js';

type Kind = 'tar.gz' | 'tar' | 'zip' | 'tar.bz2';

/** The route's formats (`Gitlab::PathRegex.archive_formats_regex`) and the archive each makes. */
const FORMATS: Record<string, Kind> = {
  'tar.gz': 'tar.gz',
  tgz: 'tar.gz',
  gz: 'tar.gz',
  tar: 'tar',
  zip: 'zip',
  'tar.bz2': 'tar.bz2',
  tbz: 'tar.bz2',
  tbz2: 'tar.bz2',
  tb2: 'tar.bz2',
  bz2: 'tar.bz2',
};

/** Every directory and file under the prefix folder, in git's tree order (a directory sorts as `name/`). */
function entries(prefix: string, files: Map<string, Buffer>, executable: (path: string) => boolean): TarEntry[] {
  const out: TarEntry[] = [{ name: `${prefix}/`, data: Buffer.alloc(0), mode: 0o775 }];
  const walk = (dir: string) => {
    const children = new Map<string, boolean>();
    for (const path of files.keys()) {
      if (!path.startsWith(dir)) continue;
      const rest = path.slice(dir.length);
      const slash = rest.indexOf('/');
      children.set(slash < 0 ? rest : `${rest.slice(0, slash)}/`, slash >= 0);
    }
    for (const [key, isDir] of [...children].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const path = dir + key;
      if (isDir) {
        out.push({ name: `${prefix}/${path}`, data: Buffer.alloc(0), mode: 0o775 });
        walk(path);
      } else out.push({ name: `${prefix}/${path}`, data: files.get(path)!, mode: executable(path) ? 0o775 : 0o664 });
    }
  };
  walk('');
  return out;
}

function sendArchive(ctx: Ctx, p: ProjectRec, format: string | undefined): void {
  requireAbility(ctx, p, 'read_code');
  const w = ctx.world;
  const kind = FORMATS[format ?? 'tar.gz']!;
  const ref = strParam(ctx, 'sha') || 'main';
  const sha = w.repos.isEmpty(p.id) ? null : w.repos.resolveRef(p.id, ref);
  // No bzip2 encoder here: the sandbox cannot make that archive, and answers as the service does when it fails.
  if (!sha || kind === 'tar.bz2') throw E.notFound('File');
  const branch = ask('branchOf')(ctx, p, ref, sha);
  const prefix = `${p.path}-${ref.replaceAll('/', '-')}-${sha}`;
  const list = entries(prefix, ask('branchFiles')(w, p.id, branch), (path) => ask('isExecutable')(w, p.id, branch, path));
  const mtime = Math.floor(w.repos.findCommit(p.id, sha)!.createdAt / 1000);
  const tar = () => buildTar(list, sha, mtime);
  const body = kind === 'zip' ? buildZip(list) : kind === 'tar' ? tar() : gzipSync(tar());
  sendStreamed(ctx, 200, body, kind === 'zip' ? 'application/zip' : 'application/octet-stream', {
    'Content-Disposition': `attachment; filename="${prefix}.${kind}"`,
    'Content-Transfer-Encoding': 'binary',
  });
}

export function mountArchives({ project }: Mounts): void {
  project.get('/repository/archive', { auth: 'public' }, (ctx, p) => sendArchive(ctx, p, undefined));
  for (const format of Object.keys(FORMATS)) {
    project.get(`/repository/archive.${format}`, { auth: 'public' }, (ctx, p) => sendArchive(ctx, p, format));
  }
}
