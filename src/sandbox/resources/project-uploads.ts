// Files uploaded to a project for its issues, merge requests and notes (lib/api/projects.rb `uploads`,
// entities/project_upload.rb, markdown_upload.rb): `POST` takes a multipart
// `file` and answers 201 `{id, alt, url, full_path, markdown}` (an image's markdown embeds it); the list,
// a download by id or by secret and filename, and deletes are for maintainers. The secret is 32 hex
// digits derived from the project, the upload's id and its name (README, "Uploads").
import { can } from '../access.js';
import type { Ctx } from '../server/context.js';
import { E } from '../server/errors.js';
import { pageOf } from '../server/paging.js';
import { sendJson, sendList, sendText } from '../server/respond.js';
import { storeFor } from '../store/collection.js';
import type { ProjectRec } from '../store/records.js';
import { sha1 } from '../util/digest.js';
import { iso } from '../util/time.js';
import { requireAbility } from './guards.js';
import type { Mounts } from './mounts.js';

interface UploadRec {
  id: number;
  projectId: number;
  secret: string;
  filename: string;
  contentType: string;
  data: Buffer;
  userId: number;
  at: number;
}

const uploads = storeFor(() => ({ list: [] as UploadRec[], nextId: 1 }));

const IMAGE = /\.(png|jpe?g|gif|bmp|svg|webp|ico|tiff?)$/i;

function uploadedJson(u: UploadRec): Record<string, unknown> {
  const url = `/uploads/${u.secret}/${u.filename}`;
  const alt = u.filename.replace(/\.[^.]*$/, '');
  return {
    id: u.id,
    alt,
    url,
    full_path: `/-/project/${u.projectId}/uploads/${u.secret}/${u.filename}`,
    markdown: IMAGE.test(u.filename) ? `![${alt}](${url})` : `[${u.filename}](${url})`,
  };
}

function listedJson(ctx: Ctx, u: UploadRec): Record<string, unknown> {
  const user = ctx.world.users.get(u.userId);
  return {
    id: u.id,
    size: u.data.length,
    filename: u.filename,
    created_at: iso(u.at),
    uploaded_by: user ? { id: user.id, username: user.username, name: user.name } : null,
  };
}

function findUpload(ctx: Ctx, p: ProjectRec): UploadRec {
  requireAbility(ctx, p, 'admin_project');
  const { upload_id: id, secret, filename } = ctx.p;
  const found = uploads(ctx.world).list.find(
    (u) => u.projectId === p.id && (id !== undefined ? String(u.id) === id : u.secret === secret && u.filename === filename),
  );
  if (!found) throw E.notFound('Upload');
  return found;
}

function remove(ctx: Ctx, p: ProjectRec): void {
  const list = uploads(ctx.world).list;
  list.splice(list.indexOf(findUpload(ctx, p)), 1);
  sendJson(ctx, 204, null);
}

function download(ctx: Ctx, p: ProjectRec): void {
  const u = findUpload(ctx, p);
  sendText(ctx, 200, u.data, u.contentType || 'application/octet-stream', {
    'Content-Disposition': `attachment; filename="${u.filename.replace(/"/g, '')}"`,
  });
}

export function mountProjectUploads({ project }: Mounts): void {
  project.post('/uploads', { auth: 'user' }, (ctx, p) => {
    if (!can(ctx.world, ctx.user, p, 'read_issue')) throw E.forbidden();
    const file = ctx.files.file;
    if (!file) throw E.missing('file');
    const store = uploads(ctx.world);
    const id = store.nextId++;
    const filename = file.filename.replace(/[^\w.\-+]/g, '_') || 'file';
    const rec: UploadRec = {
      id,
      projectId: p.id,
      secret: sha1(Buffer.from(`${p.id}:${id}:${filename}`)).slice(0, 32),
      filename,
      contentType: file.contentType,
      data: file.data,
      userId: ctx.user!.id,
      at: ctx.world.now(),
    };
    store.list.push(rec);
    sendJson(ctx, 201, uploadedJson(rec));
  });
  project.get('/uploads', { auth: 'user' }, (ctx, p) => {
    requireAbility(ctx, p, 'admin_project');
    const list = uploads(ctx.world).list.filter((u) => u.projectId === p.id);
    sendList(
      ctx,
      pageOf(ctx, list).map((u) => listedJson(ctx, u)),
    );
  });
  project.get('/uploads/:upload_id', { auth: 'user' }, download);
  project.get('/uploads/:secret/:filename', { auth: 'user' }, download);
  project.delete('/uploads/:upload_id', { auth: 'user' }, remove);
  project.delete('/uploads/:secret/:filename', { auth: 'user' }, remove);
}
