// Project and group labels (lib/api/labels.rb, group_labels.rb, helpers/label_helpers.rb,
// entities/label*.rb): `:label_id` is an id or a title; a project's list and reads include its
// ancestor groups' labels, updates and deletes only its own; a title already available → 409
// `Label already exists`; unknown → 404 `Label Not Found`; writes need the planner role or more.
// Also the routes deprecated in 12.4 (the label named in the body), subscriptions and promotion.
// Colours: CSS names as the service converts them, else `#RGB` / `#RRGGBB`. Counts come from the
// issues and merge requests through their ports (README, "Labels").
import { can, groupChain } from '../access.js';
import type { Input } from '../engine/fields.js';
import { type Action, mountPlain, type PlainHandlers, type Records } from '../engine/plain.js';
import { ask, type Labelled, offer } from '../engine/ports.js';
import type { Ctx } from '../server/context.js';
import { ApiError, E } from '../server/errors.js';
import { sendJson, sendText } from '../server/respond.js';
import { boolParam, strParam } from '../server/params.js';
import type { Scope } from '../server/router.js';
import { storeFor } from '../store/collection.js';
import type { ProjectRec } from '../store/records.js';
import type { World } from '../store/world.js';
import type { Mounts } from './mounts.js';
import { groupOwner, plansGroup, type ProjectOrGroup, projectOwner } from '../engine/owners.js';
import { escapeHtml } from '../util/html.js';

interface LabelRec {
  id: number;
  owner: string;
  title: string;
  color: string;
  description: string | null;
  /** a project label's priority in its project */
  priority: number | null;
}

/** Where labels are read and written: a project (with its ancestor groups) or a group. */
type Owner = ProjectOrGroup;

const PROJECT_SEED = [
  ['bug', '#d9534f', 'Something does not work'],
  ['feature', '#5cb85c', null],
  ['backend', '#428bca', null],
  ['documentation', '#f0ad4e', 'Docs and examples'],
] as const;
const GROUP_SEED = [
  ['security', '#dc143c', 'Needs a security review'],
  ['needs-review', '#8fbc8f', null],
] as const;

/** CSS colour names the service turns into hex codes (a subset; README, "Labels"). */
const NAMED: Readonly<Record<string, string>> = {
  black: '#000000',
  white: '#FFFFFF',
  red: '#FF0000',
  green: '#008000',
  blue: '#0000FF',
  yellow: '#FFFF00',
  orange: '#FFA500',
  purple: '#800080',
  gray: '#808080',
  grey: '#808080',
  silver: '#C0C0C0',
  maroon: '#800000',
  olive: '#808000',
  lime: '#00FF00',
  aqua: '#00FFFF',
  teal: '#008080',
  navy: '#000080',
  fuchsia: '#FF00FF',
  pink: '#FFC0CB',
  brown: '#A52A2A',
  gold: '#FFD700',
  indigo: '#4B0082',
  violet: '#EE82EE',
};
const HEX = /^#(?:[0-9A-Fa-f]{3}){1,2}$/;

function seedFor(w: World, key: string): LabelRec[] {
  const [kind, raw] = key.split(':') as ['project' | 'group', string];
  const id = Number(raw);
  // Only root groups carry seeded labels, so no title repeats along a group chain.
  const seeded =
    kind === 'project' ? (w.projects.get(id)?.seeded ?? false) : id <= w.seededGroupCount && w.groups.get(id)?.parentId === null;
  if (!seeded) return [];
  const seed = kind === 'project' ? PROJECT_SEED : GROUP_SEED;
  const first = kind === 'project' ? (id - 1) * PROJECT_SEED.length : w.seededProjects * PROJECT_SEED.length + (id - 1) * GROUP_SEED.length;
  return seed.map(([title, color, description], k) => ({
    id: first + k + 1,
    owner: key,
    title,
    color,
    description,
    priority: kind === 'project' && title === 'bug' ? 1 : null,
  }));
}

