// Tags: `GET …/repository/tags` (`order_by` name|updated|version, default
// updated desc; `search` with `^`/`$`; offset or Gitaly keyset pages),
// `GET …/tags/:tag`, create, delete (protected `v*` tags: maintainers only).
import { can } from '../access.js';
import type { Ctx } from '../server/context.js';
import { E } from '../server/errors.js';
import { isKeyset, pageOf } from '../server/paging.js';
import { enumParam, SORTS, strParam } from '../server/params.js';
import { sendJson, sendList } from '../server/respond.js';
import type { ProjectRec } from '../store/records.js';
import type { TagRec } from '../store/repository.js';
import { iso } from '../util/time.js';
import { gitalyKeysetPage, refSearch, validRefName, PROTECTED_TAG_CREATE } from './refs.js';
import { commitJson } from '../entities/commit.js';
import { requireAbility, requireWritable } from './guards.js';
import type { Mounts } from './mounts.js';
import { ask, offer } from '../engine/ports.js';
import { releaseOf } from './release-store.js';

/** `Gitlab::UserAccess#can_create_tag?`, by the project's protected-tag rules (`v*` unless changed). */
export function mayCreateTag(ctx: Ctx, p: ProjectRec, name: string): boolean {
  return ask('mayCreateProtectedTag')(ctx.world, ctx.user, p, name);
}

// Kept for the resources of branches in flight that import it from here.
export { PROTECTED_TAG_CREATE } from './refs.js';

function tagJson(ctx: Ctx, p: ProjectRec, t: TagRec): Record<string, unknown> {
  const w = ctx.world;
  const c = w.repos.findCommit(p.id, t.sha);
  const rel = releaseOf(w, p.id, t.name);
  return {
    name: t.name,
    message: t.message,
    target: t.message ? w.repos.fileBlob(Buffer.from(`tag ${t.name}`)).blobId : t.sha,
    commit: c ? commitJson(w, p, c) : null,
    release: rel ? { tag_name: rel.tagName, description: rel.description } : null,
    protected: ask('isProtectedTag')(w, p.id, t.name),
    created_at: c && t.message ? iso(c.createdAt + 60_000) : null,
  };
}

/** Version order: numeric runs compare as numbers, the rest as text. */
function compareVersions(a: string, b: string): number {
  const pa = a.match(/\d+|\D+/g) ?? [];
  const pb = b.match(/\d+|\D+/g) ?? [];
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i];
    const y = pb[i];
    if (x === undefined || y === undefined) return x === undefined ? -1 : 1;
    const nx = /^\d/.test(x) && /^\d/.test(y) ? Number(x) - Number(y) : x < y ? -1 : x > y ? 1 : 0;
    if (nx !== 0) return nx;
  }
  return 0;
}

/**
 * `Tags::CreateService`: the name must be a valid ref, new, its target must resolve, and a
 * protected name takes a maintainer; its failures answer 400 with the service's text.
 */
export function createTag(ctx: Ctx, p: ProjectRec, name: string, ref: string, message: string | undefined): TagRec {
  const repos = ctx.world.repos;
  if (!validRefName(name)) throw E.badRequest('Tag name invalid');
  if (repos.tags(p.id).some((t) => t.name === name)) throw E.badRequest(`Tag ${name} already exists`);
  const sha = repos.resolveRef(p.id, ref);
  if (!sha) throw E.badRequest(`Target ${ref} is invalid`);
  // The push is refused by the repository's pre-receive check, whose message the service passes on.
  if (!mayCreateTag(ctx, p, name)) throw E.badRequest(PROTECTED_TAG_CREATE);
  const tag: TagRec = { name, sha, message: message || null };
  repos.addTag(p.id, tag);
  return tag;
}

export function mountTags({ project }: Mounts): void {
  offer('createTag', createTag);
  offer('mayCreateTag', mayCreateTag);
  project.get('/repository/tags', { auth: 'public', job: true }, (ctx, p) => {
    requireAbility(ctx, p, 'read_code');
    const orderBy = enumParam(ctx, 'order_by', ['name', 'updated', 'version'] as const, 'updated');
    const sort = enumParam(ctx, 'sort', SORTS, 'desc');
    const repos = ctx.world.repos;
    const match = refSearch(strParam(ctx, 'search'));
    const when = (t: TagRec) => repos.findCommit(p.id, t.sha)?.createdAt ?? 0;
    const tags = repos.tags(p.id).filter((t) => match(t.name));
    tags.sort((a, b) => {
      if (orderBy === 'version') return compareVersions(a.name, b.name);
      if (orderBy === 'updated') return when(a) - when(b) || (a.name < b.name ? -1 : 1);
      return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
    });
    if (sort === 'desc') tags.reverse();
    const page = isKeyset(ctx) ? gitalyKeysetPage(ctx, tags, (t) => t.name) : pageOf(ctx, tags);
    sendList(
      ctx,
      page.map((t) => tagJson(ctx, p, t)),
    );
  });
  project.get('/repository/tags/:tag', { auth: 'public' }, (ctx, p) => {
    requireAbility(ctx, p, 'read_code');
    const t = ctx.world.repos.tags(p.id).find((x) => x.name === ctx.p.tag);
    if (!t) throw E.notFound('Tag');
    sendJson(ctx, 200, tagJson(ctx, p, t));
  });
  project.post('/repository/tags', { auth: 'user' }, (ctx, p) => {
    requireAbility(ctx, p, 'push_code');
    const name = strParam(ctx, 'tag_name');
    const ref = strParam(ctx, 'ref');
    const missing = [name === undefined ? 'tag_name' : '', ref === undefined ? 'ref' : ''].filter(Boolean);
    if (missing.length > 0) throw E.missing(...missing);
    requireWritable(p);
    const tag = createTag(ctx, p, name!, ref!, strParam(ctx, 'message'));
    sendJson(ctx, 201, tagJson(ctx, p, tag));
  });
  project.delete('/repository/tags/:tag', { auth: 'user' }, (ctx, p) => {
    requireAbility(ctx, p, 'push_code');
    requireWritable(p);
    const name = ctx.p.tag!;
    if (!ctx.world.repos.tags(p.id).some((t) => t.name === name)) throw E.notFound('Tag');
    // Deleting a protected tag takes a maintainer (the ability maintainers hold).
    if (ask('isProtectedTag')(ctx.world, p.id, name) && !can(ctx.world, ctx.user, p, 'admin_project'))
      throw E.badRequest("You don't have access to delete the tag");
    ctx.world.repos.removeTag(p.id, name);
    sendJson(ctx, 204, null);
  });
}
