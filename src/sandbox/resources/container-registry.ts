// A project's container registry (lib/api/project_container_repositories.rb,
// entities/container_registry.rb, app/services/projects/container_repository/cleanup_tags_service.rb,
// api/validations/validators/untrusted_regexp.rb): repositories and their tags, the tag details a
// clean-up plans from, one tag's delete, and the asynchronous bulk delete the service allows once an
// hour per repository; one repository by id (container_repositories.rb), a group's
// (group_container_repositories.rb) and a repository's delete (README, "Container registry").
import { can, canReadGroup, canReadProject } from '../access.js';
import type { Ctx } from '../server/context.js';
import { ApiError, E } from '../server/errors.js';
import { isKeyset, keysetNext, pageOf } from '../server/paging.js';
import { boolParam, enumParam, intParam, intSeg, SORTS, strParam } from '../server/params.js';
import { sendJson, sendList } from '../server/respond.js';
import { perProjectStore, storeFor } from '../store/collection.js';
import type { GroupRec, ProjectRec } from '../store/records.js';
import type { World } from '../store/world.js';
import { sha256 } from '../util/digest.js';
import { iso } from '../util/time.js';
import type { Mounts } from './mounts.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;
/** How long after the 202 the bulk delete's worker runs, on the sandbox's clock. */
export const CLEANUP_DELAY_MS = 500;
const LEASE_MS = HOUR;
const LEASE_TAKEN = 'This request has already been made. You can run this at most once an hour for a given container repository';

interface TagRec {
  name: string;
  createdAt: number;
  size: number;
}

interface RepoRec {
  id: number;
  projectId: number;
  name: string;
  createdAt: number;
  tags: TagRec[];
  cleanupStartedAt: number | null;
  /** When the last bulk delete took the repository's one-hour lease. */
  leaseAt: number | null;
  /** When its deletion's worker runs: `delete_scheduled` until then, gone after. */
  deleteAt: number | null;
}

interface PendingCleanup {
  repo: RepoRec;
  runAt: number;
  params: CleanupParams;
}

interface CleanupParams {
  nameRegexDelete: string;
  nameRegexKeep?: string;
  keepN?: number;
  olderThan?: string;
}

/** Seeded tags of a project's root image: name and age in hours at the store's first use. */
const ROOT_TAGS: Array<[string, number]> = [
  ['latest', 2],
  ['main', 12],
  ['v1.0.0', 120 * 24],
  ['v1.1.0', 60 * 24],
  ['v2.0.0', 10 * 24],
  ...Array.from({ length: 8 }, (_, k): [string, number] => [`dev-${k + 1}`, (40 - 5 * k) * 24 + 3]),
];
const WORKER_TAGS: Array<[string, number]> = [
  ['latest', 1],
  ['stable', 20 * 24],
  ...Array.from({ length: 4 }, (_, k): [string, number] => [`build-${k + 1}`, (50 - 15 * k) * 24 + 5]),
];

const pendingCleanups = storeFor(() => ({ list: [] as PendingCleanup[] }));

function seededRepos(w: World, p: ProjectRec, at: number): RepoRec[] {
  if (p.id > w.seededProjects) return [];
  const repo = (k: number, name: string, tags: Array<[string, number]>): RepoRec => ({
    id: (p.id - 1) * 2 + k,
    projectId: p.id,
    name,
    createdAt: p.createdAt,
    cleanupStartedAt: null,
    leaseAt: null,
    deleteAt: null,
    tags: tags.map(([tag, hours], i) => ({
      name: tag,
      createdAt: at - hours * HOUR,
      size: 20_000_000 + (w.h(91, p.id, k, i) % 80_000_000),
    })),
  });
  return [repo(1, '', ROOT_TAGS), repo(2, 'worker', WORKER_TAGS)];
}

const allReposOf = perProjectStore(seededRepos);

/** A project's repositories, less those whose deletion ran by now. */
const reposOf = (w: World, p: ProjectRec) => allReposOf(w, p).filter((r) => r.deleteAt === null || r.deleteAt > w.now());

function repoPath(w: World, r: RepoRec): string {
  const p = w.projects.get(r.projectId)!;
  return r.name === '' ? p.fullPath : `${p.fullPath}/${r.name}`;
}

