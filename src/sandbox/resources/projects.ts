// Projects: `GET /projects` (filters, orderings, offset and keyset pages),
// `GET /projects/:id`, `POST /projects`; the lifecycle writes are in project-lifecycle.ts.
import { can } from '../access.js';
import type { Ctx } from '../server/context.js';
import { E } from '../server/errors.js';
import { isKeyset, keysetNext, keysetNotAvailable, offsetPage, pageParams } from '../server/paging.js';
import { boolParam, enumParam, intParam, SORTS, strParam } from '../server/params.js';
import { sendRawJson } from '../server/respond.js';
import { PROJECT_ORDER_KEYS, type ProjectOrderKey } from '../store/project-order.js';
import type { ProjectRec, Visibility } from '../store/records.js';
import { slugify } from '../util/slug.js';
import { lowerBound, upperBound } from '../util/sorted.js';
import { instanceSettings } from './instance-settings.js';
import type { Mounts } from './mounts.js';
import { pathFormatError, VISIBILITIES } from './paths.js';
import type { NamespaceRef } from '../entities/namespace.js';
import { ask, offer } from '../engine/ports.js';
import { projectFilter, similarityOrder } from './project-filters.js';
import { projectJsonText } from '../entities/project.js';

const ORDERS = [...PROJECT_ORDER_KEYS, 'similarity'] as const;
function listProjects(ctx: Ctx): void {
  const w = ctx.world;
  const user = ctx.user;
  const orderBy = enumParam(ctx, 'order_by', ORDERS);
  const sort = enumParam(ctx, 'sort', SORTS, 'desc');
  const keyset = isKeyset(ctx);
  if (keyset && orderBy !== 'id') throw keysetNotAvailable();
  const search = strParam(ctx, 'search');
  // `similarity` only means something with a search; without one the default order applies.
  const key: ProjectOrderKey = orderBy === undefined || orderBy === 'similarity' ? 'created_at' : orderBy;
  const storage = strParam(ctx, 'repository_storage');
  let ids = w.projectOrders.sorted(key, user, storage !== undefined && user?.isAdmin ? storage : undefined);
  const keep = projectFilter(ctx);
  if (keep) ids = ids.filter((id) => keep(w.projects.get(id)!));
  let at: (k: number) => number;
  let lo = 0;
  let hi = ids.length;
  if (orderBy === 'similarity' && search) {
    const ranked = similarityOrder(w, ids, search, sort);
    at = (k) => ranked[k]!;
  } else {
    const idAfter = intParam(ctx, 'id_after');
    const idBefore = intParam(ctx, 'id_before');
    if (key !== 'id' && (idAfter !== undefined || idBefore !== undefined)) {
      ids = ids.filter((id) => (idAfter === undefined || id > idAfter) && (idBefore === undefined || id < idBefore));
      hi = ids.length;
    }
    if (key === 'id' && idAfter !== undefined) lo = upperBound(ids, idAfter);
    if (key === 'id' && idBefore !== undefined) hi = lowerBound(ids, idBefore);
    if (hi < lo) hi = lo;
    const list = ids;
    at = (k) => (sort === 'asc' ? list[lo + k]! : list[hi - 1 - k]!);
  }
  const view = { viewer: user, basic: !user || boolParam(ctx, 'simple') === true, statistics: boolParam(ctx, 'statistics') === true };
  const render = (id: number) => projectJsonText(w, w.projects.get(id)!, view);
  const pick = (off: number, lim: number) => {
    const out: number[] = [];
    for (let k = off; k < off + lim; k++) out.push(at(k));
    return out;
  };
  if (keyset) {
    const page = pick(0, Math.min(pageParams(ctx).perPage, hi - lo));
    if (page.length > 0)
      keysetNext(ctx, [[sort === 'asc' ? 'id_after' : 'id_before', String(page[page.length - 1])]], ['id_after', 'id_before', 'page']);
    sendRawJson(ctx, 200, `[${page.map(render).join(',')}]`);
    return;
  }
  const page = offsetPage(ctx, hi - lo, pick, { maxOffsetType: 'Project' });
  sendRawJson(ctx, 200, `[${page.map(render).join(',')}]`);
}

// Kept for the resources of branches in flight that import them from here.
export { pathFormatError, VISIBILITIES } from './paths.js';

export interface NewProject {
  name?: string;
  path?: string;
  /** namespace id or full path */
  namespace?: string;
  description?: string | null;
  visibility?: string;
  storage?: string;
  /** the repository: the synthetic one (imports), an empty one, one with a README, or a copy of a fork's parent */
  repository: 'synthetic' | 'empty' | 'readme' | { forkOf: number };
}