const labels = storeFor((w) => ({
  byOwner: new Map<string, LabelRec[]>(),
  nextId: w.seededProjects * PROJECT_SEED.length + w.seededGroupCount * GROUP_SEED.length + 1,
  /** `<user id>:<label id>`: who is subscribed to which label */
  subscribed: new Set<string>(),
}));

const subscription = (ctx: Ctx, l: LabelRec) => `${ctx.user?.id}:${l.id}`;

/** The live list of one owner's own labels, seeded on first use. */
function own(w: World, key: string): LabelRec[] {
  const store = labels(w);
  let list = store.byOwner.get(key);
  if (!list) {
    list = seedFor(w, key);
    store.byOwner.set(key, list);
  }
  return list;
}

const byTitle = (a: LabelRec, b: LabelRec) => (a.title < b.title ? -1 : a.title > b.title ? 1 : a.id - b.id);

/** The owner's labels and, unless asked not to, its ancestor groups' ones, by title. */
function available(ctx: Ctx, o: Owner, ancestors = boolParam(ctx, 'include_ancestor_groups') ?? true): LabelRec[] {
  const w = ctx.world;
  const group = o.group ?? (o.project?.nsKind === 'group' ? w.groups.get(o.project.nsOwner) : null);
  const chain = group ? groupChain(w, group) : [];
  const groups = o.group ? (ancestors ? chain : chain.slice(0, 1)) : ancestors ? chain : [];
  const keys = [...(o.project ? [o.key] : []), ...groups.map((g) => `group:${g.id}`)];
  return keys.flatMap((key) => own(w, key)).sort(byTitle);
}

/** Title rules of the model, then the colour's: one validation body, as `render_validation_error!`. */
function validate(title: string, color: string): void {
  const errors: Record<string, string[]> = {};
  if (title.trim() === '') errors.title = ["can't be blank"];
  if (!/^[^,]+$/.test(title)) errors.title = [...(errors.title ?? []), 'is invalid'];
  if (!HEX.test(color)) errors.color = ['must be a valid color code'];
  if (Object.keys(errors).length > 0) throw E.validation(errors);
}

const colour = (value: string) => NAMED[value.trim().toLowerCase()] ?? value.trim();

function textColor(color: string): string {
  const hex = color.length === 4 ? [...color.slice(1)].map((c) => c + c) : [color.slice(1, 3), color.slice(3, 5), color.slice(5, 7)];
  return hex.reduce((sum, h) => sum + parseInt(h, 16), 0) > 500 ? '#333333' : '#FFFFFF';
}

function projectsUnder(w: World, o: Owner): number[] {
  if (o.project) return [o.project.id];
  const groups = w.groupSubtree(o.group!.id);
  return w.allIds.filter((id) => {
    const p = w.projects.get(id)!;
    return p.nsKind === 'group' && groups.has(p.nsOwner);
  });
}

function counts(ctx: Ctx, o: Owner, l: LabelRec): Record<string, number> {
  const w = ctx.world;
  const pids = projectsUnder(w, o);
  const count = (of: (w: World, pid: number) => readonly Labelled[], state: string) =>
    pids.reduce((n, pid) => n + of(w, pid).filter((x) => x.state === state && x.labels.includes(l.title)).length, 0);
  return {
    open_issues_count: count(ask('issuesOf'), 'opened'),
    closed_issues_count: count(ask('issuesOf'), 'closed'),
    open_merge_requests_count: count(ask('mergeRequestsOf'), 'opened'),
  };
}

function labelJson(ctx: Ctx, o: Owner, l: LabelRec, action: Action): Record<string, unknown> {
  const onProject = o.project !== null;
  return {
    id: l.id,
    name: l.title,
    color: l.color,
    description: l.description,
    description_html: l.description ? `<p dir="auto">${escapeHtml(l.description)}</p>` : '',
    text_color: textColor(l.color),
    remove_on_close: false,
    ...(action === 'list' && boolParam(ctx, 'with_counts') ? counts(ctx, o, l) : {}),
    subscribed: labels(ctx.world).subscribed.has(subscription(ctx, l)),
    ...(onProject ? { priority: l.owner === o.key ? l.priority : null, is_project_label: l.owner.startsWith('project:') } : {}),
  };
}