/** The registry's host: the service's host on the registry's usual port. */
function registryHost(w: World): string {
  return `${new URL(w.base()).hostname}:5050`;
}

function tagJson(w: World, r: RepoRec, t: TagRec): Record<string, unknown> {
  const path = `${repoPath(w, r)}:${t.name}`;
  return { name: t.name, path, location: `${registryHost(w)}/${path}` };
}

function tagDetails(w: World, r: RepoRec, t: TagRec): Record<string, unknown> {
  const revision = sha256(`config:${r.id}:${t.name}:${t.createdAt}`);
  return {
    ...tagJson(w, r, t),
    revision,
    short_revision: revision.slice(0, 9),
    digest: `sha256:${sha256(`manifest:${r.id}:${t.name}:${t.createdAt}`)}`,
    created_at: iso(t.createdAt),
    total_size: t.size,
  };
}

function repoJson(ctx: Ctx, r: RepoRec, withTags: boolean, withCount: boolean): Record<string, unknown> {
  const w = ctx.world;
  const path = repoPath(w, r);
  return {
    id: r.id,
    name: r.name,
    path,
    project_id: r.projectId,
    location: `${registryHost(w)}/${path}`,
    created_at: iso(r.createdAt),
    cleanup_policy_started_at: r.cleanupStartedAt === null ? null : iso(r.cleanupStartedAt),
    ...(withCount ? { tags_count: r.tags.length } : {}),
    ...(withTags ? { tags: sortedTags(r).map((t) => tagJson(w, r, t)) } : {}),
    status: r.deleteAt === null ? null : 'delete_scheduled',
  };
}

