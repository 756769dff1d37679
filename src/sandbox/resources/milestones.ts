// Project and group milestones (lib/api/project_milestones.rb, group_milestones.rb,
// milestone_responses.rb, entities/milestone.rb, app/models/milestone.rb and timebox concerns):
// listed newest first (`order_id_desc`), filtered by `state`, `title`, `search`, `iids[]` and
// `include_ancestors`; `state_event` close|activate on update; a title already used in the project
// and its group (or the group and its projects) and a due date before the start date are answered
// `400 Failed to create|update milestone {…}`; unknown → `404 Milestone Not Found`; writes need
// `admin_milestone` (planner and up). Seeded projects have `v1.0` (id 1, iid 1). README, "Milestones".
import { can, groupChain } from '../access.js';
import { mountPlain, type Records } from '../engine/plain.js';
import type { Ctx } from '../server/context.js';
import { E } from '../server/errors.js';
import { boolParam, enumParam, listParam, strParam } from '../server/params.js';
import type { Scope } from '../server/router.js';
import { storeFor } from '../store/collection.js';
import type { GroupRec, ProjectRec } from '../store/records.js';
import type { World } from '../store/world.js';
import { iso } from '../util/time.js';
import { offer } from '../engine/ports.js';
import type { Mounts } from './mounts.js';
import { groupOwner, plansGroup, type ProjectOrGroup, projectOwner } from '../engine/owners.js';

export interface MilestoneRec {
  id: number;
  iid: number;
  owner: string;
  title: string;
  description: string | null;
  state: 'active' | 'closed';
  dueDate: string | null;
  startDate: string | null;
  createdAt: number;
  updatedAt: number;
}

type Owner = ProjectOrGroup;

const milestones = storeFor(() => ({ byOwner: new Map<string, MilestoneRec[]>(), nextId: 2 }));

function own(w: World, key: string): MilestoneRec[] {
  const store = milestones(w);
  let list = store.byOwner.get(key);
  if (!list) {
    const [kind, raw] = key.split(':') as ['project' | 'group', string];
    const p = kind === 'project' ? w.projects.get(Number(raw)) : null;
    list = p?.seeded ? [seeded(p)] : [];
    store.byOwner.set(key, list);
  }
  return list;
}

function seeded(p: ProjectRec): MilestoneRec {
  const at = p.createdAt;
  const base = { id: 1, iid: 1, owner: `project:${p.id}`, title: 'v1.0', description: null };
  return { ...base, state: 'active', dueDate: null, startDate: null, createdAt: at, updatedAt: at };
}

/** A project's own milestones, for what refers to them by id or title (releases). */
export function projectMilestones(w: World, projectId: number): readonly MilestoneRec[] {
  return own(w, `project:${projectId}`);
}

const groupOf = (w: World, o: Owner): GroupRec | null =>
  o.group ?? (o.project?.nsKind === 'group' ? (w.groups.get(o.project.nsOwner) ?? null) : null);

/** The owner's own milestones, and with `include_ancestors` its groups' ones above. */
function withAncestors(w: World, o: Owner): MilestoneRec[] {
  const group = groupOf(w, o);
  const chain = group ? groupChain(w, group) : [];
  const keys = [o.key, ...(o.group ? chain.slice(1) : chain).map((g) => `group:${g.id}`)];
  return keys.flatMap((key) => own(w, key));
}

/** Where a title must be unique: the project and its group, or the group and its projects. */
function titleTaken(w: World, o: Owner, title: string, self: MilestoneRec | null): boolean {
  const group = groupOf(w, o);
  const keys = o.project
    ? [o.key, ...(group ? [`group:${group.id}`] : [])]
    : [o.key, ...w.allIds.filter((id) => isIn(w.projects.get(id)!, o.group!)).map((id) => `project:${id}`)];
  return keys.some((key) => own(w, key).some((m) => m !== self && m.title === title));
}

const isIn = (p: ProjectRec, g: GroupRec) => p.nsKind === 'group' && p.nsOwner === g.id;

/** A `YYYY-MM-DD` date as the model casts it: anything else is no date; `''` clears. */
function date(value: unknown): string | null {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value ? value : null;
}

/** The model's validations, said as `render_api_error!` says `errors.messages` (a Ruby hash). */
function validate(w: World, o: Owner, m: MilestoneRec, self: MilestoneRec | null, verb: 'create' | 'update'): void {
  const errors: string[] = [];
  if (m.title.trim() === '') errors.push(':title=>["can\'t be blank"]');
  else if (titleTaken(w, o, m.title, self)) errors.push(':title=>["already being used for another group or project milestone."]');
  if (m.dueDate && m.startDate && m.dueDate < m.startDate) errors.push(':due_date=>["must be greater than start date"]');
  if (errors.length > 0) throw E.badRequest(`Failed to ${verb} milestone {${errors.join(', ')}}`);
}