const records: Records<Owner, LabelRec> = {
  list: (ctx, o) => available(ctx, o),
  find(ctx, o, key, action) {
    const list = action === 'read' ? available(ctx, o) : own(ctx.world, o.key);
    return list.find((l) => /^\d+$/.test(key) && l.id === Number(key)) ?? list.find((l) => l.title === key);
  },
  add(ctx, o, input) {
    const l: LabelRec = {
      id: labels(ctx.world).nextId++,
      owner: o.key,
      title: (input.name as string).trim(),
      color: colour(input.color as string),
      description: (input.description as string | undefined) ?? null,
      priority: o.project && typeof input.priority === 'number' ? input.priority : null,
    };
    validate(l.title, l.color);
    own(ctx.world, o.key).push(l);
    return l;
  },
  change(ctx, o, l, input) {
    const next: LabelRec = {
      ...l,
      title: typeof input.new_name === 'string' ? input.new_name.trim() : l.title,
      color: typeof input.color === 'string' ? colour(input.color) : l.color,
      description: typeof input.description === 'string' ? input.description : l.description,
      priority: 'priority' in ctx.params ? ((input.priority as number | undefined) ?? null) : l.priority,
    };
    validate(next.title, next.color);
    if (own(ctx.world, o.key).some((x) => x !== l && x.title === next.title)) throw E.validation({ title: ['has already been taken'] });
    const list = own(ctx.world, o.key);
    list[list.indexOf(l)] = next;
    return next;
  },
  drop(ctx, o, l) {
    const list = own(ctx.world, o.key);
    list.splice(list.indexOf(l), 1);
  },
};

const UPDATE = {
  new_name: { type: 'string' },
  color: { type: 'string' },
  description: { type: 'string' },
  archived: { type: 'boolean' },
} as const;
const CREATE = {
  name: { type: 'string', required: true },
  color: { type: 'string', required: true },
  description: { type: 'string' },
  archived: { type: 'boolean' },
} as const;

/** A label the owner can use (its ancestor groups' too), by id or title, as `find_label`. */
function usable(ctx: Ctx, o: Owner): LabelRec {
  const l = records.find(ctx, o, ctx.p.label_id!, 'read');
  if (!l) throw E.notFound('Label');
  return l;
}

/** `POST …/labels/:label_id/subscribe|unsubscribe` (lib/api/subscriptions.rb): 201 with the label, 304 when nothing changes. */
function mountSubscriptions<P>(scope: Scope<P>, owner: (parent: P) => Owner): void {
  for (const [action, on] of [
    ['subscribe', true],
    ['unsubscribe', false],
  ] as const) {
    scope.post(`/labels/:label_id/${action}`, { auth: 'user' }, (ctx, parent) => {
      const o = owner(parent);
      const l = usable(ctx, o);
      const set = labels(ctx.world).subscribed;
      if (set.has(subscription(ctx, l)) === on) return sendText(ctx, 304, '', 'application/json');
      if (on) set.add(subscription(ctx, l));
      else set.delete(subscription(ctx, l));
      sendJson(ctx, 201, labelJson(ctx, o, l, 'read'));
    });
  }
}

/**
 * The routes deprecated in 12.4 and still served, which python-gitlab 3.x and the Ruby gem send: the
 * label named in the body, `name` or an integer `label_id` (exactly one; a group's DELETE takes `name` only).
 */
function mountBodyNamed<P>(scope: Scope<P>, handlers: PlainHandlers<P>, deleteByIdToo: boolean): void {
  const nameFromBody = (ctx: Ctx, byId: boolean) => {
    const name = strParam(ctx, 'name');
    const id = byId ? ctx.params.label_id : undefined;
    if (name !== undefined && id !== undefined) throw new ApiError(400, { error: 'label_id, name are mutually exclusive' });
    if (id !== undefined && !/^\d+$/.test(String(id))) throw E.invalid('label_id');
    if (name === undefined && id === undefined) {
      throw byId ? new ApiError(400, { error: 'label_id, name are missing, exactly one parameter must be provided' }) : E.missing('name');
    }
    ctx.p.label_id = name ?? String(id);
  };
  scope.put('/labels', { auth: 'user' }, (ctx, parent) => {
    nameFromBody(ctx, true);
    handlers.update(ctx, parent);
  });
  scope.delete('/labels', { auth: 'user' }, (ctx, parent) => {
    nameFromBody(ctx, deleteByIdToo);
    handlers.remove(ctx, parent);
  });
}