function sortedTags(r: RepoRec): TagRec[] {
  return [...r.tags].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** `authorize_read_container_images!`: the registry of a public or internal project is as visible as the project. */
function requireRead(ctx: Ctx, p: ProjectRec): void {
  if (p.visibility !== 'private') return;
  if (!can(ctx.world, ctx.user, p, 'read_container_image')) throw E.forbidden();
}

/** `user_project.container_repositories.find(params[:repository_id])`, after the bulk deletes due by now. */
function repoOf(ctx: Ctx, p: ProjectRec): RepoRec {
  const id = intSeg(ctx, 'repository_id');
  runDueCleanups(ctx.world);
  const r = reposOf(ctx.world, p).find((x) => x.id === id);
  if (!r) throw E.findNotFound();
  return r;
}

/** `Gitlab::UntrustedRegexp` (RE2): no look-around and no back-references, which RE2 does not have. */
function re2(source: string): RegExp {
  if (/\(\?<?[=!]|\\[1-9]/.test(source)) throw new SyntaxError('invalid perl operator');
  return new RegExp(`^(?:${source})$`, 'u');
}

function regexParam(ctx: Ctx, name: string): string | undefined {
  const value = strParam(ctx, name);
  if (value === undefined) return undefined;
  try {
    re2(value);
  } catch (error) {
    throw new ApiError(400, { error: `${name} is an invalid regexp: ${(error as Error).message}` });
  }
  return value;
}

const DURATION_UNITS: Array<[RegExp, number]> = [
  [/^(s|secs?|seconds?)$/, 1000],
  [/^(m|mins?|minutes?)$/, 60_000],
  [/^(h|hrs?|hours?)$/, HOUR],
  [/^(d|days?)$/, DAY],
  [/^(w|wks?|weeks?)$/, 7 * DAY],
  [/^(mo|mos|months?)$/, 30 * DAY],
  [/^(y|yrs?|years?)$/, 365 * DAY],
];

/** `ChronicDuration.parse` for the forms the service documents (`1h`, `1d`, `1month`, `2 weeks`); null when it reads none. */
function durationMs(text: string): number | null {
  const m = /^\s*(\d+)\s*([a-z]+)\s*$/i.exec(text);
  if (!m) return null;
  const unit = DURATION_UNITS.find(([re]) => re.test(m[2]!.toLowerCase()));
  return unit ? Number(m[1]) * unit[1] : null;
}

/** The clean-up worker: CleanupTagsService's filters, in its order. */
function runCleanup(w: World, job: PendingCleanup): void {
  const { repo, params } = job;
  repo.cleanupStartedAt = job.runAt;
  const deleteRe = re2(params.nameRegexDelete);
  const keepRe = re2(params.nameRegexKeep ?? '');
  let tags = repo.tags.filter((t) => t.name !== 'latest' && deleteRe.test(t.name) && !keepRe.test(t.name));
  if (params.keepN !== undefined) tags = [...tags].sort((a, b) => b.createdAt - a.createdAt).slice(Math.max(0, params.keepN));
  if (params.olderThan !== undefined) {
    const age = durationMs(params.olderThan);
    // ChronicDuration reads nothing: the worker fails and deletes nothing.
    if (age === null) return;
    tags = tags.filter((t) => t.createdAt < w.now() - age);
  }
  const doomed = new Set(tags);
  repo.tags = repo.tags.filter((t) => !doomed.has(t));
}

function runDueCleanups(w: World): void {
  const s = pendingCleanups(w);
  const due = s.list.filter((job) => job.runAt <= w.now());
  if (due.length === 0) return;
  s.list = s.list.filter((job) => job.runAt > w.now());
  for (const job of due) runCleanup(w, job);
}

function bulkDelete(ctx: Ctx, p: ProjectRec): void {
  const nameRegex = regexParam(ctx, 'name_regex');
  const nameRegexDelete = regexParam(ctx, 'name_regex_delete');
  const nameRegexKeep = regexParam(ctx, 'name_regex_keep');
  const keepN = intParam(ctx, 'keep_n');
  const olderThan = strParam(ctx, 'older_than');
  if (nameRegex === undefined && nameRegexDelete === undefined) throw E.atLeastOne('name_regex', 'name_regex_delete');
  const repo = repoOf(ctx, p);
  if (!can(ctx.world, ctx.user, p, 'destroy_container_image')) throw E.forbidden();
  const w = ctx.world;
  const now = w.now();
  if (repo.leaseAt !== null && now - repo.leaseAt < LEASE_MS) throw E.badRequest(LEASE_TAKEN);
  repo.leaseAt = now;
  const params = { nameRegexDelete: (nameRegexDelete ?? nameRegex)!, nameRegexKeep, keepN, olderThan };
  pendingCleanups(w).list.push({ repo, runAt: now + CLEANUP_DELAY_MS, params });
  // Grape renders the value of `status :accepted`, the status itself.
  sendJson(ctx, 202, 202);
}

function deleteTag(ctx: Ctx, p: ProjectRec): void {
  const repo = repoOf(ctx, p);
  if (!can(ctx.world, ctx.user, p, 'destroy_container_image')) throw E.forbidden();
  const tag = repo.tags.find((t) => t.name === ctx.p.tag_name);
  // DeleteTagsService finds nothing to delete: the endpoint's `bad_request!`.
  if (!tag) throw E.badRequest('400 Bad request');
  repo.tags = repo.tags.filter((t) => t !== tag);
  sendJson(ctx, 200, 200);
}

function listTags(ctx: Ctx, repo: RepoRec): void {
  const w = ctx.world;
  if (!isKeyset(ctx)) {
    sendList(
      ctx,
      pageOf(ctx, sortedTags(repo)).map((t) => tagJson(w, repo, t)),
    );
    return;
  }
  const desc = enumParam(ctx, 'sort', SORTS) === 'desc';
  const perPage = Math.min(100, Math.max(1, intParam(ctx, 'per_page') ?? 20));
  const last = strParam(ctx, 'last');
  const ordered = desc ? sortedTags(repo).reverse() : sortedTags(repo);
  const after = last === undefined ? ordered : ordered.filter((t) => (desc ? t.name < last : t.name > last));
  const page = after.slice(0, perPage);
  if (after.length > perPage) {
    keysetNext(
      ctx,
      [
        ['last', page[page.length - 1]!.name],
        ['per_page', String(perPage)],
        ['sort', desc ? 'desc' : 'asc'],
      ],
      ['page'],
    );
  }
  sendList(
    ctx,
    page.map((t) => tagJson(w, repo, t)),
  );
}

/** `GET /registry/repositories/:id` (lib/api/container_repositories.rb): `ContainerRepository.find`, then `read_container_image`. */
function oneRepository(ctx: Ctx): void {
  const w = ctx.world;
  const id = intSeg(ctx, 'repository_id');
  // Seeded repositories are numbered two per project, in project order.
  const p = w.projects.get(Math.floor((id - 1) / 2) + 1);
  const r = p ? reposOf(w, p).find((x) => x.id === id) : undefined;
  if (!p || !r) throw E.findNotFound();
  if (!canReadProject(w, ctx.user, p)) throw E.forbidden();
  requireRead(ctx, p);
  const json = repoJson(ctx, r, boolParam(ctx, 'tags') ?? false, boolParam(ctx, 'tags_count') ?? false);
  sendJson(ctx, 200, boolParam(ctx, 'size') === true ? { ...json, size: null } : json);
}

/** `GET /groups/:id/registry/repositories`: the repositories of the projects under the group whose registry the caller reads, by id. */
function groupRepositories(ctx: Ctx, g: GroupRec): void {
  const w = ctx.world;
  if (!canReadGroup(w, ctx.user, g)) throw E.forbidden();
  runDueCleanups(w);
  const under = w.groupSubtree(g.id);
  const visible = (p: ProjectRec) =>
    canReadProject(w, ctx.user, p) && (p.visibility !== 'private' || can(w, ctx.user, p, 'read_container_image'));
  const repos = w.allIds
    .map((id) => w.projects.get(id)!)
    .filter((p) => p.nsKind === 'group' && under.has(p.nsOwner) && visible(p))
    .flatMap((p) => reposOf(w, p))
    .sort((a, b) => a.id - b.id);
  sendList(
    ctx,
    pageOf(ctx, repos).map((r) => repoJson(ctx, r, false, false)),
  );
}

/** `DELETE …/registry/repositories/:repository_id`: the worker deletes it a moment later; 202 with the status as the body. */
function deleteRepository(ctx: Ctx, p: ProjectRec): void {
  const repo = repoOf(ctx, p);
  if (!can(ctx.world, ctx.user, p, 'destroy_container_image')) throw E.forbidden();
  repo.deleteAt ??= ctx.world.now() + CLEANUP_DELAY_MS;
  sendJson(ctx, 202, 202);
}

export function mountContainerRegistry({ root, project, group }: Mounts): void {
  root.get('/registry/repositories/:repository_id', { auth: 'user' }, oneRepository);
  group.get('/registry/repositories', { auth: 'public' }, groupRepositories);
  project.delete('/registry/repositories/:repository_id', { auth: 'public', job: true }, (ctx, p) => {
    requireRead(ctx, p);
    deleteRepository(ctx, p);
  });
  const route = { auth: 'public' as const, job: true };
  const read = (handler: (ctx: Ctx, p: ProjectRec) => void) => (ctx: Ctx, p: ProjectRec) => {
    requireRead(ctx, p);
    handler(ctx, p);
  };
  project.get(
    '/registry/repositories',
    route,
    read((ctx, p) => {
      const withTags = boolParam(ctx, 'tags') ?? false;
      const withCount = boolParam(ctx, 'tags_count') ?? false;
      runDueCleanups(ctx.world);
      sendList(
        ctx,
        pageOf(ctx, reposOf(ctx.world, p)).map((r) => repoJson(ctx, r, withTags, withCount)),
      );
    }),
  );
  project.get(
    '/registry/repositories/:repository_id/tags',
    route,
    read((ctx, p) => listTags(ctx, repoOf(ctx, p))),
  );
  project.get(
    '/registry/repositories/:repository_id/tags/:tag_name',
    route,
    read((ctx, p) => {
      const repo = repoOf(ctx, p);
      const tag = repo.tags.find((t) => t.name === ctx.p.tag_name);
      if (!tag) throw E.notFound('Tag');
      sendJson(ctx, 200, tagDetails(ctx.world, repo, tag));
    }),
  );
  project.delete('/registry/repositories/:repository_id/tags', route, read(bulkDelete));
  project.delete('/registry/repositories/:repository_id/tags/:tag_name', route, read(deleteTag));
}
