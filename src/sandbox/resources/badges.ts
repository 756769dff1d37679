// Project and group badges (lib/api/badges.rb, helpers/badges_helpers.rb, entities/basic_badge_details.rb,
// badge.rb, app/models/badge.rb): anyone who can see the owner lists and reads them; a project's list
// adds its groups' badges (`kind: "group"`) to its own. Maintainers change a project's, owners a group's
// (`authorize_admin_source!`), administrators both. `link_url` and `image_url` are required on create
// and must be URLs; `render` previews the placeholders. An unknown id is `find`'s `404 Not found`.
// Placeholders take their values from the project, or for a group from its first project by id
// (README, "Badges").
import { can, groupChain, groupRole, OWNER } from '../access.js';
import type { Ctx } from '../server/context.js';
import { E } from '../server/errors.js';
import { strParam } from '../server/params.js';
import { sendJson } from '../server/respond.js';
import { mountPlain, type Records } from '../engine/plain.js';
import { groupOwner, type ProjectOrGroup, projectOwner } from '../engine/owners.js';
import type { Input } from '../engine/fields.js';
import type { Scope } from '../server/router.js';
import { storeFor } from '../store/collection.js';
import type { GroupRec, ProjectRec } from '../store/records.js';
import type { World } from '../store/world.js';
import { defaultBranch } from '../store/default-branches.js';
import type { Mounts } from './mounts.js';

interface BadgeRec {
  id: number;
  owner: string;
  name: string | null;
  linkUrl: string;
  imageUrl: string;
}

const badges = storeFor(() => ({ list: [] as BadgeRec[], nextId: 1 }));

const URL_LIKE = /^https?:\/\/[^\s/$.?#][^\s]*$/i;

/** The project whose values fill a badge's placeholders. */
function placeholderProject(w: World, o: ProjectOrGroup): ProjectRec | null {
  if (o.project) return o.project;
  const groups = w.groupSubtree(o.group!.id);
  const id = w.allIds.find((pid) => {
    const p = w.projects.get(pid)!;
    return p.nsKind === 'group' && groups.has(p.nsOwner);
  });
  return id === undefined ? null : w.projects.get(id);
}

function render(ctx: Ctx, o: ProjectOrGroup, url: string): string {
  const w = ctx.world;
  const p = placeholderProject(w, o);
  if (!p) return url;
  const branch = defaultBranch(w, p.id);
  const values: Record<string, string> = {
    project_path: p.fullPath,
    project_title: p.name,
    project_name: p.path,
    project_id: String(p.id),
    project_namespace: p.fullPath.slice(0, p.fullPath.lastIndexOf('/')),
    default_branch: branch,
    commit_sha: w.repos.isEmpty(p.id) ? '' : (w.repos.resolveRef(p.id, branch) ?? ''),
    gitlab_server: new URL(w.base()).host,
  };
  return url.replace(/%\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
}

function details(ctx: Ctx, o: ProjectOrGroup, b: Pick<BadgeRec, 'name' | 'linkUrl' | 'imageUrl'>): Record<string, unknown> {
  return {
    name: b.name,
    link_url: b.linkUrl,
    image_url: b.imageUrl,
    rendered_link_url: render(ctx, o, b.linkUrl),
    rendered_image_url: render(ctx, o, b.imageUrl),
  };
}

function validate(b: Pick<BadgeRec, 'linkUrl' | 'imageUrl'>): void {
  const errors: Record<string, string[]> = {};
  if (!URL_LIKE.test(b.linkUrl)) errors.link_url = ['must be a valid URL'];
  if (!URL_LIKE.test(b.imageUrl)) errors.image_url = ['must be a valid URL'];
  if (Object.keys(errors).length) throw E.validation(errors);
}

/** A project's own badges and its groups' ones; a group's own. */
function visible(w: World, o: ProjectOrGroup): BadgeRec[] {
  const group = o.project?.nsKind === 'group' ? w.groups.get(o.project.nsOwner) : null;
  const keys = new Set([o.key, ...(group ? groupChain(w, group).map((g) => groupOwner(g).key) : [])]);
  return badges(w).list.filter((b) => keys.has(b.owner));
}

const records: Records<ProjectOrGroup, BadgeRec> = {
  list: (ctx, o) => visible(ctx.world, o),
  find: (ctx, o, key) => (/^\d+$/.test(key) ? visible(ctx.world, o).find((b) => b.id === Number(key)) : undefined),
  add(ctx, o, input: Input) {
    const rec: BadgeRec = {
      id: 0,
      owner: o.key,
      name: (input.name as string | undefined) ?? null,
      linkUrl: String(input.link_url),
      imageUrl: String(input.image_url),
    };
    validate(rec);
    rec.id = badges(ctx.world).nextId++;
    badges(ctx.world).list.push(rec);
    return rec;
  },
  change(_ctx, _o, rec, input: Input) {
    const next = {
      linkUrl: (input.link_url as string | undefined) ?? rec.linkUrl,
      imageUrl: (input.image_url as string | undefined) ?? rec.imageUrl,
    };
    validate(next);
    Object.assign(rec, next, input.name !== undefined ? { name: String(input.name) } : {});
    return rec;
  },
  drop(ctx, _o, rec) {
    const list = badges(ctx.world).list;
    list.splice(list.indexOf(rec), 1);
  },
};

function mountBadges<P>(scope: Scope<P>, owner: (parent: P) => ProjectOrGroup, admin: (ctx: Ctx, parent: P) => boolean): void {
  mountPlain<P, ProjectOrGroup, BadgeRec>({
    scope,
    path: '/badges',
    key: 'badge_id',
    auth: { read: 'public', write: 'user' },
    may: { create: admin, update: admin, delete: admin },
    owner: (_ctx, parent) => owner(parent),
    fields: {
      create: { link_url: { type: 'string', required: true }, image_url: { type: 'string', required: true }, name: { type: 'string' } },
      update: { link_url: { type: 'string' }, image_url: { type: 'string' }, name: { type: 'string' } },
    },
    records,
    filter: (ctx, _o, list) => {
      const name = strParam(ctx, 'name');
      return name === undefined ? list : list.filter((b) => b.name === name);
    },
    notFound: () => E.findNotFound(),
    json: (ctx, o, b) => ({ ...details(ctx, o, b), id: b.id, kind: b.owner.startsWith('group:') ? 'group' : 'project' }),
    deleted: 204,
  });
  scope.get('/badges/render', { auth: 'user' }, (ctx, parent) => {
    if (!admin(ctx, parent)) throw E.forbidden();
    const missing = ['link_url', 'image_url'].filter((k) => strParam(ctx, k) === undefined);
    if (missing.length) throw E.missing(...missing);
    const draft = { name: strParam(ctx, 'name') ?? null, linkUrl: strParam(ctx, 'link_url')!, imageUrl: strParam(ctx, 'image_url')! };
    validate(draft);
    sendJson(ctx, 200, details(ctx, owner(parent), draft));
  });
}

const ownsGroup = (ctx: Ctx, g: GroupRec) => ctx.user!.isAdmin || groupRole(ctx.world, ctx.user!.id, g) >= OWNER;

export function mountBadgeResources({ project, group }: Mounts): void {
  mountBadges(project, projectOwner, (ctx, p) => can(ctx.world, ctx.user, p, 'admin_project'));
  mountBadges(group, groupOwner, ownsGroup);
}