export function milestoneJson(ctx: Ctx, m: MilestoneRec): Record<string, unknown> {
  const w = ctx.world;
  const [kind, raw] = m.owner.split(':') as ['project' | 'group', string];
  const path = kind === 'project' ? `${w.projects.get(Number(raw))!.fullPath}/-` : `groups/${w.groups.get(Number(raw))!.fullPath}/-`;
  const today = iso(w.now()).slice(0, 10);
  return {
    id: m.id,
    iid: m.iid,
    ...(kind === 'project' ? { project_id: Number(raw) } : { group_id: Number(raw) }),
    title: m.title,
    description: m.description,
    state: m.state,
    created_at: iso(m.createdAt),
    updated_at: iso(m.updatedAt),
    due_date: m.dueDate,
    start_date: m.startDate,
    expired: m.dueDate !== null && m.dueDate < today,
    web_url: `${w.base()}/${path}/milestones/${m.iid}`,
  };
}

const records: Records<Owner, MilestoneRec> = {
  list: (ctx, o) =>
    (boolParam(ctx, 'include_ancestors') ? withAncestors(ctx.world, o) : own(ctx.world, o.key)).toSorted((a, b) => b.id - a.id),
  find: (ctx, o, key) => (/^\d+$/.test(key) ? own(ctx.world, o.key).find((m) => m.id === Number(key)) : undefined),
  add(ctx, o, input) {
    const w = ctx.world;
    const list = own(w, o.key);
    const now = w.now();
    const m: MilestoneRec = {
      id: milestones(w).nextId,
      iid: list.reduce((max, x) => Math.max(max, x.iid), 0) + 1,
      owner: o.key,
      title: String(input.title),
      description: (input.description as string | undefined) ?? null,
      state: 'active',
      dueDate: date(input.due_date),
      startDate: date(input.start_date),
      createdAt: now,
      updatedAt: now,
    };
    validate(w, o, m, null, 'create');
    milestones(w).nextId++;
    list.push(m);
    return m;
  },
  change(ctx, o, m, input) {
    const has = (k: string) => input[k] !== undefined;
    const next: MilestoneRec = {
      ...m,
      title: has('title') ? String(input.title) : m.title,
      description: has('description') ? String(input.description) : m.description,
      dueDate: has('due_date') ? date(input.due_date) : m.dueDate,
      startDate: has('start_date') ? date(input.start_date) : m.startDate,
      state: input.state_event === 'close' ? 'closed' : input.state_event === 'activate' ? 'active' : m.state,
      updatedAt: ctx.world.now(),
    };
    validate(ctx.world, o, next, m, 'update');
    const list = own(ctx.world, o.key);
    list[list.indexOf(m)] = next;
    return next;
  },
  drop(ctx, o, m) {
    const list = own(ctx.world, o.key);
    list.splice(list.indexOf(m), 1);
  },
};

function filter(ctx: Ctx, _o: Owner, list: readonly MilestoneRec[]): readonly MilestoneRec[] {
  const state = enumParam(ctx, 'state', ['active', 'closed', 'all'] as const, 'all');
  const title = strParam(ctx, 'title');
  const search = strParam(ctx, 'search')?.toLowerCase();
  // The service drops `iids` when `include_ancestors` is given.
  const iids = boolParam(ctx, 'include_ancestors') ? undefined : listParam(ctx, 'iids')?.map(Number);
  const found = (m: MilestoneRec) => `${m.title}\n${m.description ?? ''}`.toLowerCase().includes(search!);
  return list.filter(
    (m) =>
      (state === 'all' || m.state === state) &&
      (title === undefined || m.title === title) &&
      (search === undefined || found(m)) &&
      (iids === undefined || iids.includes(m.iid)),
  );
}

const DATES = { description: { type: 'string' }, due_date: { type: 'string' }, start_date: { type: 'string' } } as const;
const CREATE = { title: { type: 'string', required: true }, ...DATES } as const;
const UPDATE = { title: { type: 'string' }, ...DATES, state_event: { type: 'string', values: ['close', 'activate'] } } as const;

function mountMilestones<P>(scope: Scope<P>, owner: (parent: P) => Owner, mayWrite: (ctx: Ctx, parent: P) => boolean): void {
  mountPlain<P, Owner, MilestoneRec>({
    scope,
    path: '/milestones',
    key: 'milestone_id',
    auth: { read: 'public', write: 'user' },
    may: { create: mayWrite, update: mayWrite, delete: mayWrite },
    owner: (_ctx, parent) => owner(parent),
    fields: { create: CREATE, update: UPDATE, atLeastOne: ['title', 'description', 'due_date', 'start_date', 'state_event'] },
    records,
    notFound: () => E.notFound('Milestone'),
    filter,
    json: (ctx, _o, m) => milestoneJson(ctx, m),
    deleted: 204,
  });
}

export function mountMilestoneResources({ project, group }: Mounts): void {
  offer('milestoneTotal', milestoneTotal);
  offer('projectMilestones', projectMilestones);
  offer('milestoneJson', milestoneJson);
  mountMilestones(project, projectOwner, (ctx, p) => can(ctx.world, ctx.user, p, 'admin_milestone'));
  mountMilestones(group, groupOwner, plansGroup);
}

/** Milestones of the whole instance, seeded ones included (`GET /application/statistics`). */
function milestoneTotal(w: World): number {
  const { byOwner } = milestones(w);
  let n = 0;
  for (const pid of w.allIds) n += byOwner.get(`project:${pid}`)?.length ?? (w.projects.get(pid)!.seeded ? 1 : 0);
  for (const [key, list] of byOwner) if (key.startsWith('group:')) n += list.length;
  return n;
}
