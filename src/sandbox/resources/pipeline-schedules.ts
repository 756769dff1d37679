// Pipeline schedules (lib/api/ci/pipeline_schedules.rb, entities/ci/pipeline_schedule*.rb,
// app/models/ci/pipeline_schedule.rb, app/validators/cron_validator.rb, and
// app/policies/ci/pipeline_schedule_policy.rb): reporters read, developers create and play, only
// the schedule's owner updates it and its variables, the owner or a maintainer deletes it or reads
// and deletes its variables, and a maintainer takes it over (the owner taking it again: 200).
// Playing starts a pipeline at once through the `startPipeline` port (README, "Pipeline schedules").
import { can, projectRole } from '../access.js';
import { mountPlain, type Records } from '../engine/plain.js';
import { ask } from '../engine/ports.js';
import type { Ctx } from '../server/context.js';
import { E } from '../server/errors.js';
import { enumParam, strParam } from '../server/params.js';
import { pageOf } from '../server/paging.js';
import { sendJson, sendList } from '../server/respond.js';
import { storeFor } from '../store/collection.js';
import type { ProjectRec } from '../store/records.js';
import type { World } from '../store/world.js';
import { iso } from '../util/time.js';
import { nextRun, parseCron, zoneOffset } from '../util/cron.js';
import type { Mounts } from './mounts.js';
import { userBasic } from '../entities/user.js';

const REPORTER = 20;
const VARIABLE_TYPES = ['env_var', 'file'] as const;

interface ScheduleVariable {
  key: string;
  value: string;
  variable_type: (typeof VARIABLE_TYPES)[number];
}

export interface ScheduleRec {
  id: number;
  projectId: number;
  description: string;
  ref: string;
  cron: string;
  cronTimezone: string;
  active: boolean;
  ownerId: number;
  createdAt: number;
  updatedAt: number;
  lastPipeline: { id: number; sha: string; ref: string; status: string } | null;
  variables: ScheduleVariable[];
  /** the pipelines its plays started, oldest first */
  pipelineIds: number[];
}

const schedules = storeFor(() => ({ list: [] as ScheduleRec[], nextId: 1 }));

/** A schedule a scenario describes: it takes the next id. */
export function addSchedule(w: World, s: Omit<ScheduleRec, 'id'>): void {
  const store = schedules(w);
  store.list.push({ ...s, id: store.nextId++ });
}

/** The model's validations, answered in one body as `render_validation_error!`. */
function validate(s: ScheduleRec): void {
  const errors: Record<string, string[]> = {};
  if (s.description.trim() === '') errors.description = ["can't be blank"];
  if (s.ref.trim() === '') errors.ref = ["can't be blank"];
  if (!parseCron(s.cron)) errors.cron = [' is invalid syntax'];
  else if (zoneOffset(s.cronTimezone, 0) === null) errors.cron_time_zone = [' is invalid timezone'];
  if (Object.keys(errors).length > 0) throw E.validation(errors);
}

function nextRunAt(w: World, s: ScheduleRec): string {
  const now = w.now();
  return iso(nextRun(parseCron(s.cron)!, now, zoneOffset(s.cronTimezone, now)!));
}

function scheduleJson(w: World, s: ScheduleRec, withDetails: boolean): Record<string, unknown> {
  const owner = w.users.get(s.ownerId);
  return {
    id: s.id,
    description: s.description,
    ref: s.ref,
    cron: s.cron,
    cron_timezone: s.cronTimezone,
    next_run_at: nextRunAt(w, s),
    active: s.active,
    created_at: iso(s.createdAt),
    updated_at: iso(s.updatedAt),
    owner: owner ? userBasic(w, owner) : null,
    ...(withDetails ? { last_pipeline: s.lastPipeline, variables: s.variables.map((v) => ({ ...v })) } : {}),
  };
}

const isOwner = (ctx: Ctx, s: ScheduleRec) => ctx.user!.isAdmin || ctx.user!.id === s.ownerId;
const mayRead = (ctx: Ctx, p: ProjectRec) => ctx.user!.isAdmin || projectRole(ctx.world, ctx.user, p) >= REPORTER;

function edit(ctx: Ctx, s: ScheduleRec, input: Record<string, string | number | boolean>): ScheduleRec {
  const next: ScheduleRec = {
    ...s,
    description: typeof input.description === 'string' ? input.description : s.description,
    ref: typeof input.ref === 'string' ? input.ref : s.ref,
    cron: typeof input.cron === 'string' ? input.cron : s.cron,
    cronTimezone: typeof input.cron_timezone === 'string' ? input.cron_timezone : s.cronTimezone,
    active: typeof input.active === 'boolean' ? input.active : s.active,
    updatedAt: ctx.world.now(),
  };
  validate(next);
  return next;
}

