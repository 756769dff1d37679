// A project's package registry (lib/api/project_packages.rb, package_files.rb, entities/package.rb,
// package_file.rb, package_version.rb, app/finders/packages/packages_finder.rb): packages with their
// versions and files; a delete marks the package for destruction, so it leaves every list and read
// at once (README, "Packages").
import { can } from '../access.js';
import type { Ctx } from '../server/context.js';
import { E } from '../server/errors.js';
import { pageOf } from '../server/paging.js';
import { boolParam, enumParam, intSeg, SORTS, strParam } from '../server/params.js';
import { sendJson, sendList } from '../server/respond.js';
import { perProjectStore } from '../store/collection.js';
import type { ProjectRec } from '../store/records.js';
import type { World } from '../store/world.js';
import { createHash } from 'node:crypto';
import { iso } from '../util/time.js';
import type { Mounts } from './mounts.js';

/** `Packages::Package.package_types`, in the enum's order (what `order_by=type` sorts by). */
const PACKAGE_TYPES = [
  'maven',
  'npm',
  'conan',
  'nuget',
  'pypi',
  'composer',
  'generic',
  'golang',
  'debian',
  'rubygems',
  'helm',
  'terraform_module',
  'rpm',
  'ml_model',
  'cargo',
] as const;
const STATUSES = ['default', 'hidden', 'processing', 'error', 'pending_destruction', 'deprecated'] as const;
/** `Packages::Package::DISPLAYABLE_STATUSES` and `INSTALLABLE_STATUSES`. */
const DISPLAYABLE = new Set(['default', 'error', 'deprecated']);
const INSTALLABLE = new Set(['default', 'hidden', 'deprecated']);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

interface FileRec {
  id: number;
  fileName: string;
  size: number;
  createdAt: number;
}

interface PackageRec {
  id: number;
  projectId: number;
  name: string;
  version: string;
  type: (typeof PACKAGE_TYPES)[number];
  status: (typeof STATUSES)[number];
  createdAt: number;
  files: FileRec[];
}

/** Seeded packages of every seeded project: name, type, versions (oldest first) and the file names of one version. */
const SEEDED: Array<{ name: (p: ProjectRec) => string; type: PackageRec['type']; versions: string[]; files: (v: string) => string[] }> = [
  {
    name: () => 'app-bundle',
    type: 'generic',
    versions: ['1.0.0', '1.1.0', '1.2.0', '1.3.0', '1.4.0', '1.5.0'],
    files: (v) => [`app-${v}.tar.gz`],
  },
  {
    name: (p) => `@${p.fullPath.split('/')[0]}/client`,
    type: 'npm',
    versions: ['0.1.0', '0.2.0', '0.3.0'],
    files: (v) => [`client-${v}.tgz`],
  },
  {
    name: () => 'com/acme/core',
    type: 'maven',
    versions: ['1.0', '1.1'],
    files: (v) => [`core-${v}.jar`, `core-${v}.pom`, 'maven-metadata.xml'],
  },
];
const PER_PROJECT = 12;

function seeded(w: World, p: ProjectRec, at: number): PackageRec[] {
  if (p.id > w.seededProjects) return [];
  const list: PackageRec[] = [];
  for (const [k, spec] of SEEDED.entries()) {
    for (const [i, version] of spec.versions.entries()) {
      const id = (p.id - 1) * PER_PROJECT + list.length + 1;
      // Older versions first, a week or more apart, so that ages and keep-n both have something to choose.
      const createdAt = at - ((spec.versions.length - i) * 9 + k) * DAY - (w.h(93, p.id, id) % 12) * HOUR;
      const files = spec.files(version).map((fileName, j) => ({
        id: id * 10 + j + 1,
        fileName,
        size: 1_000 + (w.h(94, id, j) % 5_000_000),
        createdAt: createdAt + j * 1000,
      }));
      list.push({ id, projectId: p.id, name: spec.name(p), version, type: spec.type, status: 'default', createdAt, files });
    }
  }
  return list;
}

const packagesOf = perProjectStore(seeded);

function packageJson(ctx: Ctx, p: ProjectRec, pkg: PackageRec, single: boolean): Record<string, unknown> {
  const w = ctx.world;
  const links: Record<string, string> = { web_path: `/${p.fullPath}/-/packages/${pkg.id}` };
  if (can(w, ctx.user, p, 'destroy_package')) links.delete_api_path = `${w.base()}/api/v4/projects/${p.id}/packages/${pkg.id}`;
  const json: Record<string, unknown> = {
    id: pkg.id,
    name: pkg.name,
    version: pkg.version,
    package_type: pkg.type,
    status: pkg.status,
    _links: links,
    created_at: iso(pkg.createdAt),
    last_downloaded_at: null,
    tags: [],
  };
  if (single) {
    json.versions = packagesOf(w, p)
      .filter((o) => o !== pkg && o.name === pkg.name && o.type === pkg.type && INSTALLABLE.has(o.status))
      .sort((a, b) => b.createdAt - a.createdAt)
      .map((o) => ({ id: o.id, version: o.version, created_at: iso(o.createdAt), tags: [] }));
  }
  return json;
}

