// Releases: list (`order_by` released_at|created_at, `sort`,
// `include_html_description`), read by tag, the latest permalink, create
// (with links and milestones), update, delete (200 with the release), and
// their asset links (reference endpoints §6). Seeded projects have releases
// for v1.0.0 and v1.1.0, and the milestone v1.0 (id 1).
import { ApiError, E } from '../server/errors.js';
import { pageOf } from '../server/paging.js';
import { boolParam, enumParam, listParam, SORTS, strParam } from '../server/params.js';
import { sendJson, sendList, sendText } from '../server/respond.js';
import type { Ctx } from '../server/context.js';
import { type Compare, ordered } from '../store/collection.js';
import type { ProjectRec } from '../store/records.js';
import { iso } from '../util/time.js';
import { commitJson } from '../entities/commit.js';
import { requireAbility, requireWritable } from './guards.js';
import { PROTECTED_TAG_CREATE } from './refs.js';
import { type Release, releases } from './release-store.js';
import type { Mounts } from './mounts.js';
import { ask } from '../engine/ports.js';
import { addLink, dropLinks, type LinkRec, linkJson, linksOf, mountReleaseLinks } from './release-links.js';
import { userBasic } from '../entities/user.js';

/** A release's milestones as the service embeds them: the project's milestones of those titles. */
function milestonesJson(ctx: Ctx, p: ProjectRec, titles: string[]): unknown[] {
  const known = ask('projectMilestones')(ctx.world, p.id);
  return titles.flatMap((t) => known.filter((m) => m.title === t).map((m) => ask('milestoneJson')(ctx, m)));
}

function releaseJson(ctx: Ctx, p: ProjectRec, r: Release): Record<string, unknown> {
  const w = ctx.world;
  const web = `${w.base()}/${p.fullPath}`;
  const commit = w.repos.findCommit(p.id, r.sha);
  const tagEnc = encodeURIComponent(r.tagName);
  const html = boolParam(ctx, 'include_html_description') === true;
  const links = linksOf(ctx, p.id, r.tagName);
  return {
    name: r.name,
    tag_name: r.tagName,
    description: r.description,
    ...(html ? { description_html: `<p data-sourcepos="1:1-1:${r.description.length}" dir="auto">${r.description}</p>` } : {}),
    created_at: iso(r.createdAt),
    released_at: iso(r.releasedAt),
    upcoming_release: r.releasedAt > Date.now(),
    ...(r.milestones.length ? { milestones: milestonesJson(ctx, p, r.milestones) } : {}),
    author: userBasic(w, w.users.get(r.authorId) ?? w.users.get(1)!),
    commit: commit ? commitJson(w, p, commit) : null,
    commit_path: `/${p.fullPath}/-/commit/${r.sha}`,
    tag_path: `/${p.fullPath}/-/tags/${tagEnc}`,
    assets: {
      count: 4 + links.length,
      sources: ['zip', 'tar.gz', 'tar.bz2', 'tar'].map((f) => ({ format: f, url: `${web}/-/archive/${tagEnc}/${p.path}-${tagEnc}.${f}` })),
      links: links.map((l) => linkJson(ctx, p, r.tagName, l)),
    },
    evidences: [],
    _links: { self: `${web}/-/releases/${tagEnc}`, edit_url: `${web}/-/releases/${tagEnc}/edit` },
  };
}

const ORDERS: Record<string, Compare<Release>> = {
  released_at: (a, b) => a.releasedAt - b.releasedAt || a.createdAt - b.createdAt,
  created_at: (a, b) => a.createdAt - b.createdAt,
};

/** `milestones` (titles) xor `milestone_ids`, every one known to the project; undefined when neither is given. */
function milestonesParam(ctx: Ctx, p: ProjectRec): string[] | undefined {
  const hasTitles = ctx.params.milestones !== undefined;
  const hasIds = ctx.params.milestone_ids !== undefined;
  if (hasTitles && hasIds) throw new ApiError(400, { error: 'Cannot specify milestones and milestone_ids at the same time' });
  const known = new Map(ask('projectMilestones')(ctx.world, p.id).map((m) => [m.id, m.title]));
  if (hasIds) {
    const ids = listParam(ctx, 'milestone_ids') ?? [];
    const unknown = ids.filter((id) => !known.has(Number(id)));
    if (unknown.length) throw E.badRequest(`Milestone id(s) not found: ${unknown.join(', ')}`);
    return ids.map((id) => known.get(Number(id))!);
  }
  if (!hasTitles) return undefined;
  const titles = listParam(ctx, 'milestones') ?? [];
  const unknown = titles.filter((t) => ![...known.values()].includes(t));
  if (unknown.length) throw E.badRequest(`Milestone(s) not found: ${unknown.join(', ')}`);
  return titles;
}

function releasedAtParam(ctx: Ctx): number | undefined {
  const text = strParam(ctx, 'released_at');
  if (!text) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) throw E.invalid('released_at');
  return at;
}

/** `assets[links][]` of a create, checked before the release exists. */
function linksParam(ctx: Ctx): LinkRec[] {
  const assets = ctx.params.assets as { links?: unknown } | undefined;
  const given = assets && typeof assets === 'object' ? assets.links : undefined;
  if (given === undefined) return [];
  if (!Array.isArray(given)) throw E.invalid('assets[links]');
  const list: LinkRec[] = [];
  given.forEach((item, i) => {
    if (!item || typeof item !== 'object') throw E.invalid(`assets[links][${i}]`);
    addLink(ctx, list, item as Record<string, unknown>, (name) => `assets[links][${i}][${name}]`);
  });
  return list;
}

