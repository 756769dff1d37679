// Releases: list (`order_by` released_at|created_at, `sort`,
// `include_html_description`), read by tag, create (reference endpoints §6).
// Seeded projects have releases for v1.0.0 and v1.1.0.
import { ApiError, E } from '../server/errors.js';
import { pageOf } from '../server/paging.js';
import { boolParam, enumParam, SORTS, strParam } from '../server/params.js';
import { sendJson, sendList } from '../server/respond.js';
import type { Ctx } from '../server/context.js';
import { ChildCollection, type Compare, ordered, storeFor } from '../store/collection.js';
import type { ProjectRec, ReleaseRec } from '../store/records.js';
import type { World } from '../store/world.js';
import { iso } from '../util.js';
import { commitJson } from './commits.js';
import { requireAbility, requireWritable } from './guards.js';
import type { Mounts } from './mounts.js';
import { userBasic } from './users.js';

const DAY = 86_400_000;
const SEEDED = ['v1.0.0', 'v1.1.0'];

const releases = storeFor(
  (w) =>
    new ChildCollection<string, ReleaseRec>({
      seededKeys: (pid) => (w.projects.get(pid)?.seeded ? SEEDED : []),
      derive(pid, tag) {
        const p = w.projects.get(pid);
        const i = SEEDED.indexOf(tag);
        if (!p?.seeded || i < 0) return null;
        const t = w.repos.tags(pid).find((x) => x.name === tag);
        if (!t) return null;
        const at = p.createdAt + (i + 1) * 5 * DAY + (w.h(90, pid, i) % 1000);
        return {
          tagName: tag,
          name: `Release ${tag}`,
          description: `Changes in ${tag}.`,
          createdAt: at,
          releasedAt: at,
          authorId: p.creatorId,
          sha: t.sha,
        };
      },
    }),
);

export function releaseOf(w: World, pid: number, tag: string): ReleaseRec | null {
  return releases(w).get(pid, tag);
}

function releaseJson(ctx: Ctx, p: ProjectRec, r: ReleaseRec): Record<string, unknown> {
  const w = ctx.world;
  const web = `${w.base()}/${p.fullPath}`;
  const commit = w.repos.findCommit(p.id, r.sha);
  const tagEnc = encodeURIComponent(r.tagName);
  const html = boolParam(ctx, 'include_html_description') === true;
  return {
    name: r.name,
    tag_name: r.tagName,
    description: r.description,
    ...(html ? { description_html: `<p data-sourcepos="1:1-1:${r.description.length}" dir="auto">${r.description}</p>` } : {}),
    created_at: iso(r.createdAt),
    released_at: iso(r.releasedAt),
    upcoming_release: r.releasedAt > Date.now(),
    author: userBasic(w, w.users.get(r.authorId) ?? w.users.get(1)!),
    commit: commit ? commitJson(w, p, commit) : null,
    commit_path: `/${p.fullPath}/-/commit/${r.sha}`,
    tag_path: `/${p.fullPath}/-/tags/${tagEnc}`,
    assets: {
      count: 4,
      sources: ['zip', 'tar.gz', 'tar.bz2', 'tar'].map((f) => ({ format: f, url: `${web}/-/archive/${tagEnc}/${p.path}-${tagEnc}.${f}` })),
      links: [],
    },
    evidences: [],
    _links: { self: `${web}/-/releases/${tagEnc}`, edit_url: `${web}/-/releases/${tagEnc}/edit` },
  };
}

const ORDERS: Record<string, Compare<ReleaseRec>> = {
  released_at: (a, b) => a.releasedAt - b.releasedAt || a.createdAt - b.createdAt,
  created_at: (a, b) => a.createdAt - b.createdAt,
};

export function mountReleases({ project }: Mounts): void {
  project.get('/releases', { auth: 'public', job: true }, (ctx, p) => {
    requireAbility(ctx, p, 'read_release');
    const orderBy = enumParam(ctx, 'order_by', ['released_at', 'created_at'] as const, 'released_at');
    const sort = enumParam(ctx, 'sort', SORTS, 'desc');
    const list = ordered(releases(ctx.world).list(p.id), ORDERS, orderBy, sort);
    sendList(
      ctx,
      pageOf(ctx, list).map((r) => releaseJson(ctx, p, r)),
    );
  });
  project.get('/releases/:tag_name', { auth: 'public', job: true }, (ctx, p) => {
    requireAbility(ctx, p, 'read_release');
    const r = releases(ctx.world).get(p.id, ctx.p.tag_name!);
    if (!r) throw E.notFound();
    sendJson(ctx, 200, releaseJson(ctx, p, r));
  });
  project.post('/releases', { auth: 'user', job: true }, (ctx, p) => {
    requireAbility(ctx, p, 'create_release');
    const tag = strParam(ctx, 'tag_name');
    if (!tag) throw E.missing('tag_name');
    const w = ctx.world;
    const store = releases(w);
    if (store.get(p.id, tag)) throw new ApiError(409, { message: 'Release already exists' });
    let sha = w.repos.tags(p.id).find((t) => t.name === tag)?.sha;
    if (!sha) {
      const ref = strParam(ctx, 'ref');
      if (!ref) throw new ApiError(422, { message: 'Ref is not specified' });
      const target = w.repos.resolveRef(p.id, ref);
      if (!target) throw E.badRequest(`Target ${ref} is invalid`);
      // Creating the tag writes to the repository.
      requireWritable(p);
      sha = target;
      w.repos.addTag(p.id, { name: tag, sha, message: strParam(ctx, 'tag_message') || null });
    }
    const releasedAtText = strParam(ctx, 'released_at');
    const releasedAt = releasedAtText ? Date.parse(releasedAtText) : Date.now();
    if (Number.isNaN(releasedAt)) throw E.invalid('released_at');
    const rec: ReleaseRec = {
      tagName: tag,
      name: strParam(ctx, 'name') ?? tag,
      description: strParam(ctx, 'description') ?? '',
      createdAt: Date.now(),
      releasedAt,
      authorId: ctx.user!.id,
      sha,
    };
    store.insert(p.id, tag, rec);
    sendJson(ctx, 201, releaseJson(ctx, p, rec));
  });
}
