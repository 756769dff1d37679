// Project export (reference endpoints §8, PEXP, PEXE): `POST /projects/:id/export` → 202, the
// status advancing on its own (`queued` → `started` → `finished` at 100 ms steps; `failed` when
// the description is `SANDBOX_EXPORT_FAIL`), and the archive (a small real tar.gz) once finished.
// Steps take `exportStepMs` (default 100 ms). Six requests per user per minute, as the service's default limit.
import { gzipSync } from 'node:zlib';
import type { Ctx } from '../server/context.js';
import { ApiError } from '../server/errors.js';
import { strParam } from '../server/params.js';
import { sendJson, sendText } from '../server/respond.js';
import { storeFor } from '../store/collection.js';
import type { ExportStatus, ProjectExportRec } from '../store/admin-records.js';
import type { ProjectRec } from '../store/records.js';
import { iso } from '../util/time.js';
import { requireAbility } from './guards.js';
import type { Mounts } from './mounts.js';
import { projectIdentity } from '../entities/project.js';

const FAILING_DESCRIPTION = 'SANDBOX_EXPORT_FAIL';

interface ExportState {
  current: ProjectExportRec;
  /** The archive of the last finished export, kept while a new one runs. */
  finished: ProjectExportRec | null;
}

const exportsOf = storeFor(() => new Map<number, ExportState>());

/** The service's default `project_export_limit`: requests per user per minute. */
const EXPORTS_PER_MINUTE = 6;
const requestTimes = storeFor(() => new Map<number, number[]>());

function checkRateLimit(ctx: Ctx): void {
  const now = Date.now();
  const recent = (requestTimes(ctx.world).get(ctx.user!.id) ?? []).filter((t) => now - t < 60_000);
  if (recent.length >= EXPORTS_PER_MINUTE) {
    throw new ApiError(429, { message: { error: 'This endpoint has been requested too many times. Try again later.' } });
  }
  requestTimes(ctx.world).set(ctx.user!.id, [...recent, now]);
}

function statusOf(rec: ProjectExportRec, stepMs: number): ExportStatus {
  const elapsed = Date.now() - rec.requestedAt;
  if (elapsed < stepMs) return 'queued';
  if (elapsed < 2 * stepMs) return 'started';
  return rec.description === FAILING_DESCRIPTION ? 'failed' : 'finished';
}

/** The state of a project's export; a finished run becomes the one to download. */
function settled(ctx: Ctx, projectId: number): { status: string; archive: ProjectExportRec | null } {
  const state = exportsOf(ctx.world).get(projectId);
  if (!state) return { status: 'none', archive: null };
  const status = statusOf(state.current, ctx.core.opts.exportStepMs);
  if (status === 'finished') state.finished = state.current;
  const running = status === 'queued' || status === 'started';
  return { status: running && state.finished ? 'regeneration_in_progress' : status, archive: state.finished };
}

function exportJson(ctx: Ctx, p: ProjectRec): Record<string, unknown> {
  const w = ctx.world;
  const { status } = settled(ctx, p.id);
  const out: Record<string, unknown> = { ...projectIdentity(w, p), export_status: status };
  if (status === 'finished') {
    out._links = {
      api_url: `${w.base()}/api/v4/projects/${p.id}/export/download`,
      web_url: `${w.base()}/${p.fullPath}/download_export`,
    };
  }
  return out;
}

/** One ustar entry: a 512-byte header and the content padded to 512 bytes. */
function tarEntry(name: string, content: Buffer, mtime: number): Buffer {
  const header = Buffer.alloc(512);
  const field = (offset: number, length: number, value: string) => header.write(value, offset, length, 'ascii');
  field(0, 100, name);
  field(100, 8, '0000644\0');
  field(108, 8, '0000000\0');
  field(116, 8, '0000000\0');
  field(124, 12, `${content.length.toString(8).padStart(11, '0')}\0`);
  field(
    136,
    12,
    `${Math.floor(mtime / 1000)
      .toString(8)
      .padStart(11, '0')}\0`,
  );
  field(148, 8, '        ');
  field(156, 1, '0');
  field(257, 8, 'ustar\u000000');
  let sum = 0;
  for (const byte of header) sum += byte;
  field(148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  const padding = Buffer.alloc((512 - (content.length % 512)) % 512);
  return Buffer.concat([header, content, padding]);
}

export function exportArchive(p: ProjectRec, rec: ProjectExportRec): Buffer {
  const project = Buffer.from(`${JSON.stringify({ name: p.name, path: p.path, description: p.description, visibility: p.visibility })}\n`);
  const tar = Buffer.concat([
    tarEntry('VERSION', Buffer.from('0.2.4\n'), rec.requestedAt),
    tarEntry('tree/project.json', project, rec.requestedAt),
    tarEntry('tree/project/export_note.txt', Buffer.from(`${rec.description ?? ''}\n`), rec.requestedAt),
    Buffer.alloc(1024),
  ]);
  return gzipSync(tar, { level: 6 });
}

export function mountProjectExport({ project }: Mounts): void {
  project.post('/export', { auth: 'user' }, (ctx, p) => {
    requireAbility(ctx, p, 'admin_project');
    checkRateLimit(ctx);
    const rec: ProjectExportRec = { projectId: p.id, requestedAt: Date.now(), description: strParam(ctx, 'description') ?? null };
    const state = exportsOf(ctx.world).get(p.id);
    if (state) settled(ctx, p.id);
    exportsOf(ctx.world).set(p.id, { current: rec, finished: state?.finished ?? null });
    sendJson(ctx, 202, { message: '202 Accepted' });
  });
  project.get('/export', { auth: 'user' }, (ctx, p) => {
    requireAbility(ctx, p, 'admin_project');
    sendJson(ctx, 200, exportJson(ctx, p));
  });
  project.get('/export/download', { auth: 'user' }, (ctx, p) => {
    requireAbility(ctx, p, 'admin_project');
    const { status, archive } = settled(ctx, p.id);
    if (!archive) {
      const pending = status === 'queued' || status === 'started';
      throw new ApiError(404, { message: pending ? 'The project export file is not available yet' : '404 Not found or has expired' });
    }
    const stamp = iso(archive.requestedAt).replace(/[-:]/g, '').replace('T', '_').slice(0, 15);
    sendText(ctx, 200, exportArchive(p, archive), 'application/octet-stream', {
      'Content-Disposition': `attachment; filename="${stamp}_${p.fullPath.replace(/\//g, '_')}_export.tar.gz"`,
    });
  });
}
