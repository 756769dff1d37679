// Release asset links (reference endpoints §6, "Links"): list, create,
// read, update, delete (200 with the deleted link). A name or URL used
// twice in one release → 400 `{"message":"Name has already been taken"}`
// (or `Url`), the model's full message, where the reference is open.
import { mountPlain, type Records } from '../engine/plain.js';
import type { Ctx } from '../server/context.js';
import { ApiError, E } from '../server/errors.js';
import { intSeg } from '../server/params.js';
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

/** The release whose links a request reads or writes. */
interface Release {
  p: ProjectRec;
  tag: string;
  list: LinkRec[];
}

const records: Records<Release, LinkRec> = {
  list: (_ctx, r) => r.list,
  find: (ctx, r) => {
    const id = intSeg(ctx, 'link_id');
    return r.list.find((l) => l.id === id);
  },
  // Creation checks its own parameters: `assets[links][]` of a release goes through it too.
  add: (ctx, r) => addLink(ctx, r.list, ctx.params),
  change(_ctx, r, link, input) {
    const path = input.direct_asset_path as string | undefined;
    const next: LinkRec = {
      ...link,
      name: (input.name as string | undefined) ?? link.name,
      url: (input.url as string | undefined) ?? link.url,
      linkType: (input.link_type as LinkType | undefined) ?? link.linkType,
      directAssetPath: path === undefined ? link.directAssetPath : normalisedPath(path),
    };
    checkUnique(r.list, next);
    r.list[r.list.indexOf(link)] = next;
    return next;
  },
  drop(_ctx, r, link) {
    r.list.splice(r.list.indexOf(link), 1);
  },
};

/**
 * Routes under `/releases/:tag_name/assets/links`; `release` answers the tag's links after the
 * read or write check, or throws the release's 404.
 */
export function mountReleaseLinks(
  project: Scope<ProjectRec>,
  release: (ctx: Ctx, p: ProjectRec, write: boolean) => { tag: string; list: LinkRec[] },
): void {
  mountPlain<ProjectRec, Release, LinkRec>({
    scope: project,
    path: '/releases/:tag_name/assets/links',
    key: 'link_id',
    auth: { read: 'public', write: 'user' },
    job: true,
    owner: (ctx, p, action) => ({ p, ...release(ctx, p, action !== 'list' && action !== 'read') }),
    fields: {
      create: {},
      update: {
        name: { type: 'string' },
        url: { type: 'string' },
        link_type: { type: 'string', values: LINK_TYPES },
        direct_asset_path: { type: 'string' },
      },
      atLeastOne: ['name', 'url'],
    },
    records,
    notFound: () => E.findNotFound(),
    json: (ctx, r, link) => linkJson(ctx, r.p, r.tag, link),
    deleted: 200,
  });
}