function fileJson(pkg: PackageRec, f: FileRec): Record<string, unknown> {
  const seed = `${pkg.id}:${f.fileName}`;
  const hash = (algorithm: string) => createHash(algorithm).update(seed).digest('hex');
  return {
    id: f.id,
    package_id: pkg.id,
    created_at: iso(f.createdAt),
    file_name: f.fileName,
    size: f.size,
    file_md5: hash('md5'),
    file_sha1: hash('sha1'),
    file_sha256: hash('sha256'),
  };
}

/** `authorize_packages_access!`: the packages of a public or internal project are as visible as the project. */
function requireRead(ctx: Ctx, p: ProjectRec): void {
  if (p.visibility !== 'private') return;
  if (!can(ctx.world, ctx.user, p, 'read_package')) throw E.forbidden();
}

/** `Packages::PackageFinder`: an installable package of the project, else `find`'s 404. */
function packageOf(ctx: Ctx, p: ProjectRec): PackageRec {
  const id = intSeg(ctx, 'package_id');
  const pkg = packagesOf(ctx.world, p).find((x) => x.id === id && INSTALLABLE.has(x.status));
  if (!pkg) throw E.findNotFound();
  return pkg;
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const ORDERS = {
  created_at: (a: PackageRec, b: PackageRec) => a.createdAt - b.createdAt,
  name: (a: PackageRec, b: PackageRec) => compareText(a.name, b.name),
  version: (a: PackageRec, b: PackageRec) => compareText(a.version, b.version),
  type: (a: PackageRec, b: PackageRec) => PACKAGE_TYPES.indexOf(a.type) - PACKAGE_TYPES.indexOf(b.type),
};

function listPackages(ctx: Ctx, p: ProjectRec): void {
  const orderBy = enumParam(ctx, 'order_by', ['created_at', 'name', 'version', 'type'] as const, 'created_at');
  const sort = enumParam(ctx, 'sort', SORTS, 'asc');
  const type = enumParam(ctx, 'package_type', PACKAGE_TYPES);
  const name = strParam(ctx, 'package_name');
  const version = strParam(ctx, 'package_version');
  const status = enumParam(ctx, 'status', STATUSES);
  const includeVersionless = boolParam(ctx, 'include_versionless');
  void includeVersionless; // every seeded package has a version
  const order = ORDERS[orderBy];
  const list = packagesOf(ctx.world, p)
    .filter((pkg) => (status ? pkg.status === status : DISPLAYABLE.has(pkg.status)))
    .filter((pkg) => !type || pkg.type === type)
    .filter((pkg) => name === undefined || pkg.name.toLowerCase().includes(name.toLowerCase()))
    .filter((pkg) => version === undefined || pkg.version === version)
    .sort((a, b) => (sort === 'asc' ? 1 : -1) * (order(a, b) || a.id - b.id));
  sendList(
    ctx,
    pageOf(ctx, list).map((pkg) => packageJson(ctx, p, pkg, false)),
  );
}

function listFiles(ctx: Ctx, p: ProjectRec): void {
  const pkg = packageOf(ctx, p);
  const orderBy = enumParam(ctx, 'order_by', ['id', 'created_at', 'file_name'] as const, 'id');
  const sort = enumParam(ctx, 'sort', SORTS, 'asc');
  const key = (f: FileRec) => (orderBy === 'file_name' ? f.fileName : orderBy === 'created_at' ? f.createdAt : f.id);
  const files = [...pkg.files].sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    return (sort === 'asc' ? 1 : -1) * (x < y ? -1 : x > y ? 1 : a.id - b.id);
  });
  sendList(
    ctx,
    pageOf(ctx, files).map((f) => fileJson(pkg, f)),
  );
}

export function mountPackages({ project }: Mounts): void {
  const route = { auth: 'public' as const, job: true };
  const read = (handler: (ctx: Ctx, p: ProjectRec) => void) => (ctx: Ctx, p: ProjectRec) => {
    requireRead(ctx, p);
    handler(ctx, p);
  };
  project.get('/packages', route, read(listPackages));
  project.get(
    '/packages/:package_id',
    route,
    read((ctx, p) => sendJson(ctx, 200, packageJson(ctx, p, packageOf(ctx, p), true))),
  );
  project.get('/packages/:package_id/package_files', route, read(listFiles));
  project.delete(
    '/packages/:package_id',
    route,
    read((ctx, p) => {
      if (!can(ctx.world, ctx.user, p, 'destroy_package')) throw E.forbidden();
      packageOf(ctx, p).status = 'pending_destruction';
      sendJson(ctx, 204, null);
    }),
  );
}