function mountLabels<P>(
  scope: Scope<P>,
  owner: (parent: P) => Owner,
  mayWrite: (ctx: Ctx, parent: P) => boolean,
  priority: boolean,
): PlainHandlers<P> {
  const atLeastOne = ['new_name', 'color', 'description', ...(priority ? ['priority'] : []), 'archived'];
  return mountPlain<P, Owner, LabelRec>({
    scope,
    path: '/labels',
    key: 'label_id',
    auth: { read: 'user', write: 'user' },
    may: { create: mayWrite, update: mayWrite, delete: mayWrite },
    owner: (_ctx, parent) => owner(parent),
    fields: {
      create: priority ? { ...CREATE, priority: { type: 'integer' } } : CREATE,
      update: priority ? { ...UPDATE, priority: { type: 'integer' } } : UPDATE,
      atLeastOne,
    },
    records,
    notFound: () => E.notFound('Label'),
    conflict: {
      message: 'Label already exists',
      clashes: (ctx, o, input: Input, self) => self === null && available(ctx, o, true).some((l) => l.title === String(input.name).trim()),
    },
    filter: (ctx, _o, list) => {
      const search = strParam(ctx, 'search')?.toLowerCase();
      return search ? list.filter((l) => l.title.toLowerCase().includes(search)) : list;
    },
    json: labelJson,
    deleted: 204,
  });
}

export function mountLabelResources({ project, group }: Mounts): void {
  offer('labelNamed', (ctx, p, name) => {
    const l = available(ctx, projectOwner(p), true).find((x) => x.title === name);
    return l ? { id: l.id, name: l.title, color: l.color, description: l.description } : null;
  });
  const onProject = mountLabels(project, projectOwner, (ctx, p) => can(ctx.world, ctx.user, p, 'admin_label'), true);
  const onGroup = mountLabels(group, groupOwner, plansGroup, false);
  mountBodyNamed(project, onProject, true);
  mountBodyNamed(group, onGroup, false);
  mountSubscriptions(project, projectOwner);
  mountSubscriptions(group, groupOwner);
  project.put('/labels/:label_id/promote', { auth: 'user' }, promote);
}

/**
 * `PUT /projects/:id/labels/:name/promote` (label_helpers.rb `promote_label`, Labels::PromoteService): the
 * project label becomes a label of the project's group (the group's own one of that title if it has one),
 * and the project labels of that title in every project under the group go; issues and merge requests keep
 * the title, so they now carry the group label. 200 with the GroupLabel entity.
 */
function promote(ctx: Ctx, p: ProjectRec): void {
  const w = ctx.world;
  if (p.nsKind !== 'group') throw E.badRequest('Failed to promote project label to group label');
  const group = w.groups.get(p.nsOwner)!;
  if (!plansGroup(ctx, group)) throw E.forbidden();
  const l = own(w, `project:${p.id}`).find(
    (x) => (/^\d+$/.test(ctx.p.label_id!) && x.id === Number(ctx.p.label_id)) || x.title === ctx.p.label_id,
  );
  if (!l) throw E.notFound('Label');
  const target = groupOwner(group);
  const kept = own(w, target.key);
  let promoted = kept.find((x) => x.title === l.title);
  if (!promoted) {
    promoted = { id: labels(w).nextId++, owner: target.key, title: l.title, color: l.color, description: l.description, priority: null };
    kept.push(promoted);
  }
  for (const pid of projectsUnder(w, target)) {
    const list = own(w, `project:${pid}`);
    const at = list.findIndex((x) => x.title === l.title);
    if (at >= 0) list.splice(at, 1);
  }
  sendJson(ctx, 200, labelJson(ctx, target, promoted, 'read'));
}