function releaseByTag(ctx: Ctx, p: ProjectRec, notFound = E.notFound): Release {
  const r = releases(ctx.world).get(p.id, ctx.p.tag_name!);
  if (!r) throw notFound();
  return r;
}

export function mountReleases({ project }: Mounts): void {
  const read = { auth: 'public' as const, job: true };
  const write = { auth: 'user' as const, job: true };
  project.get('/releases', read, (ctx, p) => {
    requireAbility(ctx, p, 'read_release');
    const orderBy = enumParam(ctx, 'order_by', ['released_at', 'created_at'] as const, 'released_at');
    const sort = enumParam(ctx, 'sort', SORTS, 'desc');
    const list = ordered(releases(ctx.world).list(p.id), ORDERS, orderBy, sort);
    sendList(
      ctx,
      pageOf(ctx, list).map((r) => releaseJson(ctx, p, r)),
    );
  });
  project.get('/releases/:tag_name', read, (ctx, p) => {
    requireAbility(ctx, p, 'read_release');
    sendJson(ctx, 200, releaseJson(ctx, p, releaseByTag(ctx, p)));
  });
  // Grape's redirect: a relative Location on the numeric id, the query kept but for order_by.
  project.get('/releases/permalink/latest', read, (ctx, p) => {
    requireAbility(ctx, p, 'read_release');
    const latest = ordered(releases(ctx.world).list(p.id), ORDERS, 'released_at', 'desc')[0];
    if (!latest) throw E.notFound();
    const query = ctx.rawPairs.filter(([k]) => k !== 'order_by').map(([k, v]) => `${k}=${v}`);
    const location = `/api/v4/projects/${p.id}/releases/${encodeURIComponent(latest.tagName)}${query.length ? `?${query.join('&')}` : ''}`;
    sendText(ctx, 302, `This resource has been moved temporarily to ${location}.`, 'text/plain', { Location: location });
  });
  project.post('/releases', write, (ctx, p) => {
    requireAbility(ctx, p, 'create_release');
    const tag = strParam(ctx, 'tag_name');
    if (!tag) throw E.missing('tag_name');
    // Releases::CreateService asks this before anything else, for an existing tag too.
    if (!ask('mayCreateTag')(ctx, p, tag)) throw new ApiError(403, { message: PROTECTED_TAG_CREATE });
    const w = ctx.world;
    const store = releases(w);
    if (store.get(p.id, tag)) throw new ApiError(409, { message: 'Release already exists' });
    const milestones = milestonesParam(ctx, p) ?? [];
    const links = linksParam(ctx);
    const releasedAt = releasedAtParam(ctx) ?? ctx.world.now();
    let sha = w.repos.tags(p.id).find((t) => t.name === tag)?.sha;
    if (!sha) {
      const ref = strParam(ctx, 'ref');
      if (!ref) throw new ApiError(422, { message: 'Ref is not specified' });
      // Creating the tag writes to the repository.
      requireWritable(p);
      sha = ask('createTag')(ctx, p, tag, ref, strParam(ctx, 'tag_message')).sha;
    }
    const rec: Release = {
      tagName: tag,
      name: strParam(ctx, 'name') ?? tag,
      description: strParam(ctx, 'description') ?? '',
      createdAt: ctx.world.now(),
      releasedAt,
      authorId: ctx.user!.id,
      sha,
      milestones,
    };
    store.insert(p.id, tag, rec);
    dropLinks(ctx, p.id, tag);
    linksOf(ctx, p.id, tag).push(...links);
    sendJson(ctx, 201, releaseJson(ctx, p, rec));
  });
  project.put('/releases/:tag_name', write, (ctx, p) => {
    requireAbility(ctx, p, 'create_release');
    const old = releaseByTag(ctx, p);
    const rec: Release = {
      ...old,
      name: strParam(ctx, 'name') ?? old.name,
      description: strParam(ctx, 'description') ?? old.description,
      releasedAt: releasedAtParam(ctx) ?? old.releasedAt,
      milestones: milestonesParam(ctx, p) ?? old.milestones,
    };
    releases(ctx.world).update(p.id, old.tagName, rec);
    sendJson(ctx, 200, releaseJson(ctx, p, rec));
  });
  project.delete('/releases/:tag_name', write, (ctx, p) => {
    // Maintainers delete releases; the tag stays.
    requireAbility(ctx, p, 'admin_project');
    const r = releaseByTag(ctx, p);
    const body = releaseJson(ctx, p, r);
    releases(ctx.world).remove(p.id, r.tagName);
    dropLinks(ctx, p.id, r.tagName);
    sendJson(ctx, 200, body);
  });
  mountReleaseLinks(project, (ctx, p, writing) => {
    requireAbility(ctx, p, writing ? 'create_release' : 'read_release');
    // The links API finds the release with `find_by!`: lowercase "f" in its 404.
    const r = releaseByTag(ctx, p, E.findNotFound);
    return { tag: r.tagName, list: linksOf(ctx, p.id, r.tagName) };
  });
}
