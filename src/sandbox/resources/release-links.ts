// Release asset links (reference endpoints §6, "Links"): list, create,
// read, update, delete (200 with the deleted link). A name or URL used
// twice in one release → 400 `{"message":"Name has already been taken"}`
// (or `Url`), the model's full message, where the reference is open.
import type { Ctx } from '../server/context.js';
import { ApiError, E } from '../server/errors.js';
import { pageOf } from '../server/paging.js';
import { enumParam, intSeg, strParam } from '../server/params.js';
import { sendJson, sendList } from '../server/respond.js';
import type { Scope } from '../server/router.js';
import { storeFor } from '../store/collection.js';
import type { ProjectRec } from '../store/records.js';

export interface LinkRec {
  id: number;
  name: string;
  url: string;
  directAssetPath: string | null;
  linkType: LinkType;
}

const LINK_TYPES = ['other', 'runbook', 'image', 'package'] as const;
type LinkType = (typeof LINK_TYPES)[number];

const links = storeFor(() => ({ nextId: 1, byRelease: new Map<string, LinkRec[]>() }));

/** The links of one release, in creation order (a live array: callers add and remove in place). */
export function linksOf(ctx: Ctx, pid: number, tag: string): LinkRec[] {
  const store = links(ctx.world);
  const id = `${pid}\u0000${tag}`;
  let list = store.byRelease.get(id);
  if (!list) {
    list = [];
    store.byRelease.set(id, list);
  }
  return list;
}

export function dropLinks(ctx: Ctx, pid: number, tag: string): void {
  links(ctx.world).byRelease.delete(`${pid}\u0000${tag}`);
}

export function linkJson(ctx: Ctx, p: ProjectRec, tag: string, l: LinkRec): Record<string, unknown> {
  const web = `${ctx.world.base()}/${p.fullPath}`;
  const direct = l.directAssetPath ? `${web}/-/releases/${encodeURIComponent(tag)}/downloads${l.directAssetPath}` : l.url;
  return { id: l.id, name: l.name, url: l.url, direct_asset_url: direct, link_type: l.linkType };
}

/** Raw link attributes (from `assets[links][]` or a link route), checked and added to the release. */
export function addLink(ctx: Ctx, list: LinkRec[], input: Record<string, unknown>, label = (name: string) => name): LinkRec {
  const text = (name: string) => {
    const v = input[name];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string') throw E.invalid(label(name));
    return v;
  };
  const name = text('name');
  const url = text('url');
  const missing = [name ? '' : label('name'), url ? '' : label('url')].filter(Boolean);
  if (missing.length > 0) throw E.missing(...missing);
  const type = text('link_type') ?? 'other';
  if (!(LINK_TYPES as readonly string[]).includes(type)) throw E.notValid(label('link_type'));
  const link: LinkRec = {
    id: links(ctx.world).nextId++,
    name: name!,
    url: url!,
    directAssetPath: normalisedPath(text('direct_asset_path')),
    linkType: type as LinkType,
  };
  checkUnique(list, link);
  list.push(link);
  return link;
}

function normalisedPath(path: string | undefined): string | null {
  if (!path) return null;
  return path.startsWith('/') ? path : `/${path}`;
}

function checkUnique(list: LinkRec[], link: LinkRec): void {
  const others = list.filter((l) => l.id !== link.id);
  if (others.some((l) => l.name === link.name)) throw new ApiError(400, { message: 'Name has already been taken' });
  if (others.some((l) => l.url === link.url)) throw new ApiError(400, { message: 'Url has already been taken' });
}

/**
 * Routes under `/releases/:tag_name/assets/links`; `release` answers the tag's links after the
 * read or write check, or throws the release's 404.
 */
export function mountReleaseLinks(
  project: Scope<ProjectRec>,
  release: (ctx: Ctx, p: ProjectRec, write: boolean) => { tag: string; list: LinkRec[] },
): void {
  const base = '/releases/:tag_name/assets/links';
  const opts = { auth: 'public' as const, job: true };
  const find = (ctx: Ctx, list: LinkRec[]) => {
    const id = intSeg(ctx, 'link_id');
    const link = list.find((l) => l.id === id);
    if (!link) throw E.findNotFound();
    return link;
  };
  project.get(base, opts, (ctx, p) => {
    const { tag, list } = release(ctx, p, false);
    sendList(
      ctx,
      pageOf(ctx, list).map((l) => linkJson(ctx, p, tag, l)),
    );
  });
  project.post(base, { ...opts, auth: 'user' }, (ctx, p) => {
    const { tag, list } = release(ctx, p, true);
    sendJson(ctx, 201, linkJson(ctx, p, tag, addLink(ctx, list, ctx.params)));
  });
  project.get(`${base}/:link_id`, opts, (ctx, p) => {
    const { tag, list } = release(ctx, p, false);
    sendJson(ctx, 200, linkJson(ctx, p, tag, find(ctx, list)));
  });
  project.put(`${base}/:link_id`, { ...opts, auth: 'user' }, (ctx, p) => {
    const { tag, list } = release(ctx, p, true);
    const link = find(ctx, list);
    const name = strParam(ctx, 'name');
    const url = strParam(ctx, 'url');
    if (name === undefined && url === undefined) throw E.atLeastOne('name', 'url');
    const type = enumParam(ctx, 'link_type', LINK_TYPES, link.linkType);
    const path = strParam(ctx, 'direct_asset_path');
    const next: LinkRec = {
      ...link,
      name: name ?? link.name,
      url: url ?? link.url,
      linkType: type,
      directAssetPath: path === undefined ? link.directAssetPath : normalisedPath(path),
    };
    checkUnique(list, next);
    list[list.indexOf(link)] = next;
    sendJson(ctx, 200, linkJson(ctx, p, tag, next));
  });
  project.delete(`${base}/:link_id`, { ...opts, auth: 'user' }, (ctx, p) => {
    const { tag, list } = release(ctx, p, true);
    const link = find(ctx, list);
    list.splice(list.indexOf(link), 1);
    sendJson(ctx, 200, linkJson(ctx, p, tag, link));
  });
}