/** Create a project (POST /projects and imports). Throws ApiError on invalid input. */
export function createProject(ctx: Ctx, input: NewProject): ProjectRec {
  const w = ctx.world;
  const user = ctx.user!;
  let { name, path } = input;
  if (!name && !path) throw E.atLeastOne('name', 'path');
  if (!path) path = slugify(name!);
  if (!name) name = path;
  const visibility = input.visibility ?? instanceSettings(w).default_project_visibility;
  if (!(VISIBILITIES as readonly string[]).includes(visibility)) throw E.notValid('visibility');
  let ns: NamespaceRef = { kind: 'user', owner: user.id };
  if (input.namespace !== undefined && input.namespace !== '') {
    const found = ask('findNamespace')(w, input.namespace);
    if (!found) throw E.notFound('Namespace');
    if (!ask('canUseNamespace')(ctx, found)) throw E.validation({ namespace: ['is not valid'] });
    ns = found;
  }
  const errors: Record<string, string[]> = {};
  if (w.projectNames.has(`${ns.kind}:${ns.owner}\n${name.toLowerCase()}`)) errors.name = ['has already been taken'];
  const nsPath = w.nsFullPath({ nsKind: ns.kind, nsOwner: ns.owner });
  const badPath = pathFormatError(path);
  if (badPath) errors.path = [badPath];
  else if (w.projectsByPath.has(`${nsPath}/${path}`.toLowerCase())) errors.path = ['has already been taken'];
  if (Object.keys(errors).length > 0) throw E.validation(errors);
  let storage = w.pickStorageByWeight();
  if (input.storage !== undefined && user.isAdmin) {
    if (!w.storages.includes(input.storage)) throw E.validation({ repository_storage: ['is not included in the list'] });
    storage = input.storage;
  }
  const p = newProjectRec(
    { id: w.projects.nextId(), name, path, nsKind: ns.kind, nsOwner: ns.owner, visibility: visibility as Visibility, storage },
    { description: input.description ?? null, creatorId: user.id },
    w.now(),
  );
  w.addProject(p);
  const repo = input.repository;
  if (repo === 'empty' || repo === 'readme') {
    w.repos.createOwn(p.id, repo === 'readme' ? Buffer.from(`# ${name}\n`) : null, [user.name, user.email]);
  } else if (repo !== 'synthetic') {
    w.repos.copyOwn(repo.forkOf, p.id);
  }
  return p;
}

/** A project as created (through the API or by a scenario): no stars, not archived, issues and merge requests on. */
export function newProjectRec(
  where: Pick<ProjectRec, 'id' | 'name' | 'path' | 'nsKind' | 'nsOwner' | 'visibility' | 'storage'>,
  about: Pick<ProjectRec, 'description' | 'creatorId'>,
  at: number,
): ProjectRec {
  return {
    ...where,
    ...about,
    fullPath: '',
    readOnly: false,
    createdAt: at,
    lastActivityAt: at,
    starCount: 0,
    importStatus: 'none',
    seeded: false,
    archived: false,
    topics: [],
    issuesEnabled: true,
    mergeRequestsEnabled: true,
  };
}

export function mountProjects({ root, project }: Mounts): void {
  offer('createProject', createProject);
  root.get('/projects', { auth: 'public' }, listProjects);
  root.post('/projects', { auth: 'user' }, (ctx) => {
    // `namespace_id` is an Integer parameter; there is no `namespace` parameter here.
    const nsId = intParam(ctx, 'namespace_id');
    const p = createProject(ctx, {
      name: strParam(ctx, 'name'),
      path: strParam(ctx, 'path'),
      namespace: nsId === undefined ? undefined : String(nsId),
      description: strParam(ctx, 'description') ?? null,
      visibility: strParam(ctx, 'visibility'),
      storage: strParam(ctx, 'repository_storage'),
      repository: boolParam(ctx, 'initialize_with_readme') === true ? 'readme' : 'empty',
    });
    sendRawJson(ctx, 201, projectJsonText(ctx.world, p, { viewer: ctx.user, basic: false, statistics: false }));
  });
  project.get('', { auth: 'public' }, (ctx, p) => {
    const statistics = boolParam(ctx, 'statistics') === true && can(ctx.world, ctx.user, p, 'read_build');
    sendRawJson(ctx, 200, projectJsonText(ctx.world, p, { viewer: ctx.user, basic: false, statistics }));
  });
}