const records: Records<ProjectRec, ScheduleRec> = {
  list: (ctx, p) => schedules(ctx.world).list.filter((s) => s.projectId === p.id),
  find: (ctx, p, key) => schedules(ctx.world).list.find((s) => s.projectId === p.id && String(s.id) === key),
  add(ctx, p, input) {
    const store = schedules(ctx.world);
    const now = ctx.world.now();
    const blank: ScheduleRec = {
      id: 0,
      projectId: p.id,
      description: '',
      ref: '',
      cron: '',
      cronTimezone: 'UTC',
      active: true,
      ownerId: ctx.user!.id,
      createdAt: now,
      updatedAt: now,
      lastPipeline: null,
      variables: [],
      pipelineIds: [],
    };
    const s = { ...edit(ctx, blank, input), id: store.nextId++ };
    store.list.push(s);
    return s;
  },
  change(ctx, _p, s, input) {
    if (!isOwner(ctx, s)) throw E.forbidden();
    const next = edit(ctx, s, input);
    const list = schedules(ctx.world).list;
    list[list.indexOf(s)] = next;
    return next;
  },
  drop(ctx, p, s) {
    if (!can(ctx.world, ctx.user, p, 'admin_project') && !isOwner(ctx, s)) throw E.forbidden();
    const list = schedules(ctx.world).list;
    list.splice(list.indexOf(s), 1);
  },
};

const FIELDS = {
  description: { type: 'string' },
  ref: { type: 'string' },
  cron: { type: 'string' },
  cron_timezone: { type: 'string' },
  active: { type: 'boolean' },
} as const;

/** The schedule of the path, after the read check every action shares. */
function scheduleOf(ctx: Ctx, p: ProjectRec): ScheduleRec {
  if (!mayRead(ctx, p)) throw E.forbidden();
  const s = records.find(ctx, p, ctx.p.schedule_id!, 'read');
  if (!s) throw E.notFound('Pipeline Schedule');
  return s;
}

function play(ctx: Ctx, p: ProjectRec): void {
  const s = scheduleOf(ctx, p);
  if (!can(ctx.world, ctx.user, p, 'create_pipeline')) throw E.forbidden();
  const w = ctx.world;
  const sha = w.repos.isBranchOrTag(p.id, s.ref) ? w.repos.resolveRef(p.id, s.ref) : null;
  if (!sha) throw E.validation({ base: ['Reference not found'] });
  const variables = s.variables.map((v) => ({ key: v.key, value: v.value, variable_type: v.variable_type }));
  const pipeline = ask('startPipeline')(w, p, { ref: s.ref, sha, userId: s.ownerId, variables, source: 'schedule' });
  s.lastPipeline = { id: pipeline.id as number, sha, ref: s.ref, status: pipeline.status as string };
  s.pipelineIds.push(pipeline.id as number);
  sendJson(ctx, 201, { message: '201 Created' });
}

/** The pipelines the schedule started, as PipelineBasic; `sort` by id, ascending unless asked. */
function schedulePipelines(ctx: Ctx, p: ProjectRec): void {
  const s = scheduleOf(ctx, p);
  if (!can(ctx.world, ctx.user, p, 'read_pipeline')) throw E.forbidden();
  const sort = enumParam(ctx, 'sort', ['asc', 'desc'] as const) ?? 'asc';
  const started = new Set(s.pipelineIds);
  const list = ask('listedPipelines')(ctx.world, p, undefined).filter((pl) => started.has(pl.id));
  list.sort((a, b) => (sort === 'asc' ? a.id - b.id : b.id - a.id));
  sendList(
    ctx,
    pageOf(ctx, list).map((pl) => ask('pipelineJson')(ctx.world, pl, false)),
  );
}

function variableOf(s: ScheduleRec, key: string): ScheduleVariable {
  const v = s.variables.find((x) => x.key === key);
  if (!v) throw E.notFound('Pipeline Schedule Variable');
  return v;
}

