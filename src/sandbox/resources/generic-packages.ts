// The generic package registry (lib/api/generic_packages.rb): `PUT …/packages/generic/:package_name/
// :package_version/:file_name` keeps the request's bytes (201 `{"message":"201 Created"}`), `GET` the same
// path gives them back as `application/octet-stream` with their Content-Length. A release links its
// binaries there, so the sandbox can serve the links it hands out.
import { E } from '../server/errors.js';
import { sendJson, sendText } from '../server/respond.js';
import { storeFor } from '../store/collection.js';
import { requireAbility, requireWritable } from './guards.js';
import type { Mounts } from './mounts.js';

const PATH = '/packages/generic/:package_name/:package_version/:file_name';
const NAME = /^[A-Za-z0-9._~+-]+$/;

/** project id → `name/version/file` → bytes */
const packages = storeFor(() => new Map<number, Map<string, Buffer>>());

export function mountGenericPackages({ project }: Mounts): void {
  project.put(PATH, { auth: 'user', job: true }, (ctx, p) => {
    requireAbility(ctx, p, 'push_code');
    requireWritable(p);
    for (const key of ['package_name', 'package_version', 'file_name']) if (!NAME.test(ctx.p[key]!)) throw E.invalid(key);
    const files = packages(ctx.world).get(p.id) ?? new Map<string, Buffer>();
    packages(ctx.world).set(p.id, files);
    files.set(`${ctx.p.package_name}/${ctx.p.package_version}/${ctx.p.file_name}`, ctx.bodyBuf);
    sendJson(ctx, 201, { message: '201 Created' });
  });
  project.get(PATH, { auth: 'public', job: true }, (ctx, p) => {
    requireAbility(ctx, p, 'read_code');
    const bytes = packages(ctx.world).get(p.id)?.get(`${ctx.p.package_name}/${ctx.p.package_version}/${ctx.p.file_name}`);
    if (!bytes) throw E.notFound('Package');
    sendText(ctx, 200, bytes, 'application/octet-stream', { 'Content-Disposition': `attachment; filename="${ctx.p.file_name}"` });
  });
}