function mountVariables(project: Mounts['project']): void {
  const owned = (ctx: Ctx, p: ProjectRec) => {
    const s = scheduleOf(ctx, p);
    if (!isOwner(ctx, s)) throw E.forbidden();
    return s;
  };
  // Reading and deleting a variable take `admin_pipeline_schedule`: a maintainer, or the owner.
  const administered = (ctx: Ctx, p: ProjectRec) => {
    const s = scheduleOf(ctx, p);
    if (!isOwner(ctx, s) && !can(ctx.world, ctx.user, p, 'admin_project')) throw E.forbidden();
    return s;
  };
  const type = (ctx: Ctx) => enumParam(ctx, 'variable_type', VARIABLE_TYPES);
  project.post('/pipeline_schedules/:schedule_id/variables', { auth: 'user' }, (ctx, p) => {
    const s = owned(ctx, p);
    const key = strParam(ctx, 'key');
    const value = strParam(ctx, 'value');
    const missing = [key === undefined && 'key', value === undefined && 'value'].filter((n): n is string => Boolean(n));
    if (missing.length) throw E.missing(...missing);
    if (!/^[a-zA-Z0-9_]+$/.test(key!)) throw E.validation({ key: ["can contain only letters, digits and '_'."] });
    if (s.variables.some((v) => v.key === key)) throw E.validation({ key: [`(${key}) has already been taken`] });
    const v: ScheduleVariable = { key: key!, value: value!, variable_type: type(ctx) ?? 'env_var' };
    s.variables.push(v);
    sendJson(ctx, 201, v);
  });
  project.put('/pipeline_schedules/:schedule_id/variables/:key', { auth: 'user' }, (ctx, p) => {
    const v = variableOf(owned(ctx, p), ctx.p.key!);
    const value = strParam(ctx, 'value');
    const variableType = type(ctx);
    if (value !== undefined) v.value = value;
    if (variableType !== undefined) v.variable_type = variableType;
    sendJson(ctx, 200, v);
  });
  project.get('/pipeline_schedules/:schedule_id/variables/:key', { auth: 'user' }, (ctx, p) => {
    sendJson(ctx, 200, variableOf(administered(ctx, p), ctx.p.key!));
  });
  project.delete('/pipeline_schedules/:schedule_id/variables/:key', { auth: 'user' }, (ctx, p) => {
    const s = administered(ctx, p);
    const v = variableOf(s, ctx.p.key!);
    s.variables.splice(s.variables.indexOf(v), 1);
    sendJson(ctx, 202, v);
  });
}

export function mountPipelineSchedules({ project }: Mounts): void {
  mountPlain<ProjectRec, ProjectRec, ScheduleRec>({
    scope: project,
    path: '/pipeline_schedules',
    key: 'schedule_id',
    auth: { read: 'user', write: 'user' },
    may: {
      list: mayRead,
      read: mayRead,
      create: (ctx, p) => can(ctx.world, ctx.user, p, 'create_pipeline'),
      update: mayRead,
      delete: (ctx, p) => can(ctx.world, ctx.user, p, 'create_pipeline'),
    },
    owner: (_ctx, p) => p,
    fields: {
      create: {
        description: { type: 'string', required: true },
        ref: { type: 'string', required: true },
        cron: { type: 'string', required: true },
        cron_timezone: { type: 'string' },
        active: { type: 'boolean' },
      },
      update: FIELDS,
    },
    records,
    notFound: () => E.notFound('Pipeline Schedule'),
    filter: (ctx, _p, list) => {
      const scope = enumParam(ctx, 'scope', ['active', 'inactive'] as const);
      return scope ? list.filter((s) => s.active === (scope === 'active')) : list;
    },
    json: (ctx, _p, s, action) => scheduleJson(ctx.world, s, action !== 'list'),
    deleted: 204,
  });
  project.post('/pipeline_schedules/:schedule_id/play', { auth: 'user' }, play);
  project.get('/pipeline_schedules/:schedule_id/pipelines', { auth: 'user' }, schedulePipelines);
  project.post('/pipeline_schedules/:schedule_id/take_ownership', { auth: 'user' }, (ctx, p) => {
    const s = scheduleOf(ctx, p);
    const owns = s.ownerId === ctx.user!.id;
    // `admin_pipeline_schedule`: a maintainer, or the owner while still a developer; the owner
    // taking it again is answered 200 instead of the create status.
    if (!can(ctx.world, ctx.user, p, 'admin_project') && !(owns && can(ctx.world, ctx.user, p, 'create_pipeline'))) {
      throw E.forbidden();
    }
    if (!owns) {
      s.ownerId = ctx.user!.id;
      s.updatedAt = ctx.world.now();
    }
    sendJson(ctx, owns ? 200 : 201, scheduleJson(ctx.world, s, true));
  });
  mountVariables(project);
}
